/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.manager;

import java.util.Set;

/**
 * The members of the cluster as this member sees them. Reads only: called every second from the
 * tracker's thread, it must not block.
 */
interface ClusterMembers {
    /** This member's name ({@code member-N}, its cluster role). */
    String self();

    /** The members up and reachable from here, this one included. */
    Set<String> reachable();
}
