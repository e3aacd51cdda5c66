/**
 * Small building blocks of the peer layer: a token bucket (the message-rate bound of a peer), a bounded seen-set of
 * block IDs (duplicate suppression, oldest forgotten first) and the reconnect backoff of a static peer.
 */

/** `rate` tokens per second, at most `burst` saved up; `take` fails when the bucket is empty. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly rate: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!(rate > 0) || !(burst >= 1))
      throw new Error(`token bucket needs rate > 0 and burst >= 1, got ${rate}/${burst}`);
    this.tokens = burst;
    this.last = now();
  }

  take(n = 1): boolean {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.rate);
    this.last = t;
    if (this.tokens < n) return false;
    this.tokens -= n;
    return true;
  }
}

/** A set of string keys that remembers at most `capacity` of them (insertion order; the oldest go first). */
export class SeenSet {
  private readonly keys = new Set<string>();

  constructor(readonly capacity: number) {
    if (!(capacity >= 1)) throw new Error(`seen-set capacity must be >= 1, got ${capacity}`);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Adds `key`; false when it was there already. */
  add(key: string): boolean {
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    if (this.keys.size > this.capacity) {
      const oldest = this.keys.values().next().value as string;
      this.keys.delete(oldest);
    }
    return true;
  }

  delete(key: string): void {
    this.keys.delete(key);
  }

  get size(): number {
    return this.keys.size;
  }
}

/** Exponential backoff with jitter: base, 2·base, 4·base ... capped at max; `reset` after a good connection. */
export class Backoff {
  private attempts = 0;

  constructor(
    readonly baseMs: number,
    readonly maxMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next attempt (and counts the attempt). Jitter: 75-100 % of the nominal delay. */
  next(): number {
    const nominal = Math.min(this.maxMs, this.baseMs * 2 ** Math.min(this.attempts, 30));
    this.attempts++;
    return Math.round(nominal * (0.75 + 0.25 * this.random()));
  }

  reset(): void {
    this.attempts = 0;
  }

  get failures(): number {
    return this.attempts;
  }
}
