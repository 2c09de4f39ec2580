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
import io.rst.rft.decode.JsonBytes;

/**
 * One direction of a session's data as a switch saw it, from sampled data BTH packets: the UDP
 * source port of the last one (ECMP hashes it, and it is usually not the CM packets' port), the
 * port it entered the switch on, and how many were sampled.
 *
 * @param udpSrcPort UDP source port of the direction's data packets (0 for RoCEv1)
 * @param ingressPort where they entered, null if the capture did not say (files)
 * @param packets data packets sampled, at least 1
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DataFlow(
        @JsonProperty("udp_src_port") int udpSrcPort,
        @JsonProperty("ingress_port") String ingressPort,
        @JsonProperty("packets") long packets) {

    public DataFlow {
        if (udpSrcPort < 0 || udpSrcPort > 65535) {
            throw new IllegalArgumentException("UDP port out of range: " + udpSrcPort);
        }
        if (packets < 1) {
            throw new IllegalArgumentException("a data flow has at least one packet: " + packets);
        }
    }

    /** Appends this flow as one JSON object (the fields Jackson writes). */
    public void appendJson(final JsonBytes out) {
        out.raw("{\"udp_src_port\":").decimal(udpSrcPort);
        if (ingressPort != null) {
            out.raw(",\"ingress_port\":").string(ingressPort);
        }
        out.raw(",\"packets\":").decimal(packets).raw('}');
    }
}
