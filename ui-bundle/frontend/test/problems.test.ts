/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import type { CmMessage, Path, Session } from '../src/model';
import { countByKind, deriveProblems, type SwitchInput } from '../src/problems';
import { session } from './fixtures';

const msg = (seq: number, type: string, ingressTp: string, time: number, fromRequester?: boolean): CmMessage =>
  ({ seq, type, ingressTp, time, fromRequester });

const sw = (nodeId: string, sessions: Session[], over: Partial<SwitchInput> = {}): SwitchInput =>
  ({ nodeId, configured: true, enabled: true, status: { state: 'CAPTURING' }, sessions, ...over });

const NOW = 10000;

describe('problems derived from the flow and path tables', () => {
  it('finds a rejected session with its reason and the port where the REJ entered the fabric', () => {
    const id = '10.0.1.1/0x00000001/10.0.2.1';
    const onLeaf2 = session({ sessionId: id, state: 'REJECTED', rejectReason: 28,
      messages: [msg(0, 'REQ', 'swp3', 1.0, true), msg(1, 'REJ', 'swp1', 1.2, false)] });
    const onLeaf1 = session({ sessionId: id, state: 'REJECTED', rejectReason: 28,
      messages: [msg(0, 'REQ', 'swp1', 0.9, true), msg(1, 'REJ', 'swp3', 1.3, false)] });
    const [p, ...rest] = deriveProblems({ switches: [sw('leaf1', [onLeaf1]), sw('leaf2', [onLeaf2])], paths: [], now: NOW });
    expect(rest).toEqual([]);
    expect(p.kind).toBe('rejected');
    expect(p.severity).toBe('critical');
    expect(p.title).toContain('consumer reject');
    expect(p.title).toContain('28');
    expect(p.where).toContain('responder');
    expect(p.where).toContain('leaf2 swp1');
    expect(p.count).toBe(1);
    expect(p.sessions[0].sessionId).toBe(id);
  });

  it('takes the places from the path table when it has the session: where the REJ entered, where the REQ left', () => {
    const hops = (...h: [string, string, string][]) => h.map(([nodeId, ingressTp, egressTp], index) =>
      ({ index, nodeId, ingressTp, egressTp, observed: true }));
    const path = (sessionId: string): Path => ({
      sessionId, asymmetric: false, anomalies: [],
      forward: { complete: true, gaps: [], hops: hops(['leaf1', 'swp1', 'swp3'], ['spine1', 'swp1', 'swp2'], ['leaf2', 'swp3', 'swp1']) },
      reverse: { complete: true, gaps: [], hops: hops(['leaf2', 'swp1', 'swp3'], ['spine1', 'swp2', 'swp1'], ['leaf1', 'swp3', 'swp1']) },
    });
    // the switches' clocks disagree: the earliest REJ sighting is on the wrong side
    const rejected = session({ sessionId: 'r', state: 'REJECTED', rejectReason: 8,
      messages: [msg(0, 'REQ', 'swp1', 5, true), msg(1, 'REJ', 'swp3', 1, false)] });
    const silent = session({ sessionId: 't', state: 'TIMED_OUT', messages: [msg(0, 'REQ', 'swp1', 1, true)] });
    const problems = deriveProblems({ switches: [sw('leaf1', [rejected, silent])], paths: [path('r'), path('t')], now: NOW });
    const rej = problems.find(p => p.kind === 'rejected')!;
    expect(rej.where).toBe('REJ sent by the responder 10.0.2.1, entering the fabric at leaf2 swp1');
    expect(rej.sessions[0]).toEqual({ sessionId: 'r', switchId: 'leaf1' });
    const out = problems.find(p => p.kind === 'timed-out')!;
    expect(out.where).toBe('the responder 10.0.2.1 did not answer; the REQ left the fabric at leaf2 swp1');
    expect(out.places).toEqual([{ node: 'leaf2', tp: 'swp1' }]);
  });

  it('groups many rejections of one cause and place into one line', () => {
    const sessions = Array.from({ length: 500 }, (_, i) => session({ requesterIp: `10.1.${i >> 8}.${i & 255}`, state: 'REJECTED', rejectReason: 8,
      messages: [msg(0, 'REQ', 'swp1', 1, true), msg(1, 'REJ', 'swp4', 2, false)] }));
    const problems = deriveProblems({ switches: [sw('leaf2', sessions)], paths: [], now: NOW });
    expect(problems).toHaveLength(1);
    expect(problems[0].count).toBe(500);
    expect(problems[0].sessions.length).toBeLessThanOrEqual(50);
  });

  it('tells which phase timed out and who stayed silent', () => {
    const setup = session({ state: 'TIMED_OUT', messages: [msg(0, 'REQ', 'swp1', 1, true), msg(1, 'REQ', 'swp1', 2, true)] });
    const teardown = session({ state: 'TIMED_OUT', messages: [msg(0, 'REQ', 'swp1', 1, true), msg(1, 'REP', 'swp3', 1.1, false),
      msg(2, 'RTU', 'swp1', 1.2, true), msg(3, 'DREQ', 'swp3', 5, false)] });
    const problems = deriveProblems({ switches: [sw('leaf1', [setup, teardown])], paths: [], now: NOW });
    expect(problems.map(p => p.title).sort()).toEqual(['Timed out: DREQ got no DREP', 'Timed out: REQ got no REP']);
    expect(problems.find(p => p.title.endsWith('REQ got no REP'))!.where).toContain('responder');
    expect(problems.find(p => p.title.endsWith('REQ got no REP'))!.where).toContain('leaf1 swp1');
    expect(problems.find(p => p.title.endsWith('DREQ got no DREP'))!.where).toContain('requester');
  });

  it('does not call a session timed out when another switch saw it close', () => {
    const id = 'x/0x1/y';
    const problems = deriveProblems({ switches: [
      sw('leaf1', [session({ sessionId: id, state: 'TIMED_OUT', messages: [msg(0, 'DREQ', 'swp1', 1, true)] })]),
      sw('leaf2', [session({ sessionId: id, state: 'CLOSED', messages: [msg(0, 'DREQ', 'swp3', 1, true), msg(1, 'DREP', 'swp1', 2, false)] })]),
    ], paths: [], now: NOW });
    expect(problems).toEqual([]);
  });

  it('calls a lingering DISCONNECTING session half-closed, but not one that just sent its DREQ', () => {
    const old = session({ state: 'DISCONNECTING', lastSeen: NOW - 60, messages: [msg(0, 'DREQ', 'swp1', NOW - 60, true)] });
    const fresh = session({ state: 'DISCONNECTING', lastSeen: NOW - 1, messages: [msg(0, 'DREQ', 'swp1', NOW - 1, true)] });
    const problems = deriveProblems({ switches: [sw('leaf1', [old, fresh])], paths: [], now: NOW });
    expect(problems).toHaveLength(1);
    expect(problems[0].kind).toBe('half-closed');
    expect(problems[0].count).toBe(1);
    expect(problems[0].where).toContain('responder');
  });

  it('finds flapping: the same endpoints set up again and again, the earlier ones ended', () => {
    const flap = [0, 20, 40, 60].map((t, i) => session({ requesterIp: '10.0.1.1', responderIp: '10.0.2.9', serviceId: '0x0000000001060001',
      firstSeen: 5000 + t, state: i < 3 ? 'CLOSED' : 'ESTABLISHED' }));
    // many QPs between one pair that all stay up are a normal job, not flapping
    const busy = [0, 1, 2, 3, 4].map(t => session({ requesterIp: '10.0.1.5', responderIp: '10.0.2.5', firstSeen: 5000 + t, state: 'ESTABLISHED' }));
    // set-ups spread beyond the window are not flapping either
    const slow = [0, 1000, 2000].map(t => session({ requesterIp: '10.0.1.6', responderIp: '10.0.2.6', firstSeen: t, state: 'CLOSED' }));
    const problems = deriveProblems({ switches: [sw('leaf1', [...flap, ...busy, ...slow])], paths: [], now: NOW });
    expect(problems).toHaveLength(1);
    expect(problems[0].kind).toBe('flapping');
    expect(problems[0].count).toBe(4);
    expect(problems[0].where).toContain('10.0.1.1 → 10.0.2.9');
    expect(problems[0].title).toContain('4 set-ups');
  });

  it('reports unreachable and unauthorized agents of enabled switches only', () => {
    const problems = deriveProblems({ switches: [
      sw('leaf1', [], { status: { state: 'UNREACHABLE', detail: 'connection refused' }, agentAddress: '10.9.0.1' }),
      sw('leaf2', [], { status: { state: 'UNAUTHORIZED' } }),
      sw('leaf3', [], { enabled: false, status: { state: 'UNREACHABLE' } }),
      sw('leaf4', [], { status: { state: 'CAPTURING' } }),
    ], paths: [], now: NOW });
    expect(problems.map(p => `${p.places[0].node}:${p.title}`)).toEqual([
      'leaf1:Agent unreachable', 'leaf2:Agent refused the controller\'s token']);
    expect(problems[0].where).toContain('connection refused');
    expect(problems[0].where).toContain('10.9.0.1');
  });

  it('lists asymmetric paths and paths with gaps, least severe last', () => {
    const path = (id: string, asymmetric: boolean, gap: string[]): Path => ({
      sessionId: id, asymmetric, anomalies: [],
      forward: { complete: gap.length === 0, gaps: gap, hops: [{ index: 0, nodeId: 'leaf1', observed: true }, { index: 1, nodeId: 'spine1', observed: true }] },
      reverse: { complete: true, gaps: [], hops: [{ index: 0, nodeId: 'spine2', observed: true }, { index: 1, nodeId: 'leaf1', observed: true }] },
    });
    const rejected = session({ state: 'REJECTED', messages: [msg(0, 'REJ', 'swp1', 1, false)] });
    const problems = deriveProblems({ switches: [sw('leaf1', [rejected])], paths: [
      path('p1', true, []), path('p2', true, []), path('p3', false, ['switch spine1 (port swp1) feeds leaf2:swp3 but RFT there saw nothing']),
    ], now: NOW });
    expect(problems[0].kind).toBe('rejected');
    const asym = problems.find(p => p.kind === 'asymmetric')!;
    expect(asym.count).toBe(2);
    expect(asym.where).toBe('forward leaf1 → spine1, reverse spine2 → leaf1');
    const gap = problems.find(p => p.kind === 'path-gap')!;
    expect(gap.places).toEqual([{ node: 'spine1' }]);
    expect(countByKind(problems)).toEqual({ rejected: 1, asymmetric: 2, 'path-gap': 1 });
  });

  it('finds nothing wrong in healthy sessions', () => {
    const ok = [session({ state: 'ESTABLISHED' }), session({ state: 'CLOSED', messages: [msg(0, 'DREQ', 's', 1, true), msg(1, 'DREP', 's', 2, false)] })];
    expect(deriveProblems({ switches: [sw('leaf1', ok)], paths: [], now: NOW })).toEqual([]);
  });
});
