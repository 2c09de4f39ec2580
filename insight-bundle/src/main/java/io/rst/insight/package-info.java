/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * What the controller makes of the flow and path tables: the problems it names
 * ({@code rst-insight:problems}), the YANG notifications of their changes, and the Prometheus
 * metrics at {@code /metrics}.
 *
 * <p>{@link io.rst.insight.InsightService} is the thin shell: one member of a cluster (the
 * singleton's owner) runs an {@link io.rst.insight.InsightWorker}, which follows
 * {@code rdma-flow-table:rft} and {@code rdma-path-table:rpt} (operational) through the DOM API
 * into a {@link io.rst.insight.FabricIndex} on its one thread, and a
 * {@link io.rst.insight.ProblemDetector} names the problems from it.
 */
@NonNullByDefault
package io.rst.insight;

import org.eclipse.jdt.annotation.NonNullByDefault;
