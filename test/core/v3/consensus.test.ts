/** Committee acceptance / confirmation (src/core/v3/consensus): thresholds, two-step confirmation, bounded walks. */
import { expect } from 'chai';
import {
  committeeThresholdV3,
  processVoteV3,
  seatCount,
  type VoteBlockV3,
} from '../../../src/core/v3/consensus/committee.ts';

class Dag {
  readonly blocks = new Map<string, VoteBlockV3>();
  constructor(readonly seats: number) {}
  add(id: string, parents: string[], seat = -1) {
    this.blocks.set(id, { parents, seat, witnesses: 0n, ratifiers: 0n, accepted: false, confirmed: false });
    return processVoteV3(id, this.blocks, this.seats);
  }
  state(id: string): string {
    const b = this.blocks.get(id)!;
    return b.confirmed ? 'confirmed' : b.accepted ? 'accepted' : 'pending';
  }
}

describe('v3 committee model', () => {
  it('threshold is the smallest seat count above two thirds', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 64].map(committeeThresholdV3)).to.deep.equal([1, 2, 3, 3, 4, 5, 5, 43]);
    expect(() => committeeThresholdV3(0)).to.throw(RangeError);
    expect(() => committeeThresholdV3(65)).to.throw(RangeError);
    expect(seatCount(0b1011n)).to.equal(3);
  });

  it('one seat: the first validator block accepts, the next one confirms', () => {
    const d = new Dag(1);
    expect(d.add('B', ['G']).accepted).to.deep.equal([]);
    const v1 = d.add('V1', ['B'], 0);
    expect(v1.accepted).to.deep.equal(['V1', 'B']);
    expect(v1.confirmed).to.deep.equal([]);
    expect(d.state('B')).to.equal('accepted');
    const v2 = d.add('V2', ['V1'], 0);
    expect(v2.confirmed).to.deep.equal(['V1', 'B']);
    expect(d.state('B')).to.equal('confirmed');
    expect(d.state('V2')).to.equal('accepted');
  });

  it('four seats: acceptance needs 3 witnesses, confirmation 3 ratifiers; blocks without a seat do not vote', () => {
    const d = new Dag(4);
    d.add('B', ['G']);
    d.add('X', ['B']); // no seat
    expect(d.state('B')).to.equal('pending');
    d.add('a1', ['X'], 0);
    d.add('b1', ['a1'], 1);
    expect(d.state('B')).to.equal('pending'); // 2 of 4
    const c1 = d.add('c1', ['b1'], 2);
    expect(c1.accepted).to.include('B');
    expect(d.state('B')).to.equal('accepted');
    // c1 does not ratify the acceptance it caused itself
    expect(d.blocks.get('B')!.ratifiers).to.equal(0n);
    d.add('a2', ['c1'], 0);
    d.add('b2', ['a2'], 1);
    expect(d.state('B')).to.equal('accepted');
    const c2 = d.add('c2', ['b2'], 2);
    expect(c2.confirmed).to.include('B');
    expect(d.state('B')).to.equal('confirmed');
  });

  it('a seat voting twice counts once', () => {
    const d = new Dag(3);
    d.add('B', ['G']);
    d.add('a1', ['B'], 0);
    d.add('a2', ['a1'], 0);
    d.add('a3', ['a2'], 0);
    expect(d.state('B')).to.equal('pending');
    expect(seatCount(d.blocks.get('B')!.witnesses)).to.equal(1);
  });

  it('branches: a block in only one branch is not approved by the other', () => {
    const d = new Dag(3);
    d.add('L', ['G']);
    d.add('R', ['G']);
    d.add('a', ['L'], 0);
    d.add('b', ['R'], 1);
    d.add('c', ['R'], 2);
    expect(d.state('L')).to.equal('pending');
    expect(d.state('R')).to.equal('pending'); // b, c: 2 of 3
    d.add('a2', ['a', 'b', 'c'], 0);
    expect(d.state('R')).to.equal('accepted');
    expect(d.state('L')).to.equal('pending'); // only seat 0
  });

  it('walks are bounded: a long chain costs one visit per block and seat', () => {
    const d = new Dag(1);
    let prev = 'G';
    for (let i = 0; i < 5000; i++) {
      d.add(`u${i}`, [prev]);
      prev = `u${i}`;
    }
    const v1 = d.add('V1', [prev], 0);
    expect(v1.accepted.length).to.equal(5001);
    const v2 = d.add('V2', ['V1'], 0);
    expect(v2.confirmed.length).to.equal(5001);
    const v3 = d.add('V3', ['V2'], 0);
    // only V2 changes (ratified) and V3 (witnessed): the walk stops at blocks that already hold seat 0
    expect([...v3.changed].sort()).to.deep.equal(['V2', 'V3']);
  });

  it('rejects an unknown voter and a seat outside the committee', () => {
    const d = new Dag(2);
    expect(() => processVoteV3('nope', d.blocks, 2)).to.throw(RangeError);
    d.blocks.set('Z', { parents: [], seat: 5, witnesses: 0n, ratifiers: 0n, accepted: false, confirmed: false });
    expect(() => processVoteV3('Z', d.blocks, 2)).to.throw(RangeError);
  });
});
