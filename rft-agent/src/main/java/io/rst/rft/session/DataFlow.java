/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.rft.decode.JsonBytes;
import org.eclipse.jdt.annotation.Nullable;

/**
 * One direction of a session's data as a switch saw it: from the sampled data BTH packets, the
 * UDP source port of the last one (ECMP hashes it, and it is usually not the CM packets' port),
 * the port it entered the switch on, how many were sampled, the DSCP of the last one, and how many
 * were ECN-capable and how many arrived marked CE; and the CNPs about this direction's data that
 * crossed the switch (every one the capture saw: CNPs are not sampled). The ECN figures are the IP
 * header's as the packets entered this switch: a mark set upstream shows here, one set by this
 * switch's egress queue does not.
 *
 * <p>A direction with CNPs but no sampled data packet (its data crossed other switches, or none of
 * it was sampled) has {@code packets} 0, {@code udpSrcPort} 0 and no ingress port: it says nothing
 * about where that data enters.
 *
 * @param udpSrcPort UDP source port of the direction's data packets (0 for RoCEv1, or no packet)
 * @param ingressPort where they entered, null if the capture did not say (files) or none was sampled
 * @param packets data packets sampled; 0 only when CNPs alone were seen
 * @param dscp DSCP of the last sampled data packet, null when none was sampled
 * @param ect sampled data packets that were ECN-capable: ECT(0), ECT(1) or CE
 * @param ce sampled data packets that arrived marked CE (Congestion Experienced)
 * @param cnp CNPs the direction's receiver sent to its sender's QP, seen at this switch
 */
@SuppressFBWarnings(value = "NP_STORE_INTO_NONNULL_FIELD",
    justification = "the absent values are @Nullable components: SpotBugs reads no TYPE_USE @Nullable on fields")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DataFlow(
        @JsonProperty("udp_src_port") int udpSrcPort,
        @JsonProperty("ingress_port") @Nullable String ingressPort,
        @JsonProperty("packets") long packets,
        @JsonProperty("dscp") @Nullable Integer dscp,
        @JsonProperty("ect") long ect,
        @JsonProperty("ce") long ce,
        @JsonProperty("cnp") long cnp) {

    public DataFlow {
        if (udpSrcPort < 0 || udpSrcPort > 65535) {
            throw new IllegalArgumentException("UDP port out of range: " + udpSrcPort);
        }
        if (packets < 0 || ect < 0 || ce < 0 || cnp < 0) {
            throw new IllegalArgumentException("negative count: " + packets + " " + ect + " " + ce + " " + cnp);
        }
        if (packets < 1 && cnp < 1) {
            throw new IllegalArgumentException("a data flow has a sampled packet or a CNP: " + packets);
        }
        if (dscp != null && (dscp < 0 || dscp > 63)) {
            throw new IllegalArgumentException("DSCP out of range: " + dscp);
        }
    }

    /** A direction's sampled data without ECN figures or CNPs. */
    public DataFlow(final int udpSrcPort, final @Nullable String ingressPort, final long packets) {
        this(udpSrcPort, ingressPort, packets, null, 0, 0, 0);
    }

    /** Appends this flow as one JSON object (the fields Jackson writes). */
    public void appendJson(final JsonBytes out) {
        out.raw("{\"udp_src_port\":").decimal(udpSrcPort);
        if (ingressPort != null) {
            out.raw(",\"ingress_port\":").string(ingressPort);
        }
        out.raw(",\"packets\":").decimal(packets);
        if (dscp != null) {
            out.raw(",\"dscp\":").decimal((int) dscp);
        }
        out.raw(",\"ect\":").decimal(ect).raw(",\"ce\":").decimal(ce).raw(",\"cnp\":").decimal(cnp).raw('}');
    }
}
