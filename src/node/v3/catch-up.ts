/**
 * Committing the slots of a long stop in chunks (docs/decisions.md §46). A node stopped for longer than
 * maxCommittableAge slots (or whose clock stepped that far) commits every slot up to the clock before it can accept a
 * block again (commitments.ts: the forced commits, empty slots too): a day of one-second slots is 86,400 commitments,
 * about 31 MB written in 338 synced batches. Done in one go that held the engine's queue for the whole time (8-15 s a
 * day of gap on a 2-core box, 60-100 s for a week, at start-up before the node served anything), and a clock far
 * ahead had no bound at all. So a turn of the engine's queue (its open, a read, a submission, a validator round)
 * commits at most CATCH_UP_SLOTS slots, and while slots are left turns of its own commit the rest, CHUNK_SLOTS at a
 * time, one queued at a time behind the work waiting. Meanwhile reads are answered from the commitments made so far,
 * a submission is refused with 503 (its block could name no commitment young enough: the latest one is too old for a
 * block of the clock's slot), the validator skips its rounds, and `/api/core/v3/info` reports `isHealthy: false`.
 */
import { NodeError } from '../support/errors.ts';
import type { V3Commitments } from './commitments.ts';
import type { V3Dag } from './dag.ts';
import type { V3Ledger } from './ledger.ts';

/**
 * Slots a turn of the engine's queue commits at most when it finds them committable (4 store batches of commitments.ts
 * COMMIT_BATCH, 50-120 ms on a loaded 2-core box): a stop of up to 17 minutes of one-second slots, caught up at once.
 */
export const CATCH_UP_SLOTS = 1024;
/** Slots a turn of its own commits while more are left (one store batch: 13-30 ms on that box). */
export const CHUNK_SLOTS = 256;

export class V3CatchUp {
  /** A turn of its own is queued or running. */
  private scheduled = false;
  /** The turn running is its own. */
  private own = false;
  private stopped = false;
  private left = 0;

  /**
   * `inQueue` runs a function in a turn of the engine's queue (after the engine commits: its `read`); `commit` is the
   * engine's commit (its `commitSlots`, which stops the engine on a store failure), called in that turn.
   */
  constructor(
    private readonly engine: {
      inQueue: (fn: () => Promise<void>) => Promise<unknown>;
      commit: () => Promise<void>;
    },
  ) {}

  /**
   * Commits up to CATCH_UP_SLOTS of the committable slots, or CHUNK_SLOTS in a turn of its own; while those turns
   * commit a long stop's slots, the other turns commit nothing (their reads answer from what is committed so far).
   */
  async step(commitments: V3Commitments, nowNs: bigint, dag: V3Dag, ledger: V3Ledger): Promise<void> {
    if (this.scheduled && !this.own) return;
    await commitments.catchUp(nowNs, dag, ledger, this.own ? CHUNK_SLOTS : CATCH_UP_SLOTS);
    this.left = commitments.behind;
    this.schedule();
  }

  /** One turn of its own: the engine's commit, with `step` knowing the turn is its own. */
  private ownTurn(): Promise<unknown> {
    return this.engine.inQueue(async () => {
      this.own = true;
      try {
        await this.engine.commit();
      } finally {
        this.own = false;
      }
    });
  }

  /**
   * Queues a turn of its own while slots are left, one at a time: the next once it ended, after the work queued
   * meanwhile (setImmediate: after the I/O callbacks that queue reads and submissions).
   */
  private schedule(): void {
    if (this.left === 0 || this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      if (this.stopped) return;
      void this.ownTurn()
        // a failure stops the engine (its commitSlots) and every later call says so: no more turns then
        .catch(() => this.stop())
        .finally(() => {
          this.scheduled = false;
          this.schedule();
        });
    });
  }

  /** Committable slots not committed yet (0 once caught up). */
  get behind(): number {
    return this.left;
  }

  /** Resolves once no committable slot is left (turns of its own until then; tests, benchmarks). */
  async done(): Promise<void> {
    do await this.ownTurn();
    while (this.left > 0);
  }

  /** A submission while slots are left: UNAVAILABLE (503), saying why and when to come back. */
  assertCaughtUp(): void {
    if (this.left > 0)
      throw new NodeError(
        'UNAVAILABLE',
        `the v3 part is committing the slots it was stopped for (${this.left} left): no block can name a ` +
          'commitment young enough yet; submit again once /api/core/v3/info reports isHealthy',
      );
  }

  /** No more turns of its own (the node stops; what is left is committed on the next start). */
  stop(): void {
    this.stopped = true;
  }
}
