/**
 * Per-client request rate limit: one token bucket per client IP address (the socket's peer address; a proxy's
 * X-Forwarded-For is not trusted). A bucket holds up to `burst` tokens and refills at `requestsPerSecond`; a
 * request takes one token, and without one it is answered 429 with `Retry-After` (whole seconds until the next
 * token) and the JSON error body, before access checks, body reading or any node call.
 *
 * Loopback clients (127.0.0.0/8, ::1, ::ffff:127.x) are exempt by default, so local tools, the in-process node's
 * own checks and tests are never throttled; `limitLoopback: true` limits them too. Off unless configured (Hornet's
 * core API has no rate limit).
 */
import type { Middleware } from 'koa';
import { HttpProblem } from './errors.ts';

export interface RateLimitOptions {
  /** Sustained requests per second per client (> 0). */
  requestsPerSecond: number;
  /** Requests a client may make at once after being idle; `max(1, ceil(requestsPerSecond))` by default. */
  burst?: number;
  /** Limit loopback clients as well (default false: loopback is exempt). */
  limitLoopback?: boolean;
  /** Clients remembered at most; idle (full) buckets are dropped first. 100 000 by default. */
  maxClients?: number;
  /** Clock in milliseconds (tests). */
  now?: () => number;
}

export const DEFAULT_MAX_CLIENTS = 100_000;

interface Bucket {
  tokens: number;
  at: number;
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.toLowerCase();
  return a === '::1' || a.startsWith('127.') || a.startsWith('::ffff:127.');
}

/** Checks the options; throws a RangeError naming the bad one. */
export function checkRateLimitOptions(o: RateLimitOptions): void {
  if (!(Number.isFinite(o.requestsPerSecond) && o.requestsPerSecond > 0)) {
    throw new RangeError(`rate limit: requestsPerSecond must be a positive number, got ${o.requestsPerSecond}`);
  }
  if (o.burst !== undefined && !(Number.isInteger(o.burst) && o.burst >= 1))
    throw new RangeError(`rate limit: burst must be an integer >= 1, got ${o.burst}`);
  if (o.maxClients !== undefined && !(Number.isInteger(o.maxClients) && o.maxClients >= 1)) {
    throw new RangeError(`rate limit: maxClients must be an integer >= 1, got ${o.maxClients}`);
  }
}

/** The token buckets, apart from Koa so they can be tested alone. */
export class RateLimiter {
  readonly rate: number;
  readonly burst: number;
  private readonly maxClients: number;
  private readonly now: () => number;
  private readonly buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions) {
    checkRateLimitOptions(options);
    this.rate = options.requestsPerSecond;
    this.burst = options.burst ?? Math.max(1, Math.ceil(options.requestsPerSecond));
    this.maxClients = options.maxClients ?? DEFAULT_MAX_CLIENTS;
    this.now = options.now ?? Date.now;
  }

  get clients(): number {
    return this.buckets.size;
  }

  private refill(b: Bucket, now: number): void {
    if (now > b.at) {
      b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) / 1000) * this.rate);
      b.at = now;
    }
  }

  /** Takes a token for `client`: 0 when granted, else the whole seconds (>= 1) until a token is there. */
  take(client: string): number {
    const now = this.now();
    let b = this.buckets.get(client);
    if (b === undefined) {
      if (this.buckets.size >= this.maxClients) this.evict(now);
      b = { tokens: this.burst, at: now };
      this.buckets.set(client, b);
    } else {
      this.refill(b, now);
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.rate));
  }

  /** Drops full buckets (forgetting them changes nothing); if none is full, the oldest half. */
  private evict(now: number): void {
    for (const [k, b] of this.buckets) {
      this.refill(b, now);
      if (b.tokens >= this.burst) this.buckets.delete(k);
    }
    if (this.buckets.size >= this.maxClients) {
      let drop = Math.ceil(this.buckets.size / 2);
      for (const k of this.buckets.keys()) {
        if (drop-- <= 0) break;
        this.buckets.delete(k);
      }
    }
  }
}

/** The Koa middleware; the HttpProblem it throws is rendered by the error middleware. */
export function rateLimit(options: RateLimitOptions): Middleware {
  const limiter = new RateLimiter(options);
  const limitLoopback = options.limitLoopback === true;
  return async (ctx, next) => {
    const client = ctx.req.socket.remoteAddress;
    if (client !== undefined && (limitLoopback || !isLoopback(client))) {
      const wait = limiter.take(client);
      if (wait > 0) {
        throw new HttpProblem(
          429,
          `rate limit of ${limiter.rate} requests per second (burst ${limiter.burst}) exceeded, retry in ${wait} s`,
          {
            'Retry-After': String(wait),
          },
        );
      }
    }
    await next();
  };
}
