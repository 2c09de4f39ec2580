/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * The RDMA flow table of one switch: CM sessions and their lifecycle, and the sessions learnt
 * from sampled data packets of QPs set up without CM.
 *
 * <p>{@link io.rst.rft.session.SessionTable} is single-threaded (the agent's decode thread owns
 * it). A session is found through either endpoint, (IP, comm ID) of the requester or of the
 * responder: REQ names the requester's, REP and RTU both, REJ/MRA say which message they answer,
 * DREQ/DREP either side. State machine (the message moves the state; anything else keeps it):
 *
 * <pre>
 *            REQ (retries: same requester IP and CID, no new session)
 *   (none) ------> REQ_SENT --REP--> REP_SENT --RTU--> ESTABLISHED --DREQ (either side)--> DISCONNECTING
 *                   |   ^  \                                                                 |   DREQ (crossing)
 *        no answer  |   |   \--REJ--> REJECTED        REP_SENT --REJ--> REJECTED            DREP
 *      by deadline  v   | MRA (waits its service timeout)                                    v
 *                TIMED_OUT --REP/RTU/REQ retry: back on track                               CLOSED
 *
 *   DISCONNECTING --no DREP by the DREQ's deadline--> TIMED_OUT --DREQ retry--> DISCONNECTING
 *                                                         \--late DREP--> CLOSED
 * </pre>
 *
 * <p>CM retries the way the CM protocol does: a REQ or DREQ without answer is sent again up to the
 * REQ's max CM retries, each time after its wait, so a session times out only when every retry's
 * wait has passed. The requester's CM (Linux's active side) waits twice the path's packet life
 * time plus the CM response timeout each time; the packet life time shows in the REQ's primary
 * local ACK timeout (Linux and rdma_cm set it to the packet life time + 1, so 4.096 us *
 * 2^(local ACK timeout) bounds twice the packet life time; a REQ that says 0 adds nothing). The
 * REQ's deadline is its time + (retries left + 1) * (4.096 us * 2^(remote CM response timeout)
 * (at least the configured floor) + twice the packet life time); a REQ retry seen counts one retry
 * off and moves the deadline; an MRA makes it the MRA's service timeout plus the retries left.
 * {@link io.rst.rft.session.SessionTable#expire} applies it (the {@code sessions}
 * command at the time of the file's last packet). A DREQ waits for its DREP as long as the
 * receiver's CM response timeout, from the session's REQ (the REQ's remote CM response timeout
 * when the requester sent the DREQ, its local one when the responder did; 2^20 * 4.096 us = 4.3 s,
 * rdma_cm's default, when no REQ was seen), plus twice the packet life time when the requester
 * sent it (the responder's CM, Linux's passive side, waits its CM response timeout alone) or when
 * the roles are not known, for each of its retries too (the REQ's max CM retries; rdma_cm's 15 and
 * its RoCE packet life time 2^18 * 4.096 us when no REQ was seen: 16 * (4.3 s + 2.1 s) = 103 s); a
 * DREQ retry counts and moves the deadline. A DREQ without DREP by then is TIMED_OUT
 * (finished: it ages out with the retention); a DREP seconds later still closes it. Only
 * REQ_SENT and DISCONNECTING sessions have a deadline, so expiry stays one pass over the table.
 * {@link io.rst.rft.session.SessionTable#restore} puts back sessions saved before a restart (a
 * restored REQ_SENT or DISCONNECTING session waits 16 * 4.3 s from its last message: the REQ's
 * timeouts and retries are not in a record). A REJ of a REQ names the responder's comm ID, which
 * becomes the session's responder endpoint. A session whose setup was not
 * seen (capture started mid-session) is created from what was seen, with
 * {@code roles_known = false} when only DREQ/DREP tell nothing about who was the requester.
 *
 * <p>Session identity ({@code session_id}): {@code REQUESTER_IP/0xREQUESTER_CID/RESPONDER_IP} when
 * the roles are known, else {@code IP_A/0xCID_A/IP_B/0xCID_B} with the endpoints in byte order.
 *
 * <p>Memory is bounded: a size limit (beyond it the session that finished first is evicted, or
 * with none finished the least recently updated; counted),
 * retention of finished sessions, a cap on messages per session. A live session costs about
 * 250 bytes of heap, index included (measured by SessionTableTest).
 *
 * <h2>Sessions learnt from data</h2>
 *
 * <p>NCCL, perftest (without {@code -R}), UCX and MPI set up their QPs without CM: with data
 * sampling ({@link io.rst.rft.session.SessionTable#trackData(DataConfig)}), their sessions are
 * learnt from the sampled data packets that no CM session claims (a CM session's QPs keep their
 * data, as before), by {@code DataFlowTable}:
 * <ul>
 * <li>A flow is (source IP, destination IP, destination QPN), with its transport (RC, UC or UD,
 * from the BTH opcode's top 3 bits), the last UDP source port and ingress port, first and last
 * packet, sampled packets, and for RC the 8 most recent sampled request PSNs and response PSNs.
 * <li>An RC responder's answers carry PSNs of the requester's sequence: an ACK or atomic ACK
 * names the last request PSN it acknowledges (a coalesced ACK the last of several), READ
 * responses count on from their READ request's PSN (at most DMA length / 256 of them, the
 * smallest MTU). So an answer with PSN p on flow Y = (B to A, QP a) points at the flow
 * X = (A to B, QP b) whose recent requests it fits (modulo 2^24). The flows from A to B are found
 * through an index by address pair. Exactly one fitting X is a vote for (X, Y); two or more are
 * counted ambiguous and vote nothing; the UDP source port never counts. Two-way traffic votes the
 * same pair from both sides.
 * <li>{@code DataFlowTable.VOTES_TO_PAIR} = 2 votes in a row for one pair (a
 * vote for another pair of either flow starts the count again) pair them: their two one-way
 * records are reported removed, and the session {@code IP_A/qp0xAAAAAA/IP_B/qp0xBBBBBB} appears
 * (A the lower endpoint by IP address bytes, then QPN: the same id at every switch). PSNs are 24
 * bits and start at random: an answer fits an unrelated flow's 8 recent requests by chance about
 * 8 times in 2^24, so two such chances in a row are negligible; one more answer is all it costs.
 * <li>UC and UD have no answers: their flows stay one-way records
 * ({@code SRC_IP/-/DST_IP/qp0xBBBBBB}, {@code one_way}), never a guessed session; so does an RC
 * flow whose other direction crosses another switch, with its PSNs as evidence for a controller.
 * <li>A packet whose BTH cannot be real (RC or UC data to QP 0 or 1, a reserved RC opcode, another
 * transport on a live QP) is counted ({@code data_bth_rejected}) and learns nothing; RD, XRC and
 * CNP packets are counted as not learnt ({@code data_untracked}).
 * </ul>
 * Sampling 1 packet in N (by PSN: an ACK and the request it names are sampled together) means an
 * answer votes only when its PSN is a multiple of N: a session shows after about K * N answers
 * (K = 2 votes), and an answer whose request has left its flow's 8 recent sampled requests (8 * N
 * PSNs behind) is no vote. QP pairs between the same hosts whose PSNs run in step (NCCL starts
 * every QP at PSN 0) stay one-way flows until their PSNs part (their answers fit both).
 *
 * <p>A data-learned record is ACTIVE while sampled packets come, IDLE after the data idle time
 * without one (capture time), and leaves after the retention like a finished CM session; a packet
 * of an IDLE record's QPs starts a new session under the same id (the old one reported removed).
 * Its changes are reported at most once per report interval. When CM announces a QP that a
 * data-learned record has, that record leaves and its packets join the CM session: never two
 * sessions for one QP pair. Data-learned records are saved and restored like CM sessions (the
 * agent's checkpoint and the JSON lines of its write-ahead log). At most
 * {@link io.rst.rft.session.DataConfig#maxFlows()} flows are held (the least recently seen record
 * is evicted beyond, counted); a flow costs about 190 bytes of heap, indexes included (measured by
 * DataFlowHeapTest at 1,000,000 flows).
 */
@NonNullByDefault
package io.rst.rft.session;

import org.eclipse.jdt.annotation.NonNullByDefault;
