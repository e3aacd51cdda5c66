/**
 * Slot finality (the node's model of iota-core's `totalweightslotgadget`): a seat's CONFIRMED block votes for the
 * slot of the commitment it names, and so for every slot up to it. Votes are counted per block slot: slot i is
 * finalized once, among the confirmed blocks of ONE block slot, blocks of at least t seats (t = committee threshold,
 * committee.ts) name commitments of slot i or later. The latest finalized slot only grows.
 *
 * For each block slot this keeps each seat's highest voted commitment slot; the slot that tracker finalizes is the
 * t-th highest of those values. iota-core weighs by the committee of the slot's epoch with threshold > 67 % of the
 * seats; here seats are fixed and equal, and the threshold is the committee's (> 2/3 of the seats).
 *
 * Memory: trackers of block slots at or below the latest finalized slot can change nothing and go; so do trackers
 * more than `window` block slots older than the newest one seen (a vote that late would be outside any commitment
 * window anyway).
 */
import { committeeThresholdV3 } from './committee.ts';

export class SlotFinalityV3 {
  private readonly seats: number;
  private readonly threshold: number;
  private readonly window: number;
  /** Block slot -> per seat the highest commitment slot its confirmed blocks of that slot voted for (-1: none). */
  private readonly trackers = new Map<number, number[]>();
  private newestBlockSlot = 0;
  private finalized: number;

  constructor(seats: number, latestFinalizedSlot: number, window: number) {
    this.seats = seats;
    this.threshold = committeeThresholdV3(seats);
    this.finalized = latestFinalizedSlot;
    this.window = window;
  }

  get latestFinalizedSlot(): number {
    return this.finalized;
  }

  /** The vote of a confirmed block of `seat`; returns the latest finalized slot afterwards. */
  vote(blockSlot: number, seat: number, commitmentSlot: number): number {
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.seats)
      throw new RangeError(`seat ${seat} is outside the committee of ${this.seats}`);
    if (blockSlot <= this.finalized || commitmentSlot <= this.finalized) return this.finalized;
    if (blockSlot + this.window < this.newestBlockSlot) return this.finalized;
    let tracker = this.trackers.get(blockSlot);
    if (tracker === undefined) {
      tracker = new Array<number>(this.seats).fill(-1);
      this.trackers.set(blockSlot, tracker);
    }
    if (commitmentSlot <= tracker[seat]!) return this.finalized;
    tracker[seat] = commitmentSlot;
    const candidate = [...tracker].sort((a, b) => b - a)[this.threshold - 1]!;
    if (candidate > this.finalized) this.finalized = candidate;
    if (blockSlot > this.newestBlockSlot) this.newestBlockSlot = blockSlot;
    this.evict();
    return this.finalized;
  }

  private evict(): void {
    for (const s of this.trackers.keys())
      if (s <= this.finalized || s + this.window < this.newestBlockSlot) this.trackers.delete(s);
  }

  /** Block slots tracked (the bound the tests watch). */
  get tracked(): number {
    return this.trackers.size;
  }
}
