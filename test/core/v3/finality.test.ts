/**
 * Slot finality (src/core/v3/consensus/finality.ts), the node's model of iota-core's totalweightslotgadget: confirmed
 * blocks of seats vote for the slots up to the commitment they name, counted per block slot, threshold > 2/3 seats.
 */
import { expect } from 'chai';
import { SlotFinalityV3 } from '../../../src/core/v3/consensus/finality.ts';

describe('v3 slot finality', () => {
  it('one seat: its confirmed block finalizes the slot of the commitment it names', () => {
    const f = new SlotFinalityV3(1, 0, 20);
    expect(f.vote(30, 0, 20)).to.equal(20);
    expect(f.vote(31, 0, 19)).to.equal(20); // never goes back
    expect(f.vote(31, 0, 21)).to.equal(21);
    expect(f.latestFinalizedSlot).to.equal(21);
  });

  it('four seats (threshold 3): three seats must vote within the same block slot', () => {
    const f = new SlotFinalityV3(4, 0, 20);
    expect(f.vote(30, 0, 20)).to.equal(0);
    expect(f.vote(30, 1, 18)).to.equal(0);
    expect(f.vote(31, 2, 20)).to.equal(0); // another block slot: does not count with slot 30's votes
    expect(f.vote(30, 3, 19)).to.equal(18); // slot 30: 20, 18, 19 -> the third highest is 18
    expect(f.vote(30, 1, 20)).to.equal(19); // 20, 20, 19
    expect(f.vote(31, 0, 21)).to.equal(19);
    expect(f.vote(31, 1, 21)).to.equal(20); // slot 31: 21, 21, 20
  });

  it('a vote at or below the finalized slot changes nothing; trackers go once they can decide nothing', () => {
    const f = new SlotFinalityV3(1, 10, 5);
    expect(f.vote(12, 0, 10)).to.equal(10);
    expect(f.vote(9, 0, 8)).to.equal(10);
    expect(f.tracked).to.equal(0);
    const g = new SlotFinalityV3(3, 0, 5);
    g.vote(10, 0, 1);
    g.vote(20, 0, 2);
    expect(g.tracked).to.equal(1); // slot 10 is more than 5 block slots older than 20
    expect(g.vote(10, 1, 1)).to.equal(0); // a vote for a dropped tracker is ignored
    expect(g.tracked).to.equal(1);
    expect(() => g.vote(21, 3, 5)).to.throw(RangeError, /seat 3/);
  });
});
