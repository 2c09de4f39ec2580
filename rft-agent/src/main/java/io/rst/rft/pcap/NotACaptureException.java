/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.pcap;

import java.io.IOException;

/** The file is neither pcap nor pcapng (or its first header is damaged). */
public final class NotACaptureException extends IOException {
    private static final long serialVersionUID = 1L;

    public NotACaptureException(final String message) {
        super(message);
    }
}
