/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * The RDMA flow table of one switch: CM sessions and their lifecycle.
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
 * REQ's max CM retries, each time after its CM response timeout, so a session times out only when
 * every retry's wait has passed. The REQ's deadline is its time + (retries left + 1) * 4.096 us *
 * 2^(remote CM response timeout) (each step at least the configured floor); a REQ retry seen
 * counts one retry off and moves the deadline; an MRA makes it the MRA's service timeout plus the
 * retries left. {@link io.rst.rft.session.SessionTable#expire} applies it (the {@code sessions}
 * command at the time of the file's last packet). A DREQ waits for its DREP as long as the
 * receiver's CM response timeout, from the session's REQ (the REQ's remote CM response timeout
 * when the requester sent the DREQ, its local one when the responder did; 2^20 * 4.096 us = 4.3 s,
 * rdma_cm's default, when no REQ was seen), for each of its retries too (the REQ's max CM retries;
 * rdma_cm's 15 when no REQ was seen: 16 * 4.3 s = 69 s); a DREQ retry counts and moves the
 * deadline. A DREQ without DREP by then is TIMED_OUT
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
 * 230 bytes of heap, index included (measured by SessionTableTest).
 */
package io.rst.rft.session;
