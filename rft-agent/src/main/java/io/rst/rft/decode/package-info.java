/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * RoCEv2 / InfiniBand CM decoding, in place over a byte array, no allocation per packet.
 *
 * <p>{@link io.rst.rft.decode.FrameDecoder} fills a reusable {@link io.rst.rft.decode.CmMessage}
 * and returns a {@link io.rst.rft.decode.DecodeResult}: {@code CM_MAD}, {@code ROCE_DATA}, or why
 * the frame was skipped. The layers, offsets in bytes (IBA vol. 1 ch. 9, 12, 13 and annex A16/A17;
 * RDMA IP CM service annex):
 *
 * <pre>
 * Ethernet   dst(6) src(6) [TPID 8100/88a8/9100(2) TCI(2)]* type(2)      0800 IPv4, 86dd IPv6, 8915 RoCEv1,
 *                                                                       8808 MAC control
 * IPv4       ver/ihl(1) tos(1) total(2) id(2) flags/frag(2) ttl(1) proto=17(1) csum(2) src(4) dst(4)
 *            tos: DSCP(6b) ECN(2b)     ECN (RFC 3168): 00 Not-ECT, 01 ECT(1), 10 ECT(0), 11 CE
 * IPv6       ver(4b) traffic class(8b: DSCP 6b, ECN 2b) flow(20b) payload(2) next=17(1) hops(1) src(16)
 *            dst(16)  (hop-by-hop/routing/dst-opts skipped; RoCEv1's GRH has the same first word)
 * UDP        sport(2) dport=4791(2) length(2) csum(2)
 * BTH (12)   0 opcode | 1 SE M pad tver | 2 P_Key(2) | 4 F B rsvd | 5 dest QP(3) | 8 A rsvd | 9 PSN(3)
 * CNP        BTH opcode 0x81, B (BECN) set, dest QP: the QP whose packets arrived marked CE (the
 *            sender's), PSN reserved; then 16 reserved bytes and the ICRC         (IBA annex A17)
 * PFC        after type 8808: opcode=0101(2) | priority-enable vector(2: high byte reserved, bit p
 *            priority p) | pause time(2) of priority 0 .. 7, in quanta of 512 bit times; 0 resumes
 *            (IEEE 802.1Qbb)
 * DETH (8)   0 Q_Key(4) | 4 rsvd | 5 src QP(3)                    (opcode 0x64 UD SEND only to QP 1)
 * RETH (16)  0 virtual address(8) | 8 R_Key(4) | 12 DMA length(4)   (after the BTH of RC READ request 0x0C)
 * MAD (256)  0 base ver=1 | 1 class=07 (CM) | 2 class ver | 3 R/method | 4 status(2) | 6 class specific(2)
 *            8 transaction ID(8) | 16 attribute ID(2) | 18 rsvd(2) | 20 attribute modifier(4) | 24 data(232)
 * ICRC (4)   after the MAD
 * </pre>
 *
 * <p>CM message data, offsets from MAD byte 24:
 * <pre>
 * REQ      0 local CID | 8 service ID(8) | 16 local CA GUID(8) | 28 local Q_Key | 32 local QPN(3) resp res(1)
 *          36 local EECN(3) init depth | 40 remote EECN(3) | 43 remote CM resp timeout(5b) TST(2b) E2E(1b)
 *          44 starting PSN(3) | 47 local CM resp timeout(5b) retry(3b) | 48 P_Key(2) | 50 MTU(4b) RDC RNR(3b)
 *          51 max CM retries(4b) SRQ ext(3b) | 52 primary path(44) | 96 alternate path(44) | 140 private data(92)
 *          primary path: 52 local LID(2) | 54 remote LID(2) | 56 local GID(16) | 72 remote GID(16)
 *          88 flow label(20b) rsvd rate(6b) | 92 traffic class | 93 hop limit | 94 SL(4b) subnet local(1b)
 *          95 local ACK timeout(5b)
 * REP      0 local CID | 4 remote CID | 8 local Q_Key | 12 local QPN(3) | 16 local EECN(3) | 20 starting PSN(3)
 *          24 resp res | 25 init depth | 26 target ACK delay... | 28 local CA GUID(8) | 36 private data(196)
 * RTU      0 local CID | 4 remote CID | 8 private data(224)                 DREP: the same layout
 * DREQ     0 local CID | 4 remote CID | 8 remote QPN/EECN(3) | 12 private data(220)
 * REJ      0 local CID | 4 remote CID | 8 message rejected(2b) | 9 reject info length(7b) | 10 reason(2)
 *          12 ARI(72) | 84 private data(148)
 * MRA      0 local CID | 4 remote CID | 8 message MRAed(2b) | 9 service timeout(5b) | 10 private data(222)
 * LAP      0 local CID | 4 remote CID | 8 rsvd(4) | 12 remote QPN/EECN(3) remote CM resp timeout(5b) | 16 ...
 * APR      0 local CID | 4 remote CID | 8 additional info length | 9 AP status | 10 rsvd(2) | 12 info(72)
 * SIDR_REQ 0 request ID | 4 P_Key(2) | 6 rsvd(2) | 8 service ID(8) | 16 private data(216)
 * SIDR_REP 0 request ID | 4 status | 5 add. info length | 6 rsvd(2) | 8 QPN(3) | 12 service ID(8) | 20 Q_Key
 *
 * IP CM service ID:   00 00 00 00 01 | port space(1) 06 TCP, 11 UDP, 02 IPoIB, 01 IB | port(2)
 * IP CM REQ private:  0 major(4b) minor(4b) | 1 IP version(4b) rsvd(4b) | 2 source port(2)
 *                     4 source IP(16) | 20 destination IP(16) (IPv4 in the last 4 bytes) | 36 consumer data(56)
 * </pre>
 *
 * <p>The MAD transaction ID is not the comm ID; a DREP reuses its DREQ's transaction ID. Every CM
 * timeout is encoded as 4.096 us * 2^value.
 */
@NonNullByDefault
package io.rst.rft.decode;

import org.eclipse.jdt.annotation.NonNullByDefault;
