/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import java.util.Map;

/**
 * The CM REJ reason codes in words: IBTA volume 1, table 112 ("REJ reason codes"), with the names
 * tshark's InfiniBand dissector prints, shortened where the table's name says less than the cause.
 */
final class RejectReasons {
    private static final Map<Integer, String> NAMES = Map.ofEntries(
        Map.entry(1, "no QP available"),
        Map.entry(2, "no EEC available"),
        Map.entry(3, "no resources available"),
        Map.entry(4, "timeout"),
        Map.entry(5, "unsupported request"),
        Map.entry(6, "invalid comm ID"),
        Map.entry(7, "invalid comm instance"),
        Map.entry(8, "invalid service ID (nobody listens)"),
        Map.entry(9, "invalid transport type"),
        Map.entry(10, "stale connection"),
        Map.entry(11, "RDC does not exist"),
        Map.entry(12, "primary remote GID rejected"),
        Map.entry(13, "primary remote LID rejected"),
        Map.entry(14, "invalid primary SL"),
        Map.entry(15, "invalid primary traffic class"),
        Map.entry(16, "invalid primary hop limit"),
        Map.entry(17, "invalid primary packet rate"),
        Map.entry(18, "alternate remote GID rejected"),
        Map.entry(19, "alternate remote LID rejected"),
        Map.entry(20, "invalid alternate SL"),
        Map.entry(21, "invalid alternate traffic class"),
        Map.entry(22, "invalid alternate hop limit"),
        Map.entry(23, "invalid alternate packet rate"),
        Map.entry(24, "port CM redirect"),
        Map.entry(25, "port redirect"),
        Map.entry(26, "invalid MTU"),
        Map.entry(27, "insufficient responder resources"),
        Map.entry(28, "consumer reject (the application refused)"),
        Map.entry(29, "invalid RNR retry"),
        Map.entry(30, "duplicate local comm ID"),
        Map.entry(31, "invalid class version"),
        Map.entry(32, "invalid flow label"),
        Map.entry(33, "invalid alternate flow label"),
        Map.entry(35, "vendor option not supported"));

    private RejectReasons() {
        // constants only
    }

    /** The reason in words, with its code; a negative code means the REJ's reason is unknown. */
    static String text(final int code) {
        if (code < 0) {
            return "reason unknown";
        }
        final var name = NAMES.get(code);
        return name == null ? "reason " + code : name + " (reason " + code + ")";
    }
}
