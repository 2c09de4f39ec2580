/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import { parseProblems } from '../src/problem-source';
import { countByKind, KIND_LABEL, kindLabel, placeRoute, PROBLEM_KINDS, problemFacts, sessionRoute } from '../src/problems';

/**
 * GET /rests/data/rst-insight:problems?content=nonconfig as RESTCONF answers it (RFC 7951 JSON of
 * rst-insight@2026-12-01's problems container: module-qualified top level, uint32 as numbers,
 * date-and-time as RFC 3339 strings, a leaf-list as an array), one problem of every kind, in the
 * words the controller's insight writes, listed in no particular order as a system-ordered list.
 */
function insightAnswer(): Record<string, unknown> {
  return {
    'rst-insight:problems': {
      updated: '2026-12-01T10:00:05.000000Z',
      total: 5140,
      kind: [
        { kind: 'rejected', count: 5000 }, { kind: 'req-unanswered', count: 3 }, { kind: 'rep-unanswered', count: 1 },
        { kind: 'dreq-unanswered', count: 2 }, { kind: 'flapping', count: 4 }, { kind: 'asymmetric-path', count: 120 },
        { kind: 'data-path-differs', count: 2 }, { kind: 'agent-unreachable', count: 1 }, { kind: 'half-seen', count: 2 },
        { kind: 'agent-dropping-packets', count: 1 }, { kind: 'agent-not-capturing', count: 1 },
        { kind: 'congested', count: 2 }, { kind: 'pfc-storm', count: 1 }, { kind: 'pfc-deadlock-suspect', count: 1 },
        { kind: 'lldp-disagreement', count: 1 },
      ],
      switch: [{ 'node-id': 'leaf2', total: 5000, kind: [{ kind: 'rejected', count: 5000 }] }],
      port: [{ 'node-id': 'leaf2', 'tp-id': 'swp1', total: 5000, kind: [{ kind: 'rejected', count: 5000 }] }],
      problem: [
        {
          id: 'Notice|asymmetric-path|leaf1>spine1>leaf2|leaf2>spine2>leaf1', kind: 'asymmetric-path', severity: 'notice',
          title: 'Asymmetric path', detail: 'forward leaf1 > spine1 > leaf2, reverse leaf2 > spine2 > leaf1',
          'node-id': 'spine1', 'learned-from': 'cm', count: 120,
          'first-seen': '2026-12-01T09:00:00.000000Z', 'last-seen': '2026-12-01T09:59:00.000000Z',
          'session-id': ['10.0.1.1/0x00000001/10.0.2.1', '10.0.1.1/0x00000002/10.0.2.1'],
        },
        {
          id: 'agent-unreachable|spine2', kind: 'agent-unreachable', severity: 'critical', title: 'Agent unreachable',
          detail: 'spine2: connection refused', 'node-id': 'spine2', reason: 'UNREACHABLE', count: 1,
          'first-seen': '2026-12-01T09:58:00.000000Z', 'last-seen': '2026-12-01T09:58:00.000000Z',
        },
        {
          id: 'Rejected|consumer reject (the application refused) (reason 28)|leaf2|swp1', kind: 'rejected',
          severity: 'critical', title: 'Rejected: consumer reject (the application refused) (reason 28)',
          detail: 'REJ entered the fabric at leaf2 port swp1', 'node-id': 'leaf2', 'tp-id': 'swp1', 'learned-from': 'cm',
          'reject-reason': 28, reason: 'consumer reject (the application refused) (reason 28)', count: 5000,
          'first-seen': '2026-12-01T09:30:00.000000Z', 'last-seen': '2026-12-01T10:00:01.250000Z',
          'session-id': ['10.0.1.1/0x0000000a/10.0.2.1', '10.0.1.1/0x0000000b/10.0.2.1'],
        },
        {
          id: 'ReqUnanswered|REQ got no REP, MRA or REJ|spine1|swp2', kind: 'req-unanswered', severity: 'critical',
          title: 'Timed out: REQ got no REP, MRA or REJ',
          detail: 'last seen on its way at spine1 port swp2; the other side did not answer', 'node-id': 'spine1',
          'tp-id': 'swp2', 'learned-from': 'cm', reason: 'REQ got no REP, MRA or REJ', count: 3,
          'session-id': ['10.0.1.1/0x00000010/10.0.2.1'],
        },
        {
          id: 'RepUnanswered|REP got no RTU|leaf1|swp3', kind: 'rep-unanswered', severity: 'critical',
          title: 'Timed out: REP got no RTU', detail: 'last seen on its way at leaf1 port swp3; the other side did not answer',
          'node-id': 'leaf1', 'tp-id': 'swp3', 'learned-from': 'cm', reason: 'REP got no RTU', count: 1,
          'session-id': ['10.0.1.1/0x00000011/10.0.2.1'],
        },
        {
          id: 'DreqUnanswered|DREQ got no DREP (half-closed)|leaf2|swp3', kind: 'dreq-unanswered', severity: 'warning',
          title: 'Timed out: DREQ got no DREP (half-closed)',
          detail: 'last seen on its way at leaf2 port swp3; the other side did not answer', 'node-id': 'leaf2',
          'tp-id': 'swp3', 'learned-from': 'cm', reason: 'DREQ got no DREP (half-closed)', count: 2,
          'session-id': ['10.0.1.1/0x00000012/10.0.2.1', '10.0.1.1/0x00000013/10.0.2.1'],
        },
        {
          id: 'flapping|10.0.1.1|10.0.2.9|0x106', kind: 'flapping', severity: 'warning',
          title: 'Flapping: 4 set-ups in 60 s, 3 ended',
          detail: '10.0.1.1 -> 10.0.2.9 (service 0x106); seen at leaf1, spine1', 'node-id': 'leaf1', 'learned-from': 'cm',
          reason: '4 set-ups within 300 s', 'requester-ip': '10.0.1.1', 'responder-ip': '10.0.2.9', count: 4,
          'session-id': ['10.0.1.1/0x00000020/10.0.2.9', '10.0.1.1/0x00000021/10.0.2.9'],
        },
        {
          id: 'data-path-differs|forward data enters leaf2 on swp4, its CM on swp3', kind: 'data-path-differs',
          severity: 'notice', title: 'Data path apart from the CM path',
          detail: 'forward data enters leaf2 on swp4, its CM on swp3', 'node-id': 'leaf2', 'tp-id': 'swp4',
          'learned-from': 'cm', count: 2, 'session-id': ['10.0.1.1/0x00000030/10.0.2.1'],
        },
        {
          id: 'half-seen|spine1, spine2', kind: 'half-seen', severity: 'warning',
          title: 'Half-seen: RC data with no responses seen',
          detail: 'one-way RC flows seen at spine1, spine2 (the first 10.0.1.1 -> 10.0.2.1) carried data for 120 s or more',
          'node-id': 'spine1', 'learned-from': 'data', count: 2,
          'session-id': ['10.0.1.1/-/10.0.2.1/qp0x000001', '10.0.1.1/-/10.0.2.1/qp0x000002'],
        },
        {
          id: 'agent-dropping-packets|leaf1', kind: 'agent-dropping-packets', severity: 'warning',
          title: 'Agent dropping packets', detail: 'leaf1: the agent\'s capture 1234 frames dropped (kernel 1000, queue 234)',
          'node-id': 'leaf1', reason: '1234 frames dropped (kernel 1000, queue 234)', count: 1,
          'first-seen': '2026-12-01T09:50:00.000000Z', 'last-seen': '2026-12-01T09:59:30.000000Z',
        },
        {
          id: 'agent-not-capturing|leaf3', kind: 'agent-not-capturing', severity: 'warning',
          title: 'Capture stopped on the agent',
          detail: 'leaf3: the agent answers but does not capture; its sessions are not followed, and paths through it have a gap there',
          'node-id': 'leaf3', reason: 'STOPPED', count: 1,
        },
        {
          id: 'congested|data-forward|leaf1|leaf1-eth3', kind: 'congested', severity: 'warning',
          title: 'Congested: marked CE leaving leaf1 leaf1-eth3',
          detail: '2 sessions\' data-forward (requester to responder): marked CE leaving leaf1 port leaf1-eth3, on the link '
            + 'into spine1 on spine1-eth1; at the last hop a CE share up to 0.2000',
          'node-id': 'leaf1', 'tp-id': 'leaf1-eth3', direction: 'data-forward', 'learned-from': 'cm', count: 2,
          'session-id': ['10.0.1.1/0x00000040/10.0.2.1', '10.0.1.1/0x00000041/10.0.2.1'],
        },
        {
          id: 'pfc-storm|spine1|swp4|3', kind: 'pfc-storm', severity: 'critical', title: 'PFC storm: spine1 swp4 priority 3',
          detail: 'spine1 port swp4 paused 0.6120 of the last interval in priority 3; 57 sessions held up',
          'node-id': 'spine1', 'tp-id': 'swp4', priority: 3, 'held-up-sessions': 57, count: 1,
          'session-id': ['10.0.3.13/0x86b4a993/10.0.4.12'],
        },
        {
          id: 'pfc-deadlock-suspect|leaf2|swp51|spine1|swp2|3', kind: 'pfc-deadlock-suspect', severity: 'critical',
          title: 'PFC deadlock suspected: leaf2 swp51 and spine1 swp2, priority 3',
          detail: 'both ends of the link leaf2 swp51 - spine1 swp2 paused in priority 3',
          'node-id': 'leaf2', 'tp-id': 'swp51', 'peer-node-id': 'spine1', 'peer-tp-id': 'swp2', priority: 3,
          'held-up-sessions': '12', count: 1,
        },
        {
          id: 'lldp-disagreement|leaf1|swp1|spine1|swp1', kind: 'lldp-disagreement', severity: 'warning',
          title: 'LLDP disagreement: leaf1 port swp1 <-> spine1 port swp1',
          detail: 'leaf1:swp1 says its neighbour is spine1:swp1, but spine1\'s agent hears leaf2:swp3 on swp1',
          'node-id': 'leaf1', 'tp-id': 'swp1', 'peer-node-id': 'spine1', 'peer-tp-id': 'swp1', reason: 'mismatch',
          count: 1,
        },
      ],
    },
  };
}

const FETCHED = 1_800_000_000;
const at = (rfc3339: string) => Date.parse(rfc3339) / 1000;

describe('problems read from the controller\'s rst-insight:problems', () => {
  it('reads every kind the model has, with its words, place, count, times and sessions', () => {
    const r = parseProblems(insightAnswer(), FETCHED);
    expect(r.available).toBe(true);
    expect(r.skipped).toBe(0);
    expect([...new Set(r.problems.map(p => p.kind))].sort()).toEqual([...PROBLEM_KINDS].sort());
    const rej = r.problems.find(p => p.kind === 'rejected')!;
    expect(rej).toEqual({
      id: 'Rejected|consumer reject (the application refused) (reason 28)|leaf2|swp1', kind: 'rejected',
      severity: 'critical', title: 'Rejected: consumer reject (the application refused) (reason 28)',
      where: 'REJ entered the fabric at leaf2 port swp1', places: [{ node: 'leaf2', tp: 'swp1' }], count: 5000,
      sessions: [{ sessionId: '10.0.1.1/0x0000000a/10.0.2.1', switchId: 'leaf2' },
        { sessionId: '10.0.1.1/0x0000000b/10.0.2.1', switchId: 'leaf2' }],
      firstSeen: at('2026-12-01T09:30:00Z'), latest: at('2026-12-01T10:00:01.250Z'),
      reason: 'consumer reject (the application refused) (reason 28)', rejectReason: 28,
      requesterIp: undefined, responderIp: undefined, learnedFrom: 'cm',
    });
    const flap = r.problems.find(p => p.kind === 'flapping')!;
    expect([flap.requesterIp, flap.responderIp, flap.count]).toEqual(['10.0.1.1', '10.0.2.9', 4]);
    expect(r.problems.find(p => p.kind === 'half-seen')!.learnedFrom).toBe('data');
    const agent = r.problems.find(p => p.kind === 'agent-unreachable')!;
    expect([agent.places, agent.sessions, agent.reason, agent.learnedFrom])
      .toEqual([[{ node: 'spine2' }], [], 'UNREACHABLE', undefined]);
    const idle = r.problems.find(p => p.kind === 'agent-not-capturing')!;
    expect([idle.title, idle.reason, idle.firstSeen, idle.latest]).toEqual(['Capture stopped on the agent', 'STOPPED',
      undefined, undefined]);
  });

  it('puts the most urgent first, then the largest, whatever order RESTCONF lists them in', () => {
    const r = parseProblems(insightAnswer(), FETCHED);
    expect(r.problems.map(p => `${p.severity} ${p.count} ${p.kind}`)).toEqual([
      'critical 5000 rejected', 'critical 3 req-unanswered', 'critical 1 agent-unreachable', 'critical 1 pfc-deadlock-suspect',
      'critical 1 pfc-storm', 'critical 1 rep-unanswered',
      'warning 4 flapping', 'warning 2 congested', 'warning 2 dreq-unanswered', 'warning 2 half-seen', 'warning 1 agent-dropping-packets',
      'warning 1 agent-not-capturing', 'warning 1 lldp-disagreement', 'notice 120 asymmetric-path', 'notice 2 data-path-differs']);
  });

  it('takes the controller\'s time and counts, which cover the groups it did not list', () => {
    const doc = insightAnswer();
    const problems = (doc['rst-insight:problems'] as { problem: unknown[] });
    // the controller lists at most 1,000 groups: keep only the rejection here
    problems.problem = problems.problem.filter(p => (p as { kind: string }).kind === 'rejected');
    const r = parseProblems(doc, FETCHED);
    expect(r.at).toBe(at('2026-12-01T10:00:05Z'));
    expect(r.total).toBe(5140);
    expect(r.byKind['asymmetric-path']).toBe(120);
    expect(r.byKind['agent-not-capturing']).toBe(1);
    expect(countByKind(r.problems)).toEqual({ rejected: 5000 });
  });

  it('opens a session where the problem\'s switch saw it, else on its path', () => {
    const r = parseProblems(insightAnswer(), FETCHED);
    const first = (kind: string) => sessionRoute(r.problems.find(p => p.kind === kind)!.sessions[0]);
    expect(first('rejected')).toBe('#/switch/leaf2/session/10.0.1.1%2F0x0000000a%2F10.0.2.1');
    expect(first('req-unanswered')).toBe('#/switch/spine1/session/10.0.1.1%2F0x00000010%2F10.0.2.1');
    expect(first('rep-unanswered')).toBe('#/switch/leaf1/session/10.0.1.1%2F0x00000011%2F10.0.2.1');
    expect(first('dreq-unanswered')).toBe('#/switch/leaf2/session/10.0.1.1%2F0x00000012%2F10.0.2.1');
    expect(first('half-seen')).toBe('#/switch/spine1/session/10.0.1.1%2F-%2F10.0.2.1%2Fqp0x000001');
    // set-ups seen by several switches, paths placed where their routes part: on the path
    expect(first('flapping')).toBe('#/paths/10.0.1.1%2F0x00000020%2F10.0.2.9');
    expect(first('asymmetric-path')).toBe('#/paths/10.0.1.1%2F0x00000001%2F10.0.2.1');
    expect(first('data-path-differs')).toBe('#/paths/10.0.1.1%2F0x00000030%2F10.0.2.1');
  });

  it('is an empty, unavailable report when the controller has written no problems container', () => {
    // RESTCONF's 409 data-missing (or 404) reaches the parser as no answer
    expect(parseProblems(undefined, FETCHED)).toEqual({ problems: [], at: FETCHED, total: 0, byKind: {}, available: false,
      skipped: 0 });
    // an empty container: nothing wrong, and the fetch time stands in for the missing updated
    expect(parseProblems({ 'rst-insight:problems': { total: 0 } }, FETCHED)).toEqual({ problems: [], at: FETCHED,
      total: 0, byKind: {}, available: true, skipped: 0 });
  });

  it('counts the entries it cannot read, keeps the others, and shows a kind it has no word for', () => {
    const r = parseProblems({ 'rst-insight:problems': { total: '7', problem: [
      { id: 'no-count', kind: 'rejected', severity: 'critical', title: 't', detail: 'd' },
      { id: 'bad-severity', kind: 'rejected', severity: 'fatal', count: 1 },
      { kind: 'rejected', severity: 'critical', count: 1 },
      'not an object',
      { id: 'future|x', kind: 'fabric-on-fire', severity: 'critical', count: 2, 'session-id': 'one-session' },
      { id: 'ok', kind: 'agent-unreachable', severity: 'critical', count: '5', 'first-seen': 'yesterday' },
    ] } }, FETCHED);
    expect(r.skipped).toBe(4);
    expect(r.total).toBe(7);
    expect(r.problems.map(p => [p.id, p.kind, p.title, p.count])).toEqual([
      ['ok', 'agent-unreachable', 'agents unreachable', 5], ['future|x', 'fabric-on-fire', 'fabric-on-fire', 2]]);
    expect(r.problems[1].sessions).toEqual([{ sessionId: 'one-session' }]);
    expect(r.problems[0].firstSeen).toBeUndefined();
    expect(kindLabel('fabric-on-fire')).toBe('fabric-on-fire');
  });

  it('reads the congestion kinds: their port places (both ends of a deadlock suspect), priority and sessions held up', () => {
    const r = parseProblems(insightAnswer(), FETCHED);
    const storm = r.problems.find(p => p.kind === 'pfc-storm')!;
    expect([storm.severity, storm.places, storm.priority, storm.heldUpSessions]).toEqual(['critical',
      [{ node: 'spine1', tp: 'swp4' }], 3, 57]);
    expect(problemFacts(storm)).toBe('priority 3 · 57 sessions held up');
    expect(placeRoute(storm, storm.places[0])).toBe('#/port/spine1/swp4');
    // a storm's sessions open on their paths: the paused switch need not have seen them
    expect(sessionRoute(storm.sessions[0])).toBe('#/paths/10.0.3.13%2F0x86b4a993%2F10.0.4.12');
    const lldp = r.problems.find(p => p.kind === 'lldp-disagreement')!;
    expect(lldp.places).toEqual([{ node: 'leaf1', tp: 'swp1' }, { node: 'spine1', tp: 'swp1' }]);
    expect(lldp.places.map(pl => placeRoute(lldp, pl))).toEqual(['#/port/leaf1/swp1', '#/port/spine1/swp1']);
    const deadlock = r.problems.find(p => p.kind === 'pfc-deadlock-suspect')!;
    expect(deadlock.places).toEqual([{ node: 'leaf2', tp: 'swp51' }, { node: 'spine1', tp: 'swp2' }]);
    expect(deadlock.places.map(pl => placeRoute(deadlock, pl))).toEqual(['#/port/leaf2/swp51', '#/port/spine1/swp2']);
    expect(deadlock.heldUpSessions).toBe(12);
    const congested = r.problems.find(p => p.kind === 'congested')!;
    expect([congested.severity, congested.direction, congested.places]).toEqual(['warning', 'data-forward',
      [{ node: 'leaf1', tp: 'leaf1-eth3' }]]);
    expect(problemFacts(congested)).toBe('data-forward');
    expect(kindLabel('pfc-storm')).toBe('PFC pause storm');
    // the other kinds' places still open the first session's path, or the switch
    const rej = r.problems.find(p => p.kind === 'rejected')!;
    expect(placeRoute(rej, rej.places[0])).toBe('#/paths/10.0.1.1%2F0x0000000a%2F10.0.2.1');
    const agent = r.problems.find(p => p.kind === 'agent-unreachable')!;
    expect(placeRoute(agent, agent.places[0])).toBe('#/switch/spine2');
    expect(problemFacts(agent)).toBe('');
  });

  it('has a word for every kind of the model', () => {
    for (const k of PROBLEM_KINDS) {
      expect(KIND_LABEL[k]).toMatch(/\w/);
    }
    expect(kindLabel('half-seen')).toBe('half-seen data flows');
  });
});
