/**
 * `/api/core/v3/network/metrics`, measured as iota-core's metrics tracker measures it (components/metricstracker): two
 * counters, the blocks the node attached (iota-core: every block its filters allowed, the node's own validation
 * blocks, its clients' and its peers' alike) and the blocks it confirmed, are read whenever slots are committed; the
 * blocks and confirmed blocks since the previous measurement divided by the seconds between the two are the blocks
 * and confirmed blocks per second, and confirmed / new blocks in percent the confirmation rate. The figures hold until
 * the next measurement. Two choices where iota-core's arithmetic has gaps (docs/decisions.md §38): the time is the
 * clock's milliseconds, a measurement waiting until at least one second has passed since the previous one (iota-core
 * takes whole Unix seconds, so 1.9 s counts as 1 s, and skips a second it already measured in); and with no new
 * block since the previous measurement the rate is 0 (iota-core's division gives NaN or +Inf).
 * Before the first measurement every figure is 0, as iota-core's before it is bootstrapped.
 */

/** The counters the meter reads (dag.ts `counts`). */
export interface BlockCountsV3 {
  attached: number;
  confirmed: number;
}

export interface NetworkMetricsV3 {
  blocksPerSecond: number;
  confirmedBlocksPerSecond: number;
  /** Confirmed blocks per new block, in percent (it may exceed 100: blocks attached earlier confirm later). */
  confirmationRate: number;
}

/** The shortest time between two measurements, ms. */
export const MIN_MEASURE_MS = 1000;

export class V3NetworkMeter {
  private last: { ms: number } & BlockCountsV3;
  private figures: NetworkMetricsV3 = { blocksPerSecond: 0, confirmedBlocksPerSecond: 0, confirmationRate: 0 };

  /** `counts`: the counters now; `now`: the clock, ms. */
  constructor(
    private readonly counts: () => Readonly<BlockCountsV3>,
    private readonly now: () => number,
  ) {
    const c = counts();
    this.last = { ms: now(), attached: c.attached, confirmed: c.confirmed };
  }

  /** A measurement (at a slot commitment), unless less than a second passed since the previous one. */
  measure(): void {
    const ms = this.now();
    const elapsed = ms - this.last.ms;
    if (elapsed < MIN_MEASURE_MS) return;
    const c = this.counts();
    const blocks = c.attached - this.last.attached;
    const confirmed = c.confirmed - this.last.confirmed;
    const seconds = elapsed / 1000;
    this.figures = {
      blocksPerSecond: blocks / seconds,
      confirmedBlocksPerSecond: confirmed / seconds,
      confirmationRate: blocks > 0 ? (confirmed / blocks) * 100 : 0,
    };
    this.last = { ms, attached: c.attached, confirmed: c.confirmed };
  }

  /** The figures of the latest measurement. */
  get current(): NetworkMetricsV3 {
    return { ...this.figures };
  }
}
