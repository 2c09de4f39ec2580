/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

/**
 * Told about every change of a {@link SessionTable}, on the thread that called
 * {@link SessionTable#accept} or {@link SessionTable#expire}: return quickly, do not block
 * (hand the record to a queue if it must travel).
 */
@FunctionalInterface
public interface SessionListener {
    void sessionChanged(SessionChange change, SessionRecord session);
}
