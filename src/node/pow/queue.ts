/**
 * Remote proof of work with bounded concurrency (docs/protocol.md §N10: Hornet mines per request without limit).
 * The miner runs one job at a time on all its workers; at most `limit` jobs may be admitted (running or waiting).
 * One more is refused at once with POW_QUEUE_FULL (RESOURCE_EXHAUSTED, 503 + Retry-After), the hint being the
 * expected time until a slot frees up, from the average duration of recent jobs.
 */
import type { MineInput, Miner } from './miner.ts';
import { NodeError } from '../support/errors.ts';
import type { PowOutcome } from '../metrics/metrics.ts';

export interface PowQueue {
  readonly workers: number;
  /** Jobs admitted and not finished. */
  readonly pending: number;
  readonly limit: number;
  /** The nonce that gives `input` (block bytes without the nonce) `targetScore`; rejects when aborted or full. */
  mine(input: MineInput, targetScore: number, signal: AbortSignal): Promise<bigint>;
  close(): Promise<void>;
}

/** The part of the miner the queue uses (a test may pass its own). */
export type MinerLike = Pick<Miner, 'workers' | 'mine' | 'close'>;

/** `observe` is told how each job ended, its seconds and hashes (the metrics port). */
export function createPowQueue(
  miner: MinerLike,
  options: { limit: number; observe?: (outcome: PowOutcome, seconds: number, hashes: number) => void },
): PowQueue {
  const observe = options.observe ?? (() => undefined);
  const limit = options.limit;
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`Cannot create PoW queue: limit ${limit} is not a positive integer`);
  let pending = 0;
  let averageMs = 1000; // a cautious start; replaced by measurements
  return {
    workers: miner.workers,
    limit,
    get pending() {
      return pending;
    },
    async mine(input, targetScore, signal) {
      if (pending >= limit) {
        const retryAfterSeconds = Math.max(1, Math.ceil((averageMs * pending) / limit / 1000));
        observe('refused', 0, 0);
        throw new NodeError(
          'POW_QUEUE_FULL',
          `proof of work queue is full (${pending} of ${limit} jobs); retry in ${retryAfterSeconds} s`,
          { retryAfterSeconds },
        );
      }
      pending++;
      const t0 = performance.now();
      try {
        const result = await miner.mine(input, targetScore, signal);
        const ms = performance.now() - t0;
        averageMs = 0.8 * averageMs + 0.2 * ms;
        observe('mined', ms / 1000, result.hashes);
        return result.nonce;
      } catch (e) {
        observe(signal.aborted ? 'aborted' : 'failed', (performance.now() - t0) / 1000, 0);
        throw e;
      } finally {
        pending--;
      }
    },
    close: () => miner.close(),
  };
}
