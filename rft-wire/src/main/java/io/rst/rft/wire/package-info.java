/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * What the RFT switch agent and the controller share, and nothing else: the agent's wire contract.
 * It depends on the JDK alone, so that it is one small OSGi bundle in Karaf and a few classes in
 * the agent's plain jar.
 */
package io.rst.rft.wire;
