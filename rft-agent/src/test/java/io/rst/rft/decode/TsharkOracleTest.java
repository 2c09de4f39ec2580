/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.rft.decode;

import static io.rst.rft.testutil.Tshark.number;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rst.rft.pcap.CmTrafficGenerator;
import io.rst.rft.testutil.Captures;
import io.rst.rft.testutil.Tshark;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tshark is the oracle: traffic of every CM message type from our generator (IPv4 and IPv6,
 * 0/1/2 VLAN tags, rdma_cm private data, odd values), written to a pcap, is decoded by tshark and
 * by us, and compared field by field. tshark 4.0 dissects REQ, REP, RTU, REJ, DREQ and DREP in
 * detail; for MRA, LAP, APR, SIDR and ClassPortInfo it gives the MAD header, which we compare.
 */
class TsharkOracleTest {
    private static final List<String> FIELDS = List.of(
        "frame.number", "ip.src", "ip.dst", "ipv6.src", "ipv6.dst", "udp.srcport", "vlan.id",
        "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.deth.srcqp",
        "infiniband.mad.attributeid", "infiniband.mad.method", "infiniband.mad.transactionid",
        "infiniband.cm.req", "infiniband.cm.req.serviceid", "infiniband.cm.req.localqpn",
        "infiniband.cm.req.startpsn", "infiniband.cm.req.remoteresptout", "infiniband.cm.req.localresptout",
        "infiniband.cm.req.maxcmretr", "infiniband.cm.req.ip_cm.ipv", "infiniband.cm.req.ip_cm.sport",
        "infiniband.cm.req.ip_cm.sip4", "infiniband.cm.req.ip_cm.dip4", "infiniband.cm.req.ip_cm.sip6",
        "infiniband.cm.req.ip_cm.dip6", "infiniband.cm.rep", "infiniband.cm.rep.remotecommid",
        "infiniband.cm.rep.localqpn", "infiniband.cm.rep.startpsn", "infiniband.cm.rtu.localcommid",
        "infiniband.cm.rtu.remotecommid", "infiniband.cm.rej.localcommid", "infiniband.cm.rej.remotecommid",
        "infiniband.cm.rej.reason", "infiniband.cm.rej.msgrej", "infiniband.cm.dreq.localcommid",
        "infiniband.cm.dreq.remotecommid", "infiniband.cm.req.remoteqpneecn", "infiniband.cm.drsp.localcommid",
        "infiniband.cm.drsp.remotecommid", "frame.time_epoch", "ip.dsfield.dscp", "ipv6.tclass", "ieee8021ad.id");

    @TempDir
    Path tmp;

    @Test
    void generatedTrafficOfEveryTypeMatchesTshark() throws Exception {
        Tshark.assumeInstalled();
        final Path pcap = tmp.resolve("all.pcap");
        // 66 connections: every scenario 6 times, IPv4/IPv6 alternating, 0/1/2 VLAN tags in turn
        new CmTrafficGenerator(CmTrafficGenerator.Options.allTypes(66, 42)).write(pcap);
        compare(pcap, true);
    }

    @Test
    void realCapturesMatchTshark() throws Exception {
        Tshark.assumeInstalled();
        for (Path p : Captures.all()) {
            compare(p, false);
        }
    }

    private void compare(final Path pcap, final boolean expectAllTypes) throws Exception {
        final List<String[]> rows = Tshark.fields(pcap, List.of("-E", "occurrence=a", "-E", "aggregator=,"),
            FIELDS);
        final List<CmMessage> ours = Captures.cmMessages(pcap);
        final List<String[]> cmRows = rows.stream()
            .filter(r -> r.length > 11 && !r[11].isEmpty() && !r[10].isEmpty() && number(r[10]) == 1
                && number(r[8]) == 1)
            .toList();
        assertEquals(cmRows.size(), ours.size(), pcap + ": number of CM MADs");
        final Set<CmMessageType> seen = EnumSet.noneOf(CmMessageType.class);
        boolean v6 = false;
        boolean qinq = false;
        boolean ipcm6 = false;
        for (int i = 0; i < ours.size(); i++) {
            final String[] r = cmRows.get(i);
            final CmMessage m = ours.get(i);
            final String w = pcap.getFileName() + " frame " + r[0] + " " + m.type();
            seen.add(m.type());
            assertEquals(number(r[0]), m.frame(), w);
            if (m.ipVersion() == 4) {
                assertEquals(r[1], m.srcIpString(), w);
                assertEquals(r[2], m.dstIpString(), w);
                assertEquals(number(r[43]), m.dscp(), w);
            } else {
                v6 = true;
                assertEquals(r[3], m.srcIpString(), w);
                assertEquals(r[4], m.dstIpString(), w);
                assertEquals(number(r[44]) >>> 2, m.dscp(), w);
            }
            qinq |= !r[45].isEmpty() && !r[6].isEmpty();
            assertEquals(number(r[5]), m.udpSrcPort(), w);
            assertEquals(number(r[7]), m.bthOpcode(), w);
            assertEquals(number(r[8]), m.bthDestQp(), w);
            assertEquals(number(r[9]), m.bthPsn(), w);
            assertEquals(number(r[10]), m.dethSrcQp(), w);
            assertEquals(number(r[11]), m.attributeId(), w);
            assertEquals(number(r[12]), m.method(), w);
            assertEquals(number(r[13]), m.transactionId(), w);
            assertEquals(new java.math.BigDecimal(r[42]).movePointRight(9).longValueExact(), m.timeNanos(), w);
            final long lc = m.localCommId() & 0xffffffffL;
            final long rc = m.remoteCommId() & 0xffffffffL;
            switch (m.type()) {
                case REQ -> {
                    assertEquals(number(r[14]), lc, w);
                    assertEquals(number(r[15]), m.serviceId(), w);
                    assertEquals(number(r[16]), m.localQpn(), w);
                    assertEquals(number(r[17]), m.startingPsn(), w);
                    assertEquals(number(r[18]), m.remoteCmResponseTimeout(), w);
                    assertEquals(number(r[19]), m.localCmResponseTimeout(), w);
                    assertEquals(number(r[20]), m.maxCmRetries(), w);
                    assertEquals(!r[21].isEmpty(), m.hasIpCm(), w + " IP CM private data present");
                    if (m.hasIpCm()) {
                        assertEquals(number(r[21]), m.ipCmVersion(), w);
                        assertEquals(number(r[22]), m.ipCmSrcPort(), w);
                        if (m.ipCmVersion() == 4) {
                            assertEquals(r[23], m.ipCmSrcIpString(), w);
                            assertEquals(r[24], m.ipCmDstIpString(), w);
                        } else {
                            ipcm6 = true;
                            assertEquals(r[25], m.ipCmSrcIpString(), w);
                            assertEquals(r[26], m.ipCmDstIpString(), w);
                        }
                    }
                }
                case REP -> {
                    assertEquals(number(r[27]), lc, w);
                    assertEquals(number(r[28]), rc, w);
                    assertEquals(number(r[29]), m.localQpn(), w);
                    assertEquals(number(r[30]), m.startingPsn(), w);
                }
                case RTU -> {
                    assertEquals(number(r[31]), lc, w);
                    assertEquals(number(r[32]), rc, w);
                }
                case REJ -> {
                    assertEquals(number(r[33]), lc, w);
                    assertEquals(number(r[34]), rc, w);
                    assertEquals(number(r[35]), m.rejectReason(), w);
                    assertEquals(number(r[36]), m.messageRejected(), w);
                }
                case DREQ -> {
                    assertEquals(number(r[37]), lc, w);
                    assertEquals(number(r[38]), rc, w);
                    assertEquals(number(r[39]), m.remoteQpn(), w);
                }
                case DREP -> {
                    assertEquals(number(r[40]), lc, w);
                    assertEquals(number(r[41]), rc, w);
                }
                default -> {
                    // tshark 4.0 has no fields for these beyond the MAD header compared above
                }
            }
        }
        if (expectAllTypes) {
            assertEquals(EnumSet.allOf(CmMessageType.class), seen, "every CM message type generated");
            assertTrue(v6 && qinq && ipcm6, "IPv6, QinQ and IPv6 rdma_cm private data generated");
        }
    }
}
