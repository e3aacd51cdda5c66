/**
 * The fault suite's checker on made-up metadata (no nodes): each acknowledged block lands in the class the suite
 * counts (referenced, divergent, lost, orphaned on every node or on some), each double spend gets its verdict
 * (decided, undecided, one-sided, a violation when both sides are included or nodes disagree); the schedule draws
 * every fault kind once per round; the quantile the catch-up figures use.
 */
import { expect } from 'chai';
import { classifyAcks, judgeDoubles, type Meta, type Metadata } from '../../../harness/faults/check-blocks.ts';
import { FAULT_KINDS, schedule } from '../../../harness/faults/faults.ts';
import type { Ack, DoubleSpend } from '../../../harness/faults/journal.ts';
import { quantile } from '../../../harness/faults/report.ts';
import { prng } from '../../../harness/crash/load.ts';

const ack = (blockId: string): Ack => ({ blockId, node: 'n1', via: 'rest', kind: 'data', cycle: 1, at: 0 });
const referenced = (index: number, state = 'noTransaction'): Meta => ({
  referenced: index,
  state,
  solid: true,
  reattach: false,
});
const unreferenced: Meta = { solid: true, reattach: true };

describe('fault suite checker', () => {
  it('classifies acknowledged blocks: referenced, divergent, lost, orphaned everywhere or locally', () => {
    const meta: Metadata = new Map([
      ['ok', [referenced(5), referenced(5), referenced(5)]],
      ['differs', [referenced(5), referenced(6), referenced(5)]],
      ['missing', [referenced(5), undefined, referenced(5)]],
      ['gone', [undefined, undefined, undefined]],
      ['orphan', [unreferenced, unreferenced, unreferenced]],
      ['local', [unreferenced, undefined, undefined]],
    ]);
    const v = classifyAcks(['ok', 'differs', 'missing', 'gone', 'orphan', 'local', 'unread'].map(ack), meta);
    expect(v.total).to.equal(7);
    expect(v.referenced).to.equal(1);
    expect(v.divergent.map((a) => a.blockId)).to.deep.equal(['differs']);
    expect(v.lost.map((a) => a.blockId)).to.deep.equal(['missing', 'gone', 'unread']);
    expect(v.orphanedEverywhere.map((a) => a.blockId)).to.deep.equal(['orphan']);
    expect(v.orphanedLocal.map((a) => a.blockId)).to.deep.equal(['local']);
  });

  it('judges double spends: one side included everywhere, neither, one-sided, or a violation', () => {
    const inc = referenced(7, 'included');
    const con = { ...referenced(7, 'conflicting'), conflict: 2 };
    const meta: Metadata = new Map([
      ['a1', [inc, inc]],
      ['b1', [con, con]],
      ['a2', [inc, con]],
      ['b2', [con, inc]],
      ['a3', [inc, inc]],
      ['b3', [inc, undefined]],
      ['a4', [unreferenced, unreferenced]],
      ['b4', [unreferenced, undefined]],
    ]);
    const d = (cycle: number, a?: string, b?: string): DoubleSpend => ({
      cycle,
      fault: 'loss',
      nodes: ['n1', 'n2'],
      txIds: ['0x01', '0x02'],
      blockIds: [a, b],
      statuses: [a ? 201 : 503, b ? 201 : 503],
    });
    const v = judgeDoubles(
      [d(1, 'a1', 'b1'), d(2, 'a2', 'b2'), d(3, 'a3', 'b3'), d(4, 'a4', 'b4'), d(5, 'a1'), d(6)],
      meta,
    );
    expect([v.tried, v.bothAcknowledged, v.decided, v.undecided, v.oneSided]).to.deep.equal([6, 4, 1, 1, 1]);
    expect(v.violations).to.have.length(2);
    expect(v.violations[0]).to.match(/^cycle 2 .*via n1 \/ via n2/);
    expect(v.violations[1]).to.match(/^cycle 3 .*both/);
  });

  it('draws every fault kind once per round, the same for the same seed', () => {
    const s = schedule(FAULT_KINDS, FAULT_KINDS.length * 2, prng(7));
    expect(s.slice(0, FAULT_KINDS.length)).to.have.members([...FAULT_KINDS]);
    expect(s.slice(FAULT_KINDS.length)).to.have.members([...FAULT_KINDS]);
    expect(schedule(FAULT_KINDS, 9, prng(7))).to.deep.equal(s.slice(0, 9));
    expect(schedule(FAULT_KINDS, 9, prng(8))).to.not.deep.equal(s.slice(0, 9));
  });

  it('quantiles by the nearest rank', () => {
    expect(quantile([5, 1, 3], 0.5)).to.equal(3);
    expect(quantile([4, 1, 3, 2], 0.5)).to.equal(2);
    expect(quantile([7], 0.5)).to.equal(7);
    expect(quantile([], 0.5)).to.be.NaN;
  });
});
