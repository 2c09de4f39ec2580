/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * The tools jar's command line: {@code decode FILE}, {@code sessions FILE}, {@code gen --out FILE}
 * (and {@code agent}, the switch agent of {@code io.rst.rft.agent}). JSON lines on stdout, one summary
 * line on stderr.
 */
@NonNullByDefault
package io.rst.rft.cli;

import org.eclipse.jdt.annotation.NonNullByDefault;
