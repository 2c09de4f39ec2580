/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.lab;

/** Something the lab could not do, said in one line for the operator. */
public final class LabException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LabException(final String message) {
        super(message);
    }

    public LabException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
