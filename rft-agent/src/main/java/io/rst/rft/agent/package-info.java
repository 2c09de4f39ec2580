/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
/**
 * The RFT switch agent ({@code rst agent}): live capture, decoding, the session table, and a
 * lossless API on TCP 4791. The controller's agent client is written against this contract.
 * The users' and switch vendors' copy of the contract, with examples, is {@code docs/agent-api.md}
 * at the repository's root: a change here goes there too.
 *
 * <h2>Command line</h2>
 * <pre>
 * agent [--interface IF]... [--listen HOST:PORT] [--token-file F] [--state-dir D] [--all-roce]
 *       [--udp-port N] [--max-sessions N] [--retention SECONDS] [--retain-events N] [--retain-mb N]
 *       [--replay [PORT=]FILE]... [--agent-id NAME] [--queue-frames N] [--buffer-mb N]
 *       [--flush-ms N] [--wal-mb N] [--tls-cert F --tls-key F [--tls-client-ca F] | --plain-http]
 *       [--data-sample N] [--event-hold-ms N]
 * </pre>
 * ({@link AgentOptions#usage()} says what each does.)
 * No {@code --interface}: every up, non-loopback interface of the agent's network namespace, found
 * at start. Default listen {@code 0.0.0.0:4791}; the agent binds exactly where {@code --listen}
 * says. The token comes from {@code --token-file} (never the command line); without one the agent
 * uses {@code STATE_DIR/agent.token}, generating a random one (mode 0600) the first time and
 * logging its path. Default state directory: {@code /var/lib/rst-agent} as root, else
 * {@code $XDG_STATE_HOME/rst-agent} or {@code ~/.local/state/rst-agent}. Capture is inbound on
 * each interface, so an interface's name is the ingress port of what it captures. Filter: UDP to
 * the RoCEv2 port whose BTH destination QP is 1 (IPv4, IPv6, 802.1Q), or all UDP to that port with
 * {@code --all-roce}. {@code --replay} reads pcap files instead, each as the capture of one ingress
 * port ({@code PORT=FILE}; {@code replay} without a port).
 * The API is TLS: with {@code --tls-cert} and {@code --tls-key}, or else with the agent's own
 * certificate, made in the state directory at the first start and kept ({@link SelfMadeTls});
 * plain HTTP only with {@code --plain-http}. The start logs the certificate's SHA-256 fingerprint.
 * Logs go to stdout; SIGTERM stops capture, drains the queues, saves state and closes the API.
 *
 * <h2>HTTP API</h2>
 * Every answer is JSON; errors are {@code {"error":"..."}} with a 4xx status (5xx only when the
 * agent cannot answer: 503 when shutting down or out of stream slots).
 * <ul>
 * <li>{@code GET /v1/health}, no authentication: 200 {@code {"status":"ok"}}.</li>
 * <li>Every other request needs {@code Authorization: Bearer TOKEN}, else 401.</li>
 * <li>{@code GET /v1/status}: {@code {"version", "agent_id", "instance", "uptime_s",
 *     "capturing" (the operator's switch), "capture_running", "mode" ("live"|"replay"), "filter",
 *     "interfaces":[{"name", "mac", "up", "running", "packets", "kernel_drops", "if_drops", "queue_drops",
 *     "truncated", "reader"?, "error"?}], "counters":{"frames", "cm_mads", "data_packets",
 *     "skipped":{reason:n}, "queue_drops", "kernel_drops", "queue_backlog", "decode_failures",
 *     "events", "sessions_live", "evictions", "expired", "timed_out", "restored_sessions", "cnps",
 *     "cnp_unmatched", "pfc_frames", "pfc_untabled", "lldp_frames", "lldp_malformed",
 *     "lldp_neighbours", "lldp_refused", "lldp_aged_out", "lldp_shutdowns"}, "pfc":[{"interface",
 *     "priority", "frames", "xon", "quanta", "paused_us", "paused", "last", "link_speed_mbps"}],
 *     "lldp":[{"interface", "chassis_id", "chassis_id_subtype", "port_id", "port_id_subtype",
 *     "port_description", "system_name", "system_description", "management_addresses",
 *     "capabilities", "enabled_capabilities", "ttl", "age_seconds", "first_seen", "last_seen"}],
 *     "last_seq", "first_retained_seq"}}
 *     ({@code pfc} and the CNP and PFC counters unless {@code --no-congestion}, {@code lldp} and the
 *     LLDP counters unless {@code --no-lldp}).
 *     {@code first_retained_seq} is {@code last_seq + 1} when no event is retained. {@code reader}
 *     (live capture): {@code pcap_next_ex} (frames read by libpcap straight into the ring) or
 *     {@code pcap4j}. {@code restored_sessions}: sessions put back into the table at start from the
 *     state directory.</li>
 * <li>{@code POST /v1/start}, {@code POST /v1/stop}: capture on or off, kept in the state directory
 *     so that a restarted agent keeps it; the answer is the new status. A new agent starts with
 *     capture on.</li>
 * <li>{@code GET /v1/sessions}: {@code {"seq":N, "sessions":[record...]}}: snapshot, then stream
 *     from {@code after=seq}. The table is written a page at a time (so that a large one is never
 *     whole in memory): {@code seq} is the last event before the first page, and a session may
 *     appear in a state newer than {@code seq}; the events after {@code seq} carry full states in
 *     order, so a client that applies them ends where the agent is.
 *     Records are those of the session table (snake_case fields of the {@code sessions} command,
 *     plus {@code session_id} and the ports where messages were seen); sessions saved before a
 *     restart are back in the table, and continue when they are seen again.</li>
 * <li>{@code GET /v1/events?after=SEQ[&wait=SECONDS][&instance=ID]}: {@code application/x-ndjson},
 *     chunked, one event per line, {@code {"seq":N,"time":T,"type":"session","session":{record}}}
 *     (a session that left the table, aged out after the retention or evicted at the limit, comes
 *     once more in its last state with {@code "removed":true} in its record)
 *     in increasing {@code seq} with no gaps, starting at {@code SEQ+1}, kept open and fed as events
 *     happen until the client closes or {@code wait} seconds pass ({@code wait=0}: what is there,
 *     then close; no {@code wait}: forever). {@code after} defaults to 0. When {@code SEQ+1} is no
 *     longer retained, or {@code SEQ} is ahead of the log, or {@code instance} names another log,
 *     the first line is {@code {"type":"reset","reason":"...","instance":ID,
 *     "first_retained_seq":N,"snapshot":{"seq":M,"sessions":[...]}}} and events after {@code M}
 *     follow. A line {@code {"type":"heartbeat","seq":N}} is sent after 10 s without events;
 *     clients ignore types they do not know. At most 8 streams at once (503 beyond).</li>
 * <li>Malformed requests: unknown path 404, wrong method 405, bad or repeated parameter 400, a body
 *     over 4 KiB 413, query over 2 KiB 414.</li>
 * </ul>
 *
 * <h2>Events</h2>
 * An event carries a session's whole record as it is after the change. The decode thread takes
 * frames in batches (up to 512 per interface) and reports the sessions they changed at most
 * {@code --event-hold-ms} (default 50) after the first unreported change (0: at each batch's end);
 * a session that changed several times meanwhile gets one event, with its state then: the last
 * event of a session always holds its latest state, and nothing of it is lost, but intermediate
 * states (e.g. REP_SENT between a REP and an RTU) may not have an event of their own. A set-up
 * (REQ, REP, RTU, first data packets) is so one event, not one per message. {@code time} is the
 * capture time of the last frame decoded before the report (for time-outs and expiry, the wall
 * clock); a session that leaves the table (expired, evicted) gets a last event too.
 *
 * <h2>Sequence numbers across restarts</h2>
 * The event log ({@code --retain-events}, default 65536 events, and at most {@code --retain-mb}
 * MiB of lines, default 16, whichever is reached first: the log's heap is bounded) is written to
 * the write-ahead log {@code STATE_DIR/wal/} as it grows (every {@code --flush-ms}, default 200)
 * and the table to the checkpoint {@code STATE_DIR/checkpoint.rst} (see {@link EventStore}); a
 * restarted agent continues the same
 * {@code instance} and numbering, serves the retained events, and puts the checkpoint's sessions
 * back into its table, then the write-ahead log's newer events over them.
 * If the state directory is lost, a new {@code instance} starts at 1 and resuming clients get a
 * reset.
 *
 * <h2>Threads</h2>
 * One capture thread per interface copies frames into its own bounded ring (a full ring is a
 * counted queue drop; the capture thread never waits); one decode thread owns the decoder and the
 * session table and appends events; the persister writes the log; API threads read the log and
 * ask the decode thread for snapshots.
 */
@NonNullByDefault
package io.rst.rft.agent;

import org.eclipse.jdt.annotation.NonNullByDefault;
