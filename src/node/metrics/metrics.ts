/**
 * The node's metrics port: what its parts report (`MetricsPort`, fed by the composition root from narrow hooks of the
 * intake, the attacher, the milestone processor, the PoW queue and the gRPC adapter) and the figures derived from it
 * that the node answers itself: the rates of GET /info (Hornet's confirmed-milestone metric) and the dashboard's
 * per-second series and last milestones. No exporter here: prometheus/ counts the same reports for /metrics.
 */

/** Where a v2 block came from: a client (REST or gRPC SubmitBlock), a peer, or this node's coordinator. */
export type BlockSource = 'client' | 'peer' | 'coordinator';
/** What the intake made of it: stored (solid or not), already held, or refused as invalid. */
export type BlockOutcome = 'stored' | 'unsolid' | 'duplicate' | 'invalid';
export const BLOCK_SOURCES: readonly BlockSource[] = ['client', 'peer', 'coordinator'];
export const BLOCK_OUTCOMES: readonly BlockOutcome[] = ['stored', 'unsolid', 'duplicate', 'invalid'];

/** How a proof-of-work job ended: a nonce found, refused (queue full), aborted (client gone) or failed. */
export type PowOutcome = 'mined' | 'refused' | 'aborted' | 'failed';

/** One confirmed milestone, as the metrics see it. */
export interface ConfirmedMilestone {
  index: number;
  /** Seconds since the Unix epoch (the milestone payload's timestamp). */
  timestamp: number;
  milestoneId: Uint8Array;
  blockId: Uint8Array;
  /** Blocks the milestone referenced (its White-Flag cone; the previous milestone's block included). */
  referencedBlocks: number;
  includedTransactions: number;
  /** The TIP-20 conflict reason of each conflicting transaction. */
  conflicts: readonly number[];
  /** Milliseconds the node took to confirm it (cone walk, White-Flag, ledger batch). */
  ms: number;
}

/** What the node's parts report. */
export interface MetricsPort {
  blockReceived(source: BlockSource, outcome: BlockOutcome): void;
  /** A block was stored without its past cone (`solidified` follows when it arrives). */
  unsolidStored(blockId: Uint8Array): void;
  solidified(blockId: Uint8Array): void;
  milestoneConfirmed(m: ConfirmedMilestone): void;
  powJob(outcome: PowOutcome, seconds: number, hashes: number): void;
  /** A NodeService call answered: its method, gRPC status name and transport ('grpc' or 'in-process'). */
  grpcCall(method: string, code: string, transport: string, seconds: number): void;
}

/** Blocks per second over a sliding window: one counter per second, the window's sum divided by its length. */
export class RateMeter {
  private readonly buckets: number[];
  private readonly seconds: number[];
  private readonly now: () => number;

  /** `windowSeconds` full seconds are averaged (the current, unfinished second is not counted). */
  constructor(
    readonly windowSeconds = 10,
    now: () => number = Date.now,
  ) {
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
      throw new RangeError(`RateMeter: windowSeconds must be a positive integer, got ${windowSeconds}`);
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

/** The rates of GET /info. */
export interface MilestoneRates {
  blocksPerSecond: number;
  referencedBlocksPerSecond: number;
  /** Referenced blocks per new block, in percent. */
  referencedRate: number;
}

/**
 * Hornet's confirmed-milestone metric (its tangle's calcConfirmedMilestoneMetric): at each confirmation, the new and
 * the referenced blocks counted since the previous confirmation, divided by the seconds between the two milestones'
 * timestamps; the referenced rate is referenced / new in percent. The figures hold until the next confirmation; a
 * milestone with the previous one's timestamp leaves them as they were (Hornet: division by zero).
 */
export class ConfirmedMilestoneRates {
  private lastNew = 0;
  private lastReferenced = 0;
  private lastTimestamp: number | undefined;
  private rates: MilestoneRates = { blocksPerSecond: 0, referencedBlocksPerSecond: 0, referencedRate: 0 };

  /** The totals so far and the confirmed milestone's timestamp (seconds); returns the rates now in force. */
  confirmed(newBlocks: number, referencedBlocks: number, timestamp: number): MilestoneRates {
    const seconds = this.lastTimestamp === undefined ? 0 : timestamp - this.lastTimestamp;
    if (this.lastTimestamp === undefined || seconds > 0) {
      if (seconds > 0) {
        const fresh = newBlocks - this.lastNew;
        const referenced = referencedBlocks - this.lastReferenced;
        this.rates = {
          blocksPerSecond: fresh / seconds,
          referencedBlocksPerSecond: referenced / seconds,
          referencedRate: fresh > 0 ? (referenced / fresh) * 100 : 0,
        };
      }
      this.lastNew = newBlocks;
      this.lastReferenced = referencedBlocks;
      this.lastTimestamp = timestamp;
    }
    return this.current;
  }

  get current(): MilestoneRates {
    return { ...this.rates };
  }
}

/**
 * One second of the dashboard's chart: blocks stored in it, and the referenced blocks/s of a milestone confirmed in it.
 */
export interface SecondSample {
  /** Seconds since the Unix epoch. */
  t: number;
  blocks: number;
  referencedPerSecond: number | null;
}

/**
 * The last `windowSeconds` seconds since the series began, one sample each (a ring; seconds without events are zero,
 * or null for milestones).
 */
export class SecondSeries {
  private readonly blocks: number[];
  private readonly referenced: (number | null)[];
  private readonly seconds: number[];
  private readonly since: number;

  constructor(
    readonly windowSeconds = 600,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(windowSeconds) || windowSeconds < 1)
      throw new RangeError(`SecondSeries: windowSeconds must be a positive integer, got ${windowSeconds}`);
    this.blocks = new Array<number>(windowSeconds + 1).fill(0);
    this.referenced = new Array<number | null>(windowSeconds + 1).fill(null);
    this.seconds = new Array<number>(windowSeconds + 1).fill(-1);
    this.since = Math.floor(now() / 1000);
  }

  markBlocks(n = 1): void {
    this.blocks[this.slot()]! += n;
  }

  markMilestone(referencedPerSecond: number): void {
    this.referenced[this.slot()] = referencedPerSecond;
  }

  /** The finished seconds of the window (none before the series began), oldest first; the current one still counts. */
  samples(): SecondSample[] {
    const current = Math.floor(this.now() / 1000);
    const out: SecondSample[] = [];
    for (let t = Math.max(current - this.windowSeconds, this.since); t < current; t++) {
      const i = t % this.seconds.length;
      const held = this.seconds[i] === t;
      out.push({ t, blocks: held ? this.blocks[i]! : 0, referencedPerSecond: held ? this.referenced[i]! : null });
    }
    return out;
  }

  private slot(): number {
    const s = Math.floor(this.now() / 1000);
    const i = s % this.seconds.length;
    if (this.seconds[i] !== s) {
      this.seconds[i] = s;
      this.blocks[i] = 0;
      this.referenced[i] = null;
    }
    return i;
  }
}

/** A confirmed milestone as the dashboard lists it: the metrics' figures, conflicts counted. */
export interface MilestoneSummary
  extends Pick<
    ConfirmedMilestone,
    'index' | 'timestamp' | 'milestoneId' | 'blockId' | 'referencedBlocks' | 'includedTransactions'
  > {
  conflictingTransactions: number;
  confirmationMs: number;
  /** When this node confirmed it (ms since the Unix epoch). */
  confirmedAt: number;
}

/** The last `capacity` confirmed milestones, newest first. */
export class RecentMilestones {
  private readonly list: MilestoneSummary[] = [];

  constructor(readonly capacity = 20) {}

  add(m: MilestoneSummary): void {
    this.list.unshift(m);
    if (this.list.length > this.capacity) this.list.pop();
  }

  all(): MilestoneSummary[] {
    return this.list.map((m) => ({ ...m }));
  }
}
