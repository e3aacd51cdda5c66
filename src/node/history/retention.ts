/**
 * The explorer history's own retention while the node runs (core ledger/history/prune.ts, docs/explorer.md):
 * `--history-milestones N` keeps the history of the last N confirmed milestones. After each confirmation the history
 * below `ledger index - N + 1` is dropped in the background, one run at a time (a confirmation during a run is looked
 * at again when it ends); a run interrupted by a stop or a crash is finished on the next start. Its setting is
 * independent of block pruning's (pruning/pruner.ts), but its runs take turns with block pruning's (`exclusive`, the
 * pruner's): block pruning writes history entries for the blocks it deletes while the history covers their
 * milestone, and must not do so while a run drops that milestone. Confirmations need no lock: a run deletes only
 * entries of milestones at or below its target, which no confirmation writes, and leaves the aggregates alone.
 */
import { historyRange, pruneHistory, resumeHistoryPruning } from '../../core/ledger/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import type { Logger } from '../logger.ts';
import { SerialJobs } from '../support/serial-jobs.ts';

class RetentionStopped extends Error {}

export class HistoryRetention {
  private readonly jobs = new SerialJobs();
  private running = false;
  private again = false;
  private stopped = false;

  constructor(
    private readonly store: NodeStore,
    private readonly logger: Logger,
    /** Milestones of history kept (undefined: all). */
    readonly keepMilestones: number | undefined,
    /** Runs `fn` with no block pruning under way (the pruner's `exclusive`). */
    private readonly exclusive: <T>(fn: () => Promise<T>) => Promise<T> = (fn) => fn(),
  ) {}

  /** Finishes an interrupted run, then bounds the history to the setting (in the background). */
  start(): void {
    this.schedule(async () => {
      const resumed = await this.exclusive(() => resumeHistoryPruning(this.store));
      if (resumed)
        this.logger.info(
          `history: finished an interrupted retention run (${resumed.milestones} milestones, ` +
            `${resumed.blocks} blocks, ${resumed.updates} ledger updates)`,
        );
    });
    this.confirmed();
  }

  /** After each confirmed milestone: drops what the setting no longer keeps. */
  confirmed(): void {
    if (this.keepMilestones === undefined || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.schedule(async () => {
      try {
        do {
          this.again = false;
          await this.run(this.keepMilestones!);
        } while (this.again && !this.stopped);
      } finally {
        this.running = false;
      }
    });
  }

  /** Resolves once no run is under way (tests). */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  /** Ends a run under way at its next batch (the next start finishes it). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private schedule(fn: () => Promise<void>): void {
    void this.jobs.run(fn).catch((e: unknown) => {
      if (!(e instanceof RetentionStopped)) this.logger.error('history: retention failed', e);
    });
  }

  private async run(keep: number): Promise<void> {
    const range = await historyRange(this.store);
    if (range === undefined) return;
    const target = range.ledgerIndex - keep;
    if (target < range.start) return;
    const started = Date.now();
    const done = await this.exclusive(() =>
      pruneHistory(this.store, target, {
        afterBatch: async () => {
          if (this.stopped) throw new RetentionStopped('stopped');
          // Let the node's other work in between batches.
          await new Promise<void>((resolve) => setImmediate(resolve));
        },
      }),
    );
    const what = `${done.milestones} milestones, ${done.blocks} blocks, ${done.updates} ledger updates`;
    if (done.milestones > 1 || Date.now() - started > 1000)
      this.logger.info(`history: kept from milestone ${target + 1} on (${what} dropped in ${Date.now() - started} ms)`);
  }
}
