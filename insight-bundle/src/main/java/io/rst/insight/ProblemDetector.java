/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */
package io.rst.insight;

import static java.util.Objects.requireNonNull;

import edu.umd.cs.findbugs.annotations.SuppressFBWarnings;
import io.rst.insight.Sighting.Told;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.jdt.annotation.Nullable;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.AgentState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.CmMessageType;
import org.opendaylight.yang.gen.v1.urn.io.rst.rdma.flow.table.rev261201.SessionState;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.ProblemKind;
import org.opendaylight.yang.gen.v1.urn.io.rst.rst.insight.rev261201.Severity;

/**
 * Names the fabric's problems from the index: one detector per kind, each grouping what it finds
 * by cause and place so that 5,000 rejections at one port are one problem with a count. Pure:
 * the same index and time give the same problems.
 */
final class ProblemDetector {
    /** How many sessions a problem names (the count says how many it covers). */
    static final int SAMPLE = 20;

    /**
     * The detectors' settings.
     *
     * @param halfClosedAfter seconds after which a DISCONNECTING session whose DREQ got no DREP is
     *     a problem, before any switch times it out
     * @param flapWindow seconds within which repeated set-ups of the same endpoints count
     * @param flapSetups at least this many set-ups within the window...
     * @param flapEnded ...of which at least this many ended (rejected, timed out or closed)
     * @param halfSeenAfter seconds a one-way RC flow must have carried data (first to last sampled
     *     packet) with its other direction seen nowhere before it is half-seen
     * @param congestedCeShare a data direction whose CE share at the last hop is above this is
     *     congested (0 to 1)
     * @param congestedCnpPerPacket ...and so is one answered by more CNPs than this per
     *     ECN-capable sampled packet
     * @param pfcStormShare a port and priority paused for more than this share of the agent's last
     *     probe interval is a PFC storm (0 to 1)
     */
    record Options(double halfClosedAfter, double flapWindow, int flapSetups, int flapEnded, double halfSeenAfter,
            double congestedCeShare, double congestedCnpPerPacket, double pfcStormShare) {
        static final Options DEFAULTS = new Options(5, 300, 3, 2, DEFAULTS_HALF_SEEN);

        Options {
            if (!(halfClosedAfter >= 0) || !(flapWindow > 0) || flapSetups < 2 || flapEnded < 0
                    || flapEnded > flapSetups || !(halfSeenAfter >= 0)) {
                throw new IllegalArgumentException("bad problem settings: halfClosedAfter " + halfClosedAfter
                    + ", flapWindow " + flapWindow + ", flapSetups " + flapSetups + ", flapEnded " + flapEnded
                    + ", halfSeenAfter " + halfSeenAfter);
            }
            if (!(congestedCeShare >= 0 && congestedCeShare <= 1) || !(congestedCnpPerPacket >= 0)
                    || Double.isInfinite(congestedCnpPerPacket) || !(pfcStormShare >= 0 && pfcStormShare <= 1)) {
                throw new IllegalArgumentException("bad congestion thresholds: congested-ce-share " + congestedCeShare
                    + " (0 to 1), congested-cnp-per-packet " + congestedCnpPerPacket + " (0 or more),"
                    + " pfc-storm-paused-share " + pfcStormShare + " (0 to 1)");
            }
        }

        /** The settings with the default congestion thresholds. */
        Options(final double halfClosedAfter, final double flapWindow, final int flapSetups, final int flapEnded,
                final double halfSeenAfter) {
            this(halfClosedAfter, flapWindow, flapSetups, flapEnded, halfSeenAfter, DEFAULTS_CE_SHARE,
                DEFAULTS_CNP_PER_PACKET, DEFAULTS_PFC_STORM_SHARE);
        }

        /** The settings with the default half-seen delay. */
        Options(final double halfClosedAfter, final double flapWindow, final int flapSetups, final int flapEnded) {
            this(halfClosedAfter, flapWindow, flapSetups, flapEnded, DEFAULTS_HALF_SEEN);
        }

        /** The default settings with these congestion thresholds (etc/io.rst.insight.cfg). */
        static Options congestion(final double ceShare, final double cnpPerPacket, final double pfcStormShare) {
            return new Options(DEFAULTS.halfClosedAfter, DEFAULTS.flapWindow, DEFAULTS.flapSetups, DEFAULTS.flapEnded,
                DEFAULTS.halfSeenAfter, ceShare, cnpPerPacket, pfcStormShare);
        }
    }

    /** The CE share above which a direction is congested, unless the settings say otherwise. */
    static final double DEFAULTS_CE_SHARE = 0.05;
    /** CNPs per ECN-capable sampled packet above which a direction is congested: 1 per 100. */
    static final double DEFAULTS_CNP_PER_PACKET = 0.01;
    /** The paused share above which a port and priority is a PFC storm. */
    static final double DEFAULTS_PFC_STORM_SHARE = 0.5;

    /** Seconds of one-way data before a flow is half-seen, unless the settings say otherwise. */
    static final double DEFAULTS_HALF_SEEN = 60;

    private final Options options;

    ProblemDetector(final Options options) {
        this.options = requireNonNull(options);
    }

    /** Every problem, most urgent and largest first. */
    List<Problem> detect(final FabricIndex index, final double now) {
        final var out = new ArrayList<Problem>();
        out.addAll(sessionProblems(index, now));
        out.addAll(flapping(index));
        out.addAll(asymmetricPaths(index));
        out.addAll(dataApart(index));
        out.addAll(halfSeen(index));
        out.addAll(agents(index));
        out.addAll(congestedProblems(index));
        out.addAll(pfcStorms(index));
        out.addAll(pfcDeadlocks(index));
        out.addAll(lldpDisagreements(index));
        out.sort(Comparator.comparing(Problem::severity).thenComparing(Comparator.comparingInt(Problem::count)
            .reversed()).thenComparing(Problem::id));
        return out;
    }

    /**
     * What failed in a session, judged from every switch's view of it; null when nothing did. A
     * REJ anywhere makes it rejected; otherwise a switch that timed it out (the agent waits every
     * CM retry) says which message went unanswered: a DREQ if one was seen, else a REP (or MRA),
     * else the REQ. A DREQ still unanswered after the half-closed delay is a problem too. A session
     * learnt from data packets has no CM to fail: never a verdict.
     */
    @Nullable Verdict verdict(final Collection<Sighting> sightings, final double now) {
        if (sightings.isEmpty() || sightings.stream().anyMatch(Sighting::learnedData)) {
            return null;
        }
        boolean rejected = false;
        boolean timedOut = false;
        boolean disconnecting = false;
        boolean finished = false;
        int reason = -1;
        double last = Double.NaN;
        String requester = null;
        String responder = null;
        for (var s : sightings) {
            final var state = s.state();
            rejected |= state == SessionState.REJECTED || s.saw(CmMessageType.REJ);
            timedOut |= state == SessionState.TIMEDOUT;
            disconnecting |= state == SessionState.DISCONNECTING;
            finished |= state == SessionState.CLOSED || s.saw(CmMessageType.DREP);
            if (s.rejectReason() >= 0 && (reason < 0 || s.rejectReason() < reason)) {
                // switches that disagree (none should: they saw the same REJ): the same one whatever their order
                reason = s.rejectReason();
            }
            last = Double.isNaN(last) || s.lastSeen() > last ? s.lastSeen() : last;
            requester = requester == null ? s.requesterIp() : requester;
            responder = responder == null ? s.responderIp() : responder;
        }
        if (rejected) {
            // the first switch to see the REJ is where it entered the fabric: the rejecting side's
            // edge; its reason is that REJ's
            final var at = earliest(sightings, Told.REJ);
            if (at != null && at.rejectReason() >= 0) {
                reason = at.rejectReason();
            }
            return new Verdict(ProblemKind.Rejected, RejectReasons.text(reason), reason, at == null ? null
                : at.switchId(), at == null ? null : at.tp(Told.REJ), requester, responder, last, true);
        }
        if (finished) {
            return null;
        }
        final boolean dreq = sightings.stream().anyMatch(s -> s.saw(CmMessageType.DREQ));
        if (timedOut) {
            final ProblemKind kind;
            final String why;
            final Told message;
            if (dreq) {
                kind = ProblemKind.DreqUnanswered;
                why = "DREQ got no DREP";
                message = Told.DREQ;
            } else if (sightings.stream().anyMatch(s -> s.saw(CmMessageType.REP) || s.saw(CmMessageType.MRA))) {
                kind = ProblemKind.RepUnanswered;
                why = "REP got no RTU";
                message = Told.REP;
            } else {
                kind = ProblemKind.ReqUnanswered;
                why = "REQ got no REP, MRA or REJ";
                message = Told.REQ;
            }
            return verdict(kind, why, latest(sightings, message), message, requester, responder, last, true,
                sightings);
        }
        if (disconnecting && dreq && !Double.isNaN(last) && now - last >= options.halfClosedAfter()) {
            return verdict(ProblemKind.DreqUnanswered, "DREQ got no DREP (half-closed)",
                latest(sightings, Told.DREQ), Told.DREQ, requester, responder, last, false, sightings);
        }
        return null;
    }

    /** A timed-out or half-closed verdict, its place where {@code at} saw {@code message}. */
    private static Verdict verdict(final ProblemKind kind, final String why, final @Nullable Sighting at,
            final Told message, final @Nullable String requester, final @Nullable String responder,
            final double last, final boolean failed, final Collection<Sighting> sightings) {
        // without the message's own sighting (a switch that only timed it out), the first switch by
        // name that saw the session
        final var where = at != null ? at
            : sightings.stream().min(Comparator.comparing(Sighting::switchId)).orElseThrow();
        return new Verdict(kind, why, -1, where.switchId(), at == null ? null : at.tp(message), requester, responder,
            last, failed);
    }

    /** The sighting that saw {@code message} first (a tie to the first switch by name), or null. */
    private static @Nullable Sighting earliest(final Collection<Sighting> sightings, final Told message) {
        return find(sightings, message, false);
    }

    /** The sighting that saw {@code message} last (a tie to the first switch by name), or null. */
    private static @Nullable Sighting latest(final Collection<Sighting> sightings, final Told message) {
        return find(sightings, message, true);
    }

    private static @Nullable Sighting find(final Collection<Sighting> sightings, final Told message,
            final boolean later) {
        Sighting best = null;
        for (var s : sightings) {
            // a tie goes to the first switch by name, whatever the order they come in
            if (s.saw(message) && (best == null || better(s.time(message), s, best.time(message), best, later))) {
                best = s;
            }
        }
        return best;
    }

    /**
     * Whether {@code sighting}, its message at {@code time}, is earlier (or {@code later}) than
     * {@code best}'s at {@code bestTime}: an unreadable time (NaN) never wins over a readable one,
     * and a tie goes to the switch whose name comes first, whatever order the switches come in.
     */
    private static boolean better(final double time, final Sighting sighting, final double bestTime,
            final Sighting best, final boolean later) {
        if (Double.isNaN(time)) {
            return false;
        }
        if (Double.isNaN(bestTime)) {
            return true;
        }
        final int c = later ? Double.compare(bestTime, time) : Double.compare(time, bestTime);
        return c < 0 || c == 0 && sighting.switchId().compareTo(best.switchId()) < 0;
    }

    /** Rejected, REQ/REP/DREQ unanswered: grouped by kind, cause, switch and port. */
    private List<Problem> sessionProblems(final FabricIndex index, final double now) {
        final var groups = new Groups();
        // a session no switch saw rejected, timed out or disconnecting has no verdict: the index
        // keeps the others apart as they change
        for (var sessionId : index.troubled()) {
            final var verdict = verdict(index.sightings(sessionId), now);
            if (verdict == null) {
                continue;
            }
            final var kind = verdict.kind();
            final String id = kind + "|" + verdict.reason() + "|" + verdict.node() + "|" + verdict.tp();
            if (groups.counted(id, sessionId, verdict.time(), verdict.time())) {
                // a group's words and place are its first session's: only the count grows
                continue;
            }
            final String place = verdict.node() == null ? "an unknown switch"
                : verdict.tp() == null ? verdict.node() : verdict.node() + " port " + verdict.tp();
            final String title;
            final String detail;
            if (kind == ProblemKind.Rejected) {
                title = "Rejected: " + verdict.reason();
                detail = "REJ entered the fabric at " + place;
            } else {
                title = "Timed out: " + verdict.reason();
                detail = "last seen on its way at " + place + "; the other side did not answer";
            }
            final var places = new ArrayList<Problem.Place>();
            if (verdict.node() != null) {
                places.add(new Problem.Place(verdict.node(), verdict.tp()));
            }
            groups.add(id, kind,
                kind == ProblemKind.Rejected || verdict.failed() ? Severity.Critical : Severity.Warning, title, detail,
                verdict.node(), verdict.tp(), verdict.rejectReason(), verdict.reason(), null, null, sessionId,
                verdict.time(), places, Problem.CM);
        }
        return groups.problems();
    }

    /**
     * The same endpoints (requester, responder, service) set up again and again: within the
     * densest window of the flap window's length, at least flapSetups set-ups, flapEnded ended.
     * The index keeps each pair's set-ups in time order and says which pairs changed; a finding
     * stands until its pair's set-ups change (the window does not move with the clock).
     */
    private List<Problem> flapping(final FabricIndex index) {
        final var out = new ArrayList<Problem>();
        for (var entry : index.setUps().entrySet()) {
            final var group = entry.getValue();
            if (group.dirty) {
                group.problem = flapping(index, entry.getKey(), group.inOrder);
                group.dirty = false;
            }
            if (group.problem != null) {
                out.add(group.problem);
            }
        }
        return out;
    }

    private @Nullable Problem flapping(final FabricIndex index, final FabricIndex.Ends ends,
            final Collection<FabricIndex.SetUp> inOrder) {
        if (inOrder.size() < options.flapSetups()) {
            return null;
        }
        final var list = new ArrayList<>(inOrder);
        int bestFrom = 0;
        int bestTo = -1;
        for (int from = 0, to = 0; to < list.size(); to++) {
            while (list.get(to).time() - list.get(from).time() > options.flapWindow()) {
                from++;
            }
            if (to - from > bestTo - bestFrom) {
                bestFrom = from;
                bestTo = to;
            }
        }
        final var window = list.subList(bestFrom, bestTo + 1);
        final long ended = window.stream().filter(FabricIndex.SetUp::ended).count();
        if (window.size() < options.flapSetups() || ended < options.flapEnded()) {
            return null;
        }
        final String key = ends.requester() + "|" + ends.responder() + "|"
            + (ends.service() == null ? "" : ends.service());
        final var switches = new TreeSet<String>();
        window.forEach(x -> switches.addAll(index.seenBy(x.sessionId())));
        final double first = window.get(0).time();
        final double last = window.get(window.size() - 1).time();
        final var sessions = window.stream().map(FabricIndex.SetUp::sessionId).limit(SAMPLE).toList();
        return new Problem("flapping|" + key, ProblemKind.Flapping, Severity.Warning,
            "Flapping: " + window.size() + " set-ups in " + Math.round(last - first) + " s, " + ended + " ended",
            ends.requester() + " -> " + ends.responder() + (ends.service() == null ? ""
                : " (service " + ends.service() + ")") + "; seen at " + String.join(", ", switches),
            switches.isEmpty() ? null : switches.first(), null, -1,
            window.size() + " set-ups within " + Math.round(options.flapWindow()) + " s", ends.requester(),
            ends.responder(), window.size(), first, last, sessions,
            switches.stream().map(n -> new Problem.Place(n, null)).toList(), Problem.CM);
    }

    /**
     * Paths whose reverse does not retrace the forward: grouped by the two routes (the index
     * keeps the groups as paths come and go; every path of a group gives the same words).
     */
    private static List<Problem> asymmetricPaths(final FabricIndex index) {
        final var out = new ArrayList<Problem>();
        for (var entry : index.asymmetricByRoutes().entrySet()) {
            final var ids = entry.getValue();
            final var path = index.path(ids.first());
            if (path == null) {
                continue;
            }
            final var fwd = String.join(" > ", path.forward());
            final var rev = String.join(" > ", path.reverse());
            // where they part: the first forward switch the reverse does not cross
            final var parting = path.forward().stream().filter(n -> !path.reverse().contains(n)).findFirst()
                .orElse(path.forward().isEmpty() ? null : path.forward().get(0));
            final var places = new LinkedHashSet<String>(path.forward());
            places.addAll(path.reverse());
            out.add(group(index, ids, "asymmetric-path|" + entry.getKey(), ProblemKind.AsymmetricPath,
                path.learnedData() ? "Asymmetric data path" : "Asymmetric path",
                (path.learnedData() ? "data forward " : "forward ") + (fwd.isEmpty() ? "?" : fwd) + ", reverse "
                    + (rev.isEmpty() ? "?" : rev),
                parting, null, places.stream().map(n -> new Problem.Place(n, null)).toList(), path.learnedFrom()));
        }
        return out;
    }

    /** Sessions whose data took another way than their CM: grouped by where they part. */
    private static List<Problem> dataApart(final FabricIndex index) {
        final var out = new ArrayList<Problem>();
        for (var entry : index.dataApartByWhere().entrySet()) {
            final var where = entry.getKey();
            // the switch and port named first in the first anomaly ("forward data enters leaf2 on
            // swp3, its CM on swp4", "forward data crosses spine2 (in on swp2), ...")
            final var path = index.path(entry.getValue().first());
            if (path == null) {
                continue;
            }
            final var words = path.dataApart().get(0).split(" ");
            final String node = words.length > 3 ? words[3] : null;
            final String tp = dataPort(words);
            out.add(group(index, entry.getValue(), "data-path-differs|" + where, ProblemKind.DataPathDiffers,
                "Data path apart from the CM path", where, node, tp,
                node == null ? List.of() : List.of(new Problem.Place(node, tp)), Problem.CM));
        }
        return out;
    }

    /**
     * One-way RC flows that carried data for {@link Options#halfSeenAfter} or longer while no switch
     * saw their other direction (responses) and the controller paired them with nothing: grouped by
     * the switches that saw them. Never a UC or UD flow (no responses to see), nor one the controller
     * found ambiguous (its other direction was seen, only not told apart).
     */
    private List<Problem> halfSeen(final FabricIndex index) {
        final var groups = new Groups();
        for (var sessionId : index.unanswered()) {
            final var sightings = index.sightings(sessionId);
            double first = Double.NaN;
            double last = Double.NaN;
            final var switches = new TreeSet<String>();
            String from = null;
            String to = null;
            for (var s : sightings) {
                if (!Double.isNaN(s.firstSeen()) && !(s.firstSeen() >= first)) {
                    first = s.firstSeen();
                }
                if (!Double.isNaN(s.lastSeen()) && !(s.lastSeen() <= last)) {
                    last = s.lastSeen();
                }
                switches.add(s.switchId());
                from = from == null ? s.requesterIp() : from;
                to = to == null ? s.responderIp() : to;
            }
            if (Double.isNaN(first) || Double.isNaN(last) || last - first < options.halfSeenAfter()) {
                continue;
            }
            final String where = String.join(", ", switches);
            final String id = "half-seen|" + where;
            if (groups.counted(id, sessionId, first, last)) {
                continue;
            }
            groups.add(id, ProblemKind.HalfSeen, Severity.Warning, "Half-seen: RC data with no responses seen",
                "one-way RC flows seen at " + where + " (the first " + from + " -> " + to + ") carried data for "
                    + Math.round(last - first) + " s or more and no switch saw their responses (ACKs, READ responses):"
                    + " the return path crosses no sampling agent, or the responses are lost",
                switches.first(), null, -1, null, null, null, sessionId, first, last,
                switches.stream().map(n -> new Problem.Place(n, null)).toList(), Problem.DATA);
        }
        return groups.problems();
    }

    /** A notice grouping paths: their count, a sample of the first IDs, when its sessions were seen. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static Problem group(final FabricIndex index, final Collection<String> ids, final String id,
            final ProblemKind kind, final String title, final String detail, final @Nullable String node,
            final @Nullable String tp, final List<Problem.Place> places, final String learnedFrom) {
        double first = Double.NaN;
        double last = Double.NaN;
        final var sample = new ArrayList<String>(Math.min(SAMPLE, ids.size()));
        for (var sessionId : ids) {
            if (sample.size() < SAMPLE) {
                sample.add(sessionId);
            }
            final var seen = seen(index, sessionId);
            if (!Double.isNaN(seen[0])) {
                first = Double.isNaN(first) ? seen[0] : Math.min(first, seen[0]);
            }
            if (!Double.isNaN(seen[1])) {
                last = Double.isNaN(last) ? seen[1] : Math.max(last, seen[1]);
            }
        }
        return new Problem(id, kind, Severity.Notice, title, detail, node, tp, -1, null, null, null, ids.size(), first,
            last, sample, places, learnedFrom);
    }

    /** The port where the data entered, from an anomaly's words, or null if it names none. */
    private static @Nullable String dataPort(final String[] words) {
        // "... enters NODE on TP, ..." or "... crosses NODE (in on TP) ..."
        final int at = words.length > 5 && "on".equals(words[4]) ? 5
            : words.length > 6 && "(in".equals(words[4]) && "on".equals(words[5]) ? 6 : -1;
        if (at < 0) {
            return null;
        }
        // the word without its trailing punctuation (a regular expression here would compile a
        // pattern per session with data apart, at every recomputation)
        final var word = words[at];
        int end = word.length();
        while (end > 0 && (word.charAt(end - 1) == ',' || word.charAt(end - 1) == ';' || word.charAt(end - 1) == ')')) {
            end--;
        }
        final var tp = word.substring(0, end);
        return tp.isEmpty() || "?".equals(tp) ? null : tp;
    }

    /** When a session was seen, first and last, by any switch: NaN where none says. */
    private static double[] seen(final FabricIndex index, final String sessionId) {
        double first = Double.NaN;
        double last = Double.NaN;
        for (var s : index.sightings(sessionId)) {
            if (!Double.isNaN(s.firstSeen()) && !(s.firstSeen() >= first)) {
                first = s.firstSeen();
            }
            if (!Double.isNaN(s.lastSeen()) && !(s.lastSeen() <= last)) {
                last = s.lastSeen();
            }
        }
        return new double[] {first, last};
    }

    /**
     * Enabled switches whose agents the controller cannot follow, that do not capture, or that
     * drop captured frames.
     */
    private static List<Problem> agents(final FabricIndex index) {
        final var out = new ArrayList<Problem>();
        for (var agent : index.agents()) {
            if (agent.dropping()) {
                out.add(dropping(agent));
            }
            final var idle = notCapturing(agent);
            if (idle != null) {
                out.add(idle);
            }
            if (!agent.lost()) {
                continue;
            }
            final String title = switch (agent.state()) {
                case UNAUTHORIZED -> "Agent refused the controller's token";
                case UNTRUSTED -> "Agent cannot be trusted";
                case null, default -> "Agent unreachable";
            };
            out.add(new Problem("agent-unreachable|" + agent.switchId(), ProblemKind.AgentUnreachable,
                Severity.Critical, title, agent.switchId() + (agent.detail() == null ? "" : ": " + agent.detail()),
                agent.switchId(), null, -1, String.valueOf(agent.state()), null, null, 1, agent.lastChange(),
                agent.lastChange(), List.of(), List.of(new Problem.Place(agent.switchId(), null))));
        }
        return out;
    }

    /**
     * An enabled switch whose agent answers with its capture off (STOPPED), or that has no agent
     * address (NO_ADDRESS): nothing it forwards is followed. Null for any other state (DISABLED
     * is a switch turned off on purpose, CONNECTING one about to capture, the lost ones
     * agent-unreachable).
     */
    private static @Nullable Problem notCapturing(final AgentFacts agent) {
        final String title;
        final String why;
        if (agent.state() == AgentState.STOPPED) {
            title = "Capture stopped on the agent";
            why = "the agent answers but does not capture";
        } else if (agent.state() == AgentState.NOADDRESS) {
            title = "RFT on, but no agent address";
            why = "RFT is enabled but the switch has no agent address (none configured, and no NETCONF device of"
                + " its name to take one from)";
        } else {
            return null;
        }
        final String detail = agent.detail() == null ? "" : " (" + agent.detail() + ")";
        return new Problem("agent-not-capturing|" + agent.switchId(), ProblemKind.AgentNotCapturing,
            Severity.Warning, title, agent.switchId() + ": " + why + detail
                + "; its sessions are not followed, and paths through it have a gap there",
            agent.switchId(), null, -1, agent.state().getName(), null, null, 1, agent.lastChange(), agent.lastChange(),
            List.of(), List.of(new Problem.Place(agent.switchId(), null)));
    }

    /** An agent dropping captured frames: how many, of which kind, since when. */
    private static Problem dropping(final AgentFacts agent) {
        final String count = agent.droppedPackets() + " frames dropped (kernel " + agent.kernelDrops() + ", queue "
            + agent.queueDrops() + ")";
        final double last = Double.isNaN(agent.lastDrop()) ? agent.droppingSince() : agent.lastDrop();
        return new Problem("agent-dropping-packets|" + agent.switchId(), ProblemKind.AgentDroppingPackets,
            Severity.Warning, "Agent dropping packets", agent.switchId() + ": the agent's capture " + count
                + " since the agent started, and still dropping since " + ProblemSummary.time(agent.droppingSince())
                .getValue() + ": its flow table may miss sessions and CM messages",
            agent.switchId(), null, -1, count, null, null, 1, agent.droppingSince(), last, List.of(),
            List.of(new Problem.Place(agent.switchId(), null)));
    }

    /** Whether a data direction's figures are over the congestion thresholds (strictly above). */
    boolean overThresholds(final PathFacts.@Nullable Ecn ecn) {
        return ecn != null && (ecn.ceShare() > options.congestedCeShare()
            || ecn.cnpPerPacket() > options.congestedCnpPerPacket());
    }

    /** How many sessions have a congested direction (each counted once). */
    long congestedSessions(final FabricIndex index) {
        final Set<String> sessions = new HashSet<>();
        for (var entry : index.congestionByPlace().entrySet()) {
            final String direction = direction(entry.getKey());
            for (var sessionId : entry.getValue()) {
                final var path = index.path(sessionId);
                if (path != null && overThresholds(path.ecn(direction))) {
                    sessions.add(sessionId);
                }
            }
        }
        return sessions.size();
    }

    /** The direction in a congestion group's key ({@link FabricIndex#congestionKey}). */
    private static String direction(final String key) {
        final int from = key.indexOf('|') + 1;
        return key.substring(from, key.indexOf('|', from));
    }

    /**
     * Sessions whose data, in one direction, arrived CE-marked or answered by CNPs beyond the
     * thresholds: grouped by where the marking starts (marked-at) and the direction. The index
     * keeps the directions with any sign of congestion apart; only those are read.
     */
    private List<Problem> congestedProblems(final FabricIndex index) {
        final var out = new ArrayList<Problem>();
        for (var entry : index.congestionByPlace().entrySet()) {
            final var problem = congestedGroup(index, entry.getKey(), entry.getValue());
            if (problem != null) {
                out.add(problem);
            }
        }
        return out;
    }

    /**
     * A congestion group's congested sessions and their figures together.
     */
    @SuppressFBWarnings(value = { "NP_NONNULL_FIELD_NOT_INITIALIZED_IN_CONSTRUCTOR", "NP_STORE_INTO_NONNULL_FIELD" },
        justification = "SpotBugs reads no TYPE_USE @Nullable on fields: these fields are @Nullable")
    static final class Tally {
        /** The first congested session's figures: the group's place. */
        PathFacts.@Nullable Ecn place;
        @Nullable String learnedFrom;
        final List<String> sample = new ArrayList<>();
        int count;
        /** The highest CE share at the last hop, NaN where none. */
        double maxShare = Double.NaN;
        /** The most CNPs per ECN-capable sampled packet, NaN where none. */
        double maxCnpRate = Double.NaN;
        long ce;
        long ect;
        long cnp;
        boolean certain = true;
        double first = Double.NaN;
        double last = Double.NaN;
    }

    /** The congested sessions of the congestion group {@code key}, and their figures. */
    Tally tally(final FabricIndex index, final String key) {
        final var ids = index.congestionByPlace().get(key);
        return tally(index, key, ids == null ? List.of() : ids);
    }

    private Tally tally(final FabricIndex index, final String key, final Collection<String> ids) {
        final String direction = direction(key);
        final var tally = new Tally();
        for (var sessionId : ids) {
            final var path = index.path(sessionId);
            final var ecn = path == null ? null : path.ecn(direction);
            if (ecn == null || !overThresholds(ecn)) {
                continue;
            }
            if (tally.place == null) {
                tally.place = ecn;
                tally.learnedFrom = path.learnedFrom();
            }
            tally.count++;
            if (tally.sample.size() < SAMPLE) {
                tally.sample.add(sessionId);
            }
            tally.maxShare = max(tally.maxShare, ecn.ceShare());
            tally.maxCnpRate = max(tally.maxCnpRate, ecn.cnpPerPacket());
            tally.ce += Math.max(0, ecn.cePackets());
            tally.ect += Math.max(0, ecn.ectPackets());
            tally.cnp += Math.max(0, ecn.cnpPackets());
            if (!ecn.certain()) {
                tally.certain = false;
            }
            final var seen = seen(index, sessionId);
            tally.first = min(tally.first, seen[0]);
            tally.last = max(tally.last, seen[1]);
        }
        return tally;
    }

    private @Nullable Problem congestedGroup(final FabricIndex index, final String key,
            final Collection<String> ids) {
        final String direction = direction(key);
        final var tally = tally(index, key, ids);
        final var place = tally.place;
        if (place == null) {
            return null;
        }
        final int count = tally.count;
        final boolean certain = tally.certain;
        final double maxShare = tally.maxShare;
        final double maxCnpRate = tally.maxCnpRate;
        final long ce = tally.ce;
        final long ect = tally.ect;
        final long cnp = tally.cnp;
        final String node = place.markedNode();
        final String tp = place.markedTp();
        final String where = node == null ? "an unknown node" : tp == null ? node : node + " port " + tp;
        final String marking;
        if (!place.marked()) {
            marking = "no hop of the path saw CE (CNPs only: the marking switch or the data's hops report no ECN"
                + " figures)";
        } else {
            marking = "marked CE leaving " + where + (place.nextNode() == null ? ""
                : ", on the link into " + place.nextNode() + (place.nextTp() == null ? "" : " on " + place.nextTp()))
                + (certain ? "" : " (or further back: a hop before it reported no ECN figures)");
        }
        final String figures = "at the last hop a CE share up to " + share(maxShare) + " (" + ce + " CE-marked of "
            + ect + " ECN-capable sampled packets in all), " + cnp + " CNPs (up to " + share(maxCnpRate)
            + " per sampled packet)";
        final String detail = count + (count == 1 ? " session's " : " sessions' ") + direction + " ("
            + (Problem.FORWARD.equals(direction) ? "requester to responder" : "responder to requester") + "): "
            + marking + "; " + figures + "; thresholds: CE share above " + options.congestedCeShare()
            + " or CNPs per sampled packet above " + options.congestedCnpPerPacket();
        return new Problem("congested|" + key, ProblemKind.Congested, Severity.Warning,
            place.marked() ? "Congested: data marked CE at " + where : "Congested: CNPs, no CE seen", detail, node, tp,
            -1, "CE share up to " + share(maxShare) + ", CNPs per sampled packet up to " + share(maxCnpRate), null,
            null, count, tally.first, tally.last, tally.sample,
            node == null ? List.of() : List.of(new Problem.Place(node, tp)), tally.learnedFrom, direction, -1, null,
            -1);
    }

    /**
     * Ports and priorities that PFC paused for more than the threshold share of their agent's last
     * probe interval, with the sessions rpt/paused-port says the pause holds up. Agents that do
     * not answer are left out: their figures are of an interval long past.
     */
    private List<Problem> pfcStorms(final FabricIndex index) {
        final var out = new ArrayList<Problem>();
        for (var agent : index.agents()) {
            if (!agent.answers()) {
                continue;
            }
            // two interfaces the port map gives one tp-id: the first one listed names the problem
            final Set<String> listed = new HashSet<>();
            for (var pfc : agent.pfc()) {
                if (!(pfc.pausedShare() > options.pfcStormShare()) || !listed.add(pfc.tp() + "|" + pfc.priority())) {
                    continue;
                }
                final var node = agent.switchId();
                final var held = index.heldUp(node, pfc.tp(), pfc.priority());
                final long heldUp = held == null ? 0 : held.count();
                out.add(new Problem("pfc-storm|" + node + "|" + pfc.tp() + "|" + pfc.priority(), ProblemKind.PfcStorm,
                    Severity.Critical, "PFC storm: " + node + " port " + pfc.tp() + " priority " + pfc.priority(),
                    node + " port " + pfc.tp() + ": PFC frames from the neighbour paused priority " + pfc.priority()
                        + " for " + share(pfc.pausedShare()) + " of the agent's last probe interval (above "
                        + options.pfcStormShare() + "; " + (pfc.paused() ? "paused now" : "the last pause ended")
                        + (pfc.frames() >= 0 ? "; " + pfc.frames() + " frames since the agent started" : "")
                        + "): it holds up " + heldUp + (heldUp == 1 ? " session" : " sessions")
                        + " whose data leaves through that port in that priority",
                    node, pfc.tp(), -1, "paused " + share(pfc.pausedShare()) + " of the interval", null, null, 1,
                    Double.NaN, pfc.last(), held == null ? List.of() : held.sessions(),
                    List.of(new Problem.Place(node, pfc.tp())), null, null, pfc.priority(), null, heldUp));
            }
        }
        return out;
    }

    /**
     * Links paused both ways in one priority: port P of switch A and the port at the other end of
     * P's link (the topology's) on switch B, both paused now or during their agents' last probe
     * interval. One problem per link and priority.
     */
    private static List<Problem> pfcDeadlocks(final FabricIndex index) {
        final Map<FabricIndex.PausedPort, AgentFacts.Pfc> paused = new HashMap<>();
        for (var agent : index.agents()) {
            if (agent.answers()) {
                for (var pfc : agent.pfc()) {
                    if (pfc.pausedLately()) {
                        paused.putIfAbsent(new FabricIndex.PausedPort(agent.switchId(), pfc.tp(), pfc.priority()), pfc);
                    }
                }
            }
        }
        final var out = new ArrayList<Problem>();
        for (var entry : paused.entrySet()) {
            final var one = entry.getKey();
            final var peer = index.peer(one.node(), one.tp());
            if (peer == null || peer.tp() == null) {
                continue;
            }
            final var other = new FabricIndex.PausedPort(peer.node(), peer.tp(), one.priority());
            final var otherPfc = paused.get(other);
            // once per link: from the end that comes first by name
            final int order = one.node().equals(other.node()) ? one.tp().compareTo(other.tp())
                : one.node().compareTo(other.node());
            if (otherPfc == null || order >= 0) {
                continue;
            }
            final var heldOne = index.heldUp(one.node(), one.tp(), one.priority());
            final var heldOther = index.heldUp(other.node(), other.tp(), other.priority());
            final long heldUp = (heldOne == null ? 0 : heldOne.count()) + (heldOther == null ? 0 : heldOther.count());
            final var sessions = new TreeSet<String>();
            if (heldOne != null) {
                sessions.addAll(heldOne.sessions());
            }
            if (heldOther != null) {
                sessions.addAll(heldOther.sessions());
            }
            final String link = one.node() + " port " + one.tp() + " <-> " + other.node() + " port " + other.tp();
            out.add(new Problem("pfc-deadlock-suspect|" + one.node() + "|" + one.tp() + "|" + other.node() + "|"
                    + other.tp() + "|" + one.priority(), ProblemKind.PfcDeadlockSuspect, Severity.Critical,
                "PFC deadlock suspect: " + link + ", priority " + one.priority(),
                "both ends of the link " + link + " paused priority " + one.priority()
                    + " during their agents' last probe intervals (" + pause(one.node(), entry.getValue()) + "; "
                    + pause(other.node(), otherPfc) + "): each switch waits for the other, the shape of a PFC"
                    + " deadlock; " + heldUp + (heldUp == 1 ? " session's" : " sessions'")
                    + " data leaves through these ports in that priority",
                one.node(), one.tp(), -1, "paused both ways in priority " + one.priority(), null, null, 1, Double.NaN,
                max(entry.getValue().last(), otherPfc.last()), sessions.stream().limit(SAMPLE).toList(),
                List.of(new Problem.Place(one.node(), one.tp()), new Problem.Place(other.node(), other.tp())), null,
                null, one.priority(), new Problem.Place(other.node(), other.tp()), heldUp));
        }
        return out;
    }

    /**
     * The links the agents' LLDP neighbours contradict (the LLDP topology's lldp-disagreement):
     * one problem each, placed at both ends, the claiming switch port first.
     */
    private static List<Problem> lldpDisagreements(final FabricIndex index) {
        final var out = new ArrayList<Problem>();
        for (var d : index.lldpDisagreements()) {
            final var claimer = d.claimer();
            final var far = d.far();
            final String link = claimer.node() + " port " + claimer.tp() + " <-> " + far.node() + " port " + far.tp();
            out.add(new Problem("lldp-disagreement|" + claimer.node() + "|" + claimer.tp() + "|" + far.node() + "|"
                    + far.tp(), ProblemKind.LldpDisagreement, Severity.Warning, "LLDP disagreement: " + link,
                (d.detail().isEmpty() ? "the LLDP neighbours contradict the link " + link : d.detail())
                    + " (" + ("mismatch".equals(d.kind()) ? "the far end's agent hears " + d.peerSays()
                        + " on " + far.tp() : "also claimed: " + d.peerSays()) + ")",
                claimer.node(), claimer.tp(), -1, d.kind(), null, null, 1, Double.NaN, Double.NaN, List.of(),
                List.of(claimer, far), null, null, -1, far, -1));
        }
        return out;
    }

    private static String pause(final String node, final AgentFacts.Pfc pfc) {
        return node + (Double.isNaN(pfc.pausedShare()) ? "" : " paused " + share(pfc.pausedShare())
            + " of its interval") + (pfc.paused() ? ", paused now" : "");
    }

    /** A share to four digits, or "?" where unknown. */
    private static String share(final double value) {
        return Double.isNaN(value) ? "?" : String.format(Locale.ROOT, "%.4f", value);
    }

    /** The greater of two values, NaN (unknown) giving way to the other. */
    private static double max(final double one, final double two) {
        return Double.isNaN(one) ? two : Double.isNaN(two) ? one : Math.max(one, two);
    }

    /** The lesser of two values, NaN (unknown) giving way to the other. */
    private static double min(final double one, final double two) {
        return Double.isNaN(one) ? two : Double.isNaN(two) ? one : Math.min(one, two);
    }

    /** Problems grouped by an ID: the first occurrence names the group, the rest count. */
    private static final class Groups {
        private final Map<String, Builder> byId = new LinkedHashMap<>();

        private static final class Builder {
            final Problem first;
            /** The first {@link #SAMPLE} session IDs in order, whatever order they came in. */
            final TreeSet<String> sessions = new TreeSet<>();
            final Set<Problem.Place> places = new LinkedHashSet<>();
            int count;
            double firstSeen = Double.NaN;
            double lastSeen = Double.NaN;

            Builder(final Problem first) {
                this.first = first;
            }
        }

        @SuppressWarnings("checkstyle:ParameterNumber")
        void add(final String id, final ProblemKind kind, final Severity severity, final String title,
                final String detail, final @Nullable String node, final @Nullable String tp, final int rejectReason,
                final @Nullable String reason, final @Nullable String requester, final @Nullable String responder,
                final String sessionId, final double time, final List<Problem.Place> places,
                final String learnedFrom) {
            add(id, kind, severity, title, detail, node, tp, rejectReason, reason, requester, responder, sessionId,
                time, time, places, learnedFrom);
        }

        /** As above, the session seen from {@code first} to {@code last}. */
        @SuppressWarnings("checkstyle:ParameterNumber")
        void add(final String id, final ProblemKind kind, final Severity severity, final String title,
                final String detail, final @Nullable String node, final @Nullable String tp, final int rejectReason,
                final @Nullable String reason, final @Nullable String requester, final @Nullable String responder,
                final String sessionId, final double first, final double last, final List<Problem.Place> places,
                final String learnedFrom) {
            final double time = first;
            final var group = byId.computeIfAbsent(id, k -> new Builder(new Problem(id, kind, severity, title, detail,
                node, tp, rejectReason, reason, requester, responder, 1, time, time, List.of(), List.of(),
                learnedFrom)));
            group.places.addAll(places);
            count(group, sessionId, first, last);
        }

        /**
         * Counts a session into the group {@code id} if the group exists (what {@link #add} would
         * do, its places being the group's already); false if there is no such group yet.
         */
        boolean counted(final String id, final String sessionId, final double first, final double last) {
            final var group = byId.get(id);
            if (group == null) {
                return false;
            }
            count(group, sessionId, first, last);
            return true;
        }

        private static void count(final Builder group, final String sessionId, final double first,
                final double last) {
            group.count++;
            if (group.sessions.size() < SAMPLE || sessionId.compareTo(group.sessions.last()) < 0) {
                group.sessions.add(sessionId);
                if (group.sessions.size() > SAMPLE) {
                    group.sessions.pollLast();
                }
            }
            if (!Double.isNaN(first)) {
                group.firstSeen = Double.isNaN(group.firstSeen) ? first : Math.min(group.firstSeen, first);
            }
            if (!Double.isNaN(last)) {
                group.lastSeen = Double.isNaN(group.lastSeen) ? last : Math.max(group.lastSeen, last);
            }
        }

        List<Problem> problems() {
            final var out = new ArrayList<Problem>(byId.size());
            for (var group : byId.values()) {
                final var p = group.first;
                out.add(new Problem(p.id(), p.kind(), p.severity(), p.title(), p.detail(), p.node(), p.tp(),
                    p.rejectReason(), p.reason(), p.requesterIp(), p.responderIp(), group.count, group.firstSeen,
                    group.lastSeen, List.copyOf(group.sessions), List.copyOf(group.places), p.learnedFrom()));
            }
            return out;
        }
    }
}
