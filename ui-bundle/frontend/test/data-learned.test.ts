/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

import { describe, expect, it } from 'vitest';
import { dataKindWord, isDataSessionId, joinedToCm, learnedWord, sessionTone, sessionWord } from '../src/format';
import { dataIdParts, parsePaths, parseSwitchSessions, type Session } from '../src/model';
import { learnedText, PATH_TABLE, sessionTableDef } from '../src/session-table';
import { applyView, indexRows } from '../src/table';
import { routeLayers } from '../src/views/pathpanel';
import { labTopology, session } from './fixtures';

const PAIRED = '10.0.1.1/qp0x000011/10.0.2.1/qp0x000022';
const ONE_WAY = '10.0.1.1/-/10.0.2.1/qp0x000022';

/** A switch's table as RESTCONF writes it: a CM session, a data-learned session, a one-way flow. */
const TABLE = {
  'rdma-flow-table:switch': [{
    'node-id': 'spine1',
    session: [
      { 'session-id': '10.0.1.1/0x00000001/10.0.2.1', 'learned-from': 'cm', state: 'ESTABLISHED',
        message: [{ seq: 0, type: 'REQ', 'ingress-tp': 'swp1' }] },
      { 'session-id': PAIRED, 'learned-from': 'data', transport: 'RC', 'roles-known': false, state: 'ACTIVE',
        'requester-ip': '10.0.1.1', 'responder-ip': '10.0.2.1', 'requester-qpn': 17, 'responder-qpn': 34,
        'requester-data': { 'udp-src-port': 50001, 'ingress-port': 'swp1', packets: '40' },
        'responder-data': { 'udp-src-port': 50002, 'ingress-port': 'swp2', packets: '38' } },
      { 'session-id': ONE_WAY, 'learned-from': 'data', transport: 'RC', 'one-way': true, state: 'IDLE',
        'requester-ip': '10.0.1.1', 'responder-ip': '10.0.2.1', 'responder-qpn': 34,
        'requester-data': { 'udp-src-port': 50003, 'ingress-port': 'swp1', packets: '3' },
        'paired-session': PAIRED },
    ],
  }],
};

describe('sessions learnt from data packets', () => {
  const [cm, data, flow] = parseSwitchSessions(TABLE);

  it('parse with where they were learnt from, their data ports as their ports, and a one-way flow\'s pairing', () => {
    expect(cm.learnedFrom).toBe('cm');
    expect(data.learnedFrom).toBe('data');
    expect(data.state).toBe('ACTIVE');
    expect(data.transport).toBe('RC');
    expect(data.ports).toEqual(['swp1', 'swp2']);
    expect(data.requesterDataPort).toBe('swp1');
    expect(data.responderDataPort).toBe('swp2');
    expect(data.requesterCommId).toBeUndefined();
    expect(flow.oneWay).toBe(true);
    expect(flow.state).toBe('IDLE');
    expect(flow.requesterQpn).toBeUndefined();
    expect(flow.pairedSession).toBe(PAIRED);
  });

  it('read their identities when the quick request brings only ids and states', () => {
    const [quickData, quickFlow] = parseSwitchSessions({ session: [
      { 'session-id': PAIRED, state: 'ACTIVE' }, { 'session-id': ONE_WAY, state: 'IDLE' }] });
    expect(quickData).toMatchObject({ learnedFrom: 'data', requesterIp: '10.0.1.1', responderIp: '10.0.2.1',
      requesterQpn: 0x11, responderQpn: 0x22, oneWay: false });
    expect(quickFlow).toMatchObject({ learnedFrom: 'data', oneWay: true, responderQpn: 0x22 });
    expect(quickFlow.requesterQpn).toBeUndefined();
    expect(dataIdParts('fd00::1/qp0x000001/fd00::2/qp0xabcdef')?.responderQpn).toBe(0xabcdef);
    for (const bad of ['10.0.0.1/0x00000001/10.0.0.2', 'a/qp0x1/b/qp0x000001', '/-/b/qp0x000001', 'a/x/b/qp0x000001']) {
      expect(dataIdParts(bad)).toBeUndefined();
    }
  });

  it('are marked in words and colours: CM or data, one-way with its peer QP unknown, ACTIVE and IDLE', () => {
    expect(learnedWord(cm.learnedFrom)).toBe('CM');
    expect(learnedText(data)).toBe('data');
    expect(learnedText(flow)).toBe('data one-way');
    expect(dataKindWord(data)).toBe('RC, both directions');
    expect(dataKindWord(flow)).toBe('RC, one-way, peer QP unknown, paired across switches');
    expect(dataKindWord({ learnedFrom: 'data', oneWay: true, transport: 'UD', pairAmbiguous: true }))
      .toBe('UD, one-way, peer QP unknown, pairing ambiguous');
    expect(dataKindWord(cm)).toBe('');
    // data the controller joined to the CM session of its QPs (its switch saw no CM message)
    const cmId = '10.0.1.1/0x00000abc/10.0.2.1';
    expect(dataKindWord({ ...flow, pairedSession: cmId }))
      .toBe('RC, one-way, peer QP unknown, part of a CM session');
    expect(dataKindWord({ ...data, pairedSession: cmId })).toBe('RC, both directions, part of a CM session');
    expect(joinedToCm({ ...data, pairedSession: cmId })).toBe(true);
    expect(joinedToCm(flow)).toBe(false);
    expect(joinedToCm({ ...cm, pairedSession: cmId })).toBe(false);
    expect(isDataSessionId(PAIRED)).toBe(true);
    expect(isDataSessionId(cmId)).toBe(false);
    expect(isDataSessionId('fd00::1/0x0000abcd/fd00::2/0x00000001')).toBe(false);
    expect(sessionWord('ACTIVE')).toBe('active');
    expect(sessionTone('ACTIVE')).toBe('ok');
    expect(sessionTone('IDLE')).toBe('idle');
  });

  it('filter by origin, one-way, transport and pairing, and show the origin as a column', () => {
    const rows: Session[] = [cm, data, flow];
    const def = sessionTableDef(rows);
    expect(def.columns.map(c => c.key)).toContain('learnedFrom');
    expect(def.columns.map(c => c.key)).toContain('dataKind');
    const table = indexRows(rows, def);
    const run = (q: string) => [...applyView(table, q, undefined, 'asc').order].map(i => rows[i].sessionId);
    expect(run('learned:data')).toEqual([PAIRED, ONE_WAY]);
    expect(run('from:cm')).toEqual([cm.sessionId]);
    expect(run('oneway:yes')).toEqual([ONE_WAY]);
    expect(run('oneway:no')).toEqual([cm.sessionId, PAIRED]);
    expect(run('transport:rc')).toEqual([PAIRED, ONE_WAY]);
    expect(run('paired:yes')).toEqual([ONE_WAY]);
    expect(run('state:active')).toEqual([PAIRED]);
    expect(run('port:swp2')).toEqual([PAIRED]);
    // a fixture without an origin is a CM session
    expect(learnedText(session())).toBe('CM');
  });
});

describe('paths of data-learned sessions', () => {
  const hop = (index: number, nodeId: string, ingressTp: string, egressTp: string) =>
    ({ index, 'node-id': nodeId, 'ingress-tp': ingressTp, 'egress-tp': egressTp, observed: true, traffic: 'data' });
  const [paired, flow, cmPath] = parsePaths({ 'rdma-path-table:rpt': { path: [
    { 'session-id': PAIRED, 'learned-from': 'data', transport: 'RC', state: 'ACTIVE', asymmetric: true,
      'requester-ip': '10.0.1.1', 'responder-ip': '10.0.2.1',
      'data-forward': { complete: true, hop: [hop(0, 'leaf1', 'swp1', 'swp4'), hop(1, 'spine2', 'swp1', 'swp2'),
        hop(2, 'leaf2', 'swp4', 'swp1')] },
      'data-reverse': { complete: true, hop: [hop(0, 'leaf2', 'swp1', 'swp3'), hop(1, 'spine1', 'swp2', 'swp1'),
        hop(2, 'leaf1', 'swp3', 'swp1')] } },
    { 'session-id': ONE_WAY, 'learned-from': 'data', 'one-way': true, transport: 'RC', 'responder-qpn': 34,
      'data-forward': { complete: false, hop: [hop(0, 'spine2', 'swp1', 'swp2')], gap: ['switch leaf1 (port swp4) ...'] } },
    { 'session-id': '10.0.1.1/0x00000001/10.0.2.1', 'learned-from': 'cm', forward: { complete: true, hop: [] },
      reverse: { complete: true, hop: [] },
      'data-forward': { complete: true, hop: [hop(0, 'leaf9', 'swp1', 'swp2')] } },
  ] } });

  it('are their data in both directions, one for a one-way flow', () => {
    expect(paired.learnedFrom).toBe('data');
    expect(paired.forward.hops.map(h => h.nodeId)).toEqual(['leaf1', 'spine2', 'leaf2']);
    expect(paired.reverse.hops.map(h => h.nodeId)).toEqual(['leaf2', 'spine1', 'leaf1']);
    expect(flow.oneWay).toBe(true);
    expect(flow.forward.hops.map(h => h.nodeId)).toEqual(['spine2']);
    expect(flow.reverse.hops).toEqual([]);
    // a CM session's directions stay its CM paths
    expect(cmPath.learnedFrom).toBe('cm');
    expect(cmPath.forward.hops).toEqual([]);
  });

  it('are drawn from their data hops, and listed as data, one-way flows as such', () => {
    const layers = routeLayers(paired, labTopology());
    expect(layers.map(l => `${l.direction}:${l.traffic}`)).toEqual(['forward:data', 'reverse:data']);
    const text = (key: string, p: typeof paired) => PATH_TABLE.columns.find(c => c.key === key)!.text(p);
    expect(text('learnedFrom', paired)).toBe('data');
    expect(text('learnedFrom', flow)).toBe('data one-way');
    expect(text('complete', flow)).toBe('gap, one-way');
    expect(text('complete', paired)).toBe('complete, asymmetric');
    const table = indexRows([paired, flow, cmPath], PATH_TABLE);
    expect([...applyView(table, 'learned:data oneway:no', undefined, 'asc').order]).toEqual([0]);
    expect([...applyView(table, 'gap:yes', undefined, 'asc').order]).toEqual([1]);
  });
});
