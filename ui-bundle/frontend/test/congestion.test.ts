/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import {
  CongestionHistory, directionCongestionText, gradeClass, hopCongestionText, hopGrade, markedAtText, pausedPortsOf,
  portPriorities, sampleOf, segmentClasses, sparkPoints,
} from '../src/congestion';
import { dataDirections, parsePath, parsePaths, parsePausedPorts, parsePfc, type Hop } from '../src/model';
import { indexLinks, routeOf } from '../src/pathgeo';
import { labTopology } from './fixtures';

/** restconf.md's example: a CM session's data marked CE between spine1 and leaf4, as RESTCONF writes it. */
const MARKED_PATH = {
  'rdma-path-table:path': [{
    'session-id': '10.0.3.13/0x86b4a993/10.0.4.12', state: 'ESTABLISHED', 'requester-ip': '10.0.3.13',
    'responder-ip': '10.0.4.12',
    forward: { complete: true, hop: [{ index: 0, 'node-id': 'leaf1', 'ingress-tp': 'swp1', 'egress-tp': 'swp51', traffic: 'cm',
      observed: true }] },
    'data-forward': {
      complete: true, 'source-node': 'h13', 'source-tp': 'eth0', 'destination-node': 'h42', 'destination-tp': 'eth0',
      'ce-share': '0.2500', 'ce-packets': '10', 'cnp-packets': '37',
      'marked-at': { 'node-id': 'spine1', 'egress-tp': 'swp4', 'next-node-id': 'leaf4', 'next-ingress-tp': 'swp51',
        'hop-index': 2, certain: true },
      hop: [
        { index: 0, 'node-id': 'leaf1', 'ingress-tp': 'swp1', 'egress-tp': 'swp51', traffic: 'data', observed: true,
          dscp: 26, priority: 3, 'ect-packets': '40', 'ce-packets': '0', 'ce-share': '0.0000', 'cnp-packets': '37' },
        { index: 1, 'node-id': 'spine1', 'ingress-tp': 'swp1', 'egress-tp': 'swp4', traffic: 'data', observed: true,
          dscp: 26, priority: 3, 'ect-packets': '40', 'ce-packets': '0', 'ce-share': '0.0000', 'cnp-packets': '37' },
        { index: 2, 'node-id': 'leaf4', 'ingress-tp': 'swp51', 'egress-tp': 'swp2', traffic: 'data', observed: true,
          dscp: 26, priority: 3, 'ect-packets': '40', 'ce-packets': '10', 'ce-share': '0.2500', 'cnp-packets': '37' },
      ],
    },
  }],
};

const hop = (f: Partial<Hop>): Hop => ({ index: 0, nodeId: 'leaf1', observed: true, ...f });

describe('congestion leaves read from RESTCONF', () => {
  it('reads a hop\'s DSCP, priority, ECT, CE, share and CNPs, and the direction\'s totals and marked-at', () => {
    const [p] = parsePaths(MARKED_PATH);
    expect(p.dataForward?.hops.map(x => x.nodeId)).toEqual(['leaf1', 'spine1', 'leaf4']);
    expect(p.dataForward?.hops[2]).toMatchObject({ dscp: 26, priority: 3, ectPackets: 40, cePackets: 10, ceShare: 0.25,
      cnpPackets: 37 });
    expect(p.dataForward).toMatchObject({ ceShare: 0.25, cePackets: 10, cnpPackets: 37 });
    expect(p.dataForward?.markedAt).toEqual({ nodeId: 'spine1', egressTp: 'swp4', nextNodeId: 'leaf4', nextIngressTp: 'swp51',
      hopIndex: 2, certain: true });
    expect(p.dataReverse).toBeUndefined();
    // a CM session's data paths are its data-forward and data-reverse
    expect(dataDirections(p).forward).toBe(p.dataForward);
  });

  it('leaves a figure absent where RESTCONF has none or one that is not a count', () => {
    const p = parsePath({ 'session-id': '10.0.0.1/0x00000001/10.0.0.2', 'data-forward': { hop: [
      { index: 0, 'node-id': 'leaf1', 'ect-packets': '-3', 'ce-packets': 'many', 'ce-share': '1.5', dscp: 2.5 },
      { index: 1, 'node-id': 'spine1' }] } });
    expect(p.dataForward?.hops[0]).toMatchObject({ ectPackets: undefined, cePackets: undefined, ceShare: undefined, dscp: undefined });
    expect(p.dataForward?.markedAt).toBeUndefined();
    expect(hopGrade(p.dataForward!.hops[1]).level).toBe('none');
  });

  it('a data-learned session\'s directions are its data paths, with their marks', () => {
    const p = parsePath({ 'session-id': '10.0.0.1/qp0x000001/10.0.0.2/qp0x000002', 'learned-from': 'data',
      'data-forward': { 'marked-at': { 'next-node-id': 'leaf1', certain: 'false' }, hop: [{ index: 0, 'node-id': 'leaf1' }] },
      'data-reverse': { hop: [] } });
    expect(p.forward.markedAt).toEqual({ nextNodeId: 'leaf1', certain: false, nodeId: undefined, egressTp: undefined,
      nextIngressTp: undefined, hopIndex: undefined });
    expect(dataDirections(p).forward).toBe(p.forward);
    expect(p.dataForward).toBeUndefined();
  });

  it('reads paused-port and the agent status\'s pfc list, leaving out entries without a key', () => {
    const ports = parsePausedPorts({ 'rdma-path-table:rpt': { 'paused-port': [
      { 'node-id': 'spine1', 'tp-id': 'swp4', priority: 3, paused: true, 'paused-share': '0.6120', 'session-count': 57,
        session: ['10.0.3.13/0x86b4a993/10.0.4.12'] },
      { 'node-id': 'leaf1', 'tp-id': 'swp3', priority: 9 },
      { 'tp-id': 'swp1', priority: 3 },
      { 'node-id': 'leaf1', 'tp-id': 'swp51', priority: 3, 'session-count': '2' }] } });
    expect(ports.map(x => `${x.nodeId} ${x.tpId} ${x.priority}`)).toEqual(['leaf1 swp51 3', 'spine1 swp4 3']);
    expect(ports[1]).toMatchObject({ paused: true, pausedShare: 0.612, sessionCount: 57, sessions: ['10.0.3.13/0x86b4a993/10.0.4.12'] });
    expect(ports[0]).toMatchObject({ sessionCount: 2, sessions: [] });

    const pfc = parsePfc({ 'rdma-flow-table:agent-status': { state: 'CAPTURING', pfc: [
      { interface: 'Ethernet1/4', priority: 3, 'tp-id': 'swp4', frames: '1200', xon: '3', quanta: '600000', 'paused-us': '51234',
        paused: true, last: '2026-12-01T05:44:09.000000Z', 'link-speed-mbps': 100000, 'paused-share': '0.6120' },
      { interface: 'swp5', priority: 0, frames: '1' },
      { interface: 'swp6', priority: 8 }] } });
    expect(pfc).toHaveLength(2);
    expect(pfc[0]).toMatchObject({ tpId: 'swp4', frames: 1200, xon: 3, pausedUs: 51234, paused: true, linkSpeedMbps: 100000,
      pausedShare: 0.612 });
    expect(pfc[1]).toMatchObject({ interface: 'swp5', tpId: 'swp5', frames: 1, paused: undefined });
  });
});

describe('a hop graded by its marks', () => {
  it('no figures, ECN-capable without CE, and CE graded by share', () => {
    expect(hopGrade(hop({}))).toEqual({ level: 'none', grade: 0 });
    expect(hopGrade(hop({ ectPackets: 40, cePackets: 0, ceShare: 0 }))).toEqual({ level: 'ect', grade: 0 });
    expect(hopGrade(hop({ ectPackets: 1000, cePackets: 1, ceShare: 0.001 }))).toEqual({ level: 'ce', grade: 1 });
    expect(hopGrade(hop({ ceShare: 0.01 }))).toEqual({ level: 'ce', grade: 1 });
    expect(hopGrade(hop({ ceShare: 0.0101 }))).toEqual({ level: 'ce', grade: 2 });
    expect(hopGrade(hop({ ceShare: 0.05 }))).toEqual({ level: 'ce', grade: 2 });
    expect(hopGrade(hop({ ceShare: 0.0501 }))).toEqual({ level: 'ce', grade: 3 });
    // no share written: CE over ECN-capable
    expect(hopGrade(hop({ ectPackets: 40, cePackets: 10 }))).toEqual({ level: 'ce', grade: 3 });
    // a share rounded to 0 with a CE packet counted is still marked
    expect(hopGrade(hop({ ectPackets: 100000, cePackets: 1, ceShare: 0 }))).toEqual({ level: 'ce', grade: 1 });
    expect([hop({}), hop({ ceShare: 0 }), hop({ ceShare: 0.2 })].map(x => gradeClass(hopGrade(x)))).toEqual(['', 'ect', 'ce-3']);
  });

  it('says a hop\'s figures in words', () => {
    const [p] = parsePaths(MARKED_PATH);
    expect(hopCongestionText(p.dataForward!.hops[2])).toBe('DSCP 26 (priority 3) · ECT 40 · CE 10 (25.00 %) · CNPs 37');
    expect(hopCongestionText(hop({}))).toBe('no congestion figures');
    expect(directionCongestionText(p.dataForward!)).toBe('CE 25.00 % at the last hop (10 CE-marked) · 37 CNPs');
    expect(directionCongestionText(p.forward)).toBe('');
  });
});

describe('where marking starts', () => {
  it('names the link, and says when it may be earlier', () => {
    expect(markedAtText({ nodeId: 'leaf1', egressTp: 'swp3', nextNodeId: 'spine2', nextIngressTp: 'swp1', certain: true }))
      .toBe('marked at leaf1 swp3 → spine2 swp1');
    expect(markedAtText({ nodeId: 'leaf1', egressTp: 'swp3', nextNodeId: 'spine2', certain: false }))
      .toBe('marked at leaf1 swp3 → spine2 (may be earlier)');
    expect(markedAtText({ nextNodeId: 'leaf1', nextIngressTp: 'swp1', certain: true }))
      .toBe('marked at an unknown sender → leaf1 swp1');
  });

  it('colours the fabric\'s segments by the hop they enter, and marks the marked-at link', () => {
    const links = indexLinks(labTopology());
    const p = parsePath({ 'session-id': '10.0.1.1/0x00000001/10.0.2.1', 'data-forward': {
      'marked-at': { 'node-id': 'spine1', 'egress-tp': 'swp2', 'next-node-id': 'leaf2', 'next-ingress-tp': 'swp3', certain: false },
      hop: [
        { index: 0, 'node-id': 'leaf1', 'ingress-tp': 'swp1', 'egress-tp': 'swp3', observed: true, 'ect-packets': 100, 'ce-packets': 0 },
        { index: 1, 'node-id': 'spine1', 'ingress-tp': 'swp1', 'egress-tp': 'swp2', observed: false },
        { index: 2, 'node-id': 'leaf2', 'ingress-tp': 'swp3', 'egress-tp': 'swp1', observed: true, 'ect-packets': 100,
          'ce-packets': 2, 'ce-share': '0.0200' }] } });
    const d = p.dataForward!;
    const r = routeOf(d.hops, d, '10.0.1.1', '10.0.2.1', links);
    expect(r.segments.map(s => `${s.from}>${s.to}`)).toEqual(['h1a>leaf1', 'leaf1>spine1', 'spine1>leaf2', 'leaf2>h2a']);
    expect(segmentClasses(r, d)).toEqual(['ect', '', 'ce-2 marked uncertain', '']);
    expect(segmentClasses(r, undefined)).toEqual(['', '', '', '']);
  });
});

describe('a session\'s congestion over time', () => {
  it('keeps the last samples only, oldest first', () => {
    const h = new CongestionHistory('s', 3);
    for (let i = 0; i < 10; i++) {
      h.add({ at: i, forwardCe: i * 10 });
    }
    expect(h.size).toBe(3);
    expect(h.samples().map(s => s.at)).toEqual([7, 8, 9]);
    const big = new CongestionHistory('s');
    for (let i = 0; i < 1000; i++) {
      big.add({ at: i });
    }
    expect(big.size).toBe(60);
    expect(big.samples()[0].at).toBe(940);
    expect(() => new CongestionHistory('s', 1)).toThrow();
  });

  it('gives each interval\'s increments, a count that starts over as its new value, absent where unknown', () => {
    const h = new CongestionHistory('s', 10);
    [5, 8, 8, 2, undefined, 4].forEach((v, i) => h.add({ at: i, forwardCnp: v }));
    expect(h.increments('forwardCnp')).toEqual([3, 0, 2, undefined, undefined]);
    expect(h.increments('reverseCe')).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('samples a path\'s directions, and draws a sparkline in its box', () => {
    const [p] = parsePaths(MARKED_PATH);
    expect(sampleOf(100, p.dataForward, p.dataReverse)).toEqual({ at: 100, forwardCe: 10, forwardCnp: 37, reverseCe: undefined,
      reverseCnp: undefined });
    expect(sparkPoints([0, 5, 10], 100, 20)).toBe('0,20 50,10 100,0');
    expect(sparkPoints([undefined, 0], 10, 10)).toBe('0,10 10,10');
    expect(sparkPoints([3], 10, 10)).toBe('');
  });
});

describe('a port\'s pauses', () => {
  const pfc = parsePfc({ 'agent-status': { pfc: [
    { interface: 'Ethernet1/4', 'tp-id': 'swp4', priority: 3, frames: 10, paused: true },
    { interface: 'Ethernet1/4', 'tp-id': 'swp4', priority: 0, frames: 1, paused: false, 'paused-share': '0.0000' },
    { interface: 'Ethernet1/5', 'tp-id': 'swp5', priority: 3, frames: 7 }] } });
  const paused = parsePausedPorts({ 'rdma-path-table:rpt': { 'paused-port': [
    { 'node-id': 'spine1', 'tp-id': 'swp4', priority: 3, paused: true, 'session-count': 2, session: ['a', 'b'] },
    { 'node-id': 'spine1', 'tp-id': 'swp4', priority: 5, 'paused-share': '0.1000', 'session-count': 0 },
    { 'node-id': 'spine2', 'tp-id': 'swp4', priority: 3, 'session-count': 9 }] } });

  it('joins the agent\'s counts and paused-port by priority, for that switch and port only', () => {
    const rows = portPriorities('spine1', 'swp4', pfc, paused);
    expect(rows.map(r => [r.priority, r.pfc?.frames, r.paused?.sessionCount])).toEqual([[0, 1, undefined], [3, 10, 2],
      [5, undefined, 0]]);
    // the agent's interface name finds the port too, where the port-map maps none
    expect(portPriorities('spine1', 'Ethernet1/5', pfc, []).map(r => r.priority)).toEqual([3]);
    expect(portPriorities('spine1', 'swp9', pfc, paused)).toEqual([]);
  });

  it('lists a switch\'s paused ports with their priorities', () => {
    expect([...pausedPortsOf('spine1', paused)]).toEqual([['swp4', [3, 5]]]);
    expect(pausedPortsOf('leaf1', paused).size).toBe(0);
  });
});
