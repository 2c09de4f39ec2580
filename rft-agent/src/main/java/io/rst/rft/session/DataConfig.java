/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

/**
 * Settings of the sessions a {@link SessionTable} learns from sampled data packets
 * ({@link SessionTable#trackData(DataConfig)}).
 *
 * @param maxFlows the most one-way flows held (a paired session holds two); beyond, the least
 *        recently seen record is evicted
 * @param idleMicros how long a data-learned record stays ACTIVE after its last sampled packet;
 *        then it is IDLE, and removed after the table's retention
 * @param reportMicros a data-learned record's changes are reported at most once in this time
 */
public record DataConfig(int maxFlows, long idleMicros, long reportMicros) {
    /** 1,000,000 flows, 30 s to IDLE, one report per record in 5 s at most. */
    public static final DataConfig DEFAULT = new DataConfig(1_000_000, 30_000_000L, 5_000_000L);

    public DataConfig {
        if (maxFlows < 2) {
            throw new IllegalArgumentException("maxFlows must be at least 2: " + maxFlows);
        }
        if (idleMicros < 1 || reportMicros < 0) {
            throw new IllegalArgumentException("idle must be positive, report interval not negative");
        }
    }
}
