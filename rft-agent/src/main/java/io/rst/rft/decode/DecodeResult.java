/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import java.util.Locale;

/**
 * What {@link FrameDecoder} made of one frame: a CM MAD, a RoCE data packet, a PFC frame, an
 * LLDPDU, or the reason it was skipped. Callers count skips per value (e.g. an
 * {@code long[values().length]}).
 */
public enum DecodeResult {
    /** A CM MAD: the {@link CmMessage} holds it. */
    CM_MAD(false),
    /** A RoCE packet that is not a CM MAD (RC/UC/UD/XRC data, ACKs, CNPs): IPs and BTH are set. */
    ROCE_DATA(false),
    /** The frame ends inside a header we need (snap length, or a damaged frame). */
    TRUNCATED(true),
    /** Linktype we do not read. */
    UNSUPPORTED_LINKTYPE(true),
    /** Neither IPv4, IPv6, RoCEv1, PFC nor LLDP (ARP, 802.3x PAUSE ...). */
    NOT_IP(true),
    /** An IP header that is not valid (version, header length, total length). */
    BAD_IP_HEADER(true),
    /** A fragment of an IP datagram: RoCEv2 does not fragment, we do not reassemble. */
    IP_FRAGMENT(true),
    /** IP but not UDP (TCP, ICMP ...). */
    NOT_UDP(true),
    /** UDP to another port than the RoCEv2 port. */
    NOT_ROCE_PORT(true),
    /** UDP length shorter than the RoCE headers, or longer than the IP payload. */
    BAD_UDP_LENGTH(true),
    /** BTH opcode not defined by the IBA (nor CNP). */
    UNKNOWN_OPCODE(true),
    /** A QP1 MAD whose base version we do not know, or a CM MAD too short for its attribute. */
    BAD_MAD(true),
    /** A QP1 MAD of another management class (not CM: SA, PerfMgt ...). */
    NOT_CM_CLASS(true),
    /** A CM MAD with an attribute ID that is not a CM message. */
    UNKNOWN_CM_ATTRIBUTE(true),
    /**
     * A PFC frame (MAC control, ethertype 0x8808, opcode 0x0101): the {@link CmMessage}'s PFC
     * fields (source MAC, priority-enable vector, 8 pause quanta) hold it.
     */
    PFC(false),
    /** A PFC frame that ends before its priority-enable vector and its 8 pause times. */
    BAD_PFC(true),
    /**
     * An LLDPDU (ethertype 0x88cc, IEEE 802.1AB) with its Chassis ID, Port ID and TTL: the
     * {@link CmMessage#lldp()} view holds it, {@link CmMessage#srcMac()} its sender.
     */
    LLDP(false),
    /** An LLDPDU with a TLV header or a TLV's value past the end of the frame. */
    LLDP_TRUNCATED(true),
    /** An LLDPDU that does not start with the Chassis ID, Port ID and TTL TLVs in that order. */
    LLDP_MISSING_TLV(true),
    /**
     * An LLDPDU with a TLV whose length does not fit its type (an empty or 256-byte ID, a TTL
     * shorter than 2 bytes, a management address whose lengths disagree, a network address of the
     * wrong length for its family), or a second Chassis ID, Port ID or TTL.
     */
    LLDP_BAD_TLV(true),
    /** An LLDPDU whose Chassis ID or Port ID subtype is not one of 1 to 7. */
    LLDP_UNKNOWN_SUBTYPE(true);

    private static final DecodeResult[] VALUES = values();

    private final boolean skipped;

    DecodeResult(final boolean skipped) {
        this.skipped = skipped;
    }

    /** True when the frame was not decoded, this value being the reason. */
    public boolean isSkipped() {
        return skipped;
    }

    /** True for the reasons an LLDPDU was skipped ({@code lldp_truncated} ...). */
    public boolean isMalformedLldp() {
        return this == LLDP_TRUNCATED || this == LLDP_MISSING_TLV || this == LLDP_BAD_TLV
            || this == LLDP_UNKNOWN_SUBTYPE;
    }

    /** The reason in lower case, as printed in summaries ("truncated", "not_ip" ...). */
    public String reason() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value with this ordinal. */
    public static DecodeResult ofOrdinal(final int ordinal) {
        return VALUES[ordinal];
    }
}
