/** Blocks per second over a sliding window: one counter per second, the window's sum divided by its length. */
export class RateMeter {
  private readonly buckets: number[];
  private readonly seconds: number[];
  private readonly now: () => number;

  /** `windowSeconds` full seconds are averaged (the current, unfinished second is not counted). */
  constructor(readonly windowSeconds = 10, now: () => number = Date.now) {
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1) throw new RangeError(`RateMeter: windowSeconds must be a positive integer, got ${windowSeconds}`);
    this.buckets = new Array<number>(windowSeconds + 1).fill(0);
    this.seconds = new Array<number>(windowSeconds + 1).fill(-1);
    this.now = now;
  }

  /** Counts `n` events now. */
  mark(n = 1): void {
    const s = Math.floor(this.now() / 1000);
    const i = s % this.buckets.length;
    if (this.seconds[i] !== s) {
      this.seconds[i] = s;
      this.buckets[i] = 0;
    }
    this.buckets[i]! += n;
  }

  /** Events per second over the last `windowSeconds` finished seconds. */
  rate(): number {
    const current = Math.floor(this.now() / 1000);
    let sum = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      const s = this.seconds[i]!;
      if (s < current && s >= current - this.windowSeconds) sum += this.buckets[i]!;
    }
    return sum / this.windowSeconds;
  }
}
