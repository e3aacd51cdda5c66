/**
 * Pruning while the node serves (core pruning/, docs/decisions.md §27). Hornet's rules (`pkg/pruning`):
 *   * automatic, after a confirmed milestone while the node is synced: by milestones (`--prune-milestones N` keeps the
 *     last N confirmed milestones) and/or by size (`--prune-size SIZE`: when the store is larger, it is cut to 90% of
 *     the target by pruning the same share of the milestones it holds, at most once per cooldown);
 *   * on demand (TIP-25 `POST /control/database/prune`): to an index, by a depth below the confirmed milestone, or to a
 *     target size; answered once done (after a run under way: Hornet answers 503 then);
 *   * never above the confirmed index minus `belowMaxDepth + 5` (Hornet's minimum tangle history: what tip selection
 *     may still reach stays); one run at a time, and never during a snapshot (`exclusive`).
 * Each batch runs in the attach queue (between groups of blocks), so writes and confirmations go on between them. An
 * interrupted run (crash, stop) is finished on start. After the v2 deletions, what goes by time (`pruneByTime`: the v3
 * data older than the timestamp of the milestone at the pruning index) is pruned, on start too.
 */
import { LEDGER_META } from '../../core/ledger/index.ts';
import {
  pruneTo,
  pruningIndexOf,
  resumePruning,
  firstMilestoneIndex,
  type PruneProgress,
  type PruneRunner,
} from '../../core/pruning/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../support/errors.ts';
import { SerialJobs } from '../support/serial-jobs.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { Logger } from '../logger.ts';
import { formatSize, parseSize } from './size.ts';
import { quoteText } from '../../core/text.ts';

/** Hornet's `AdditionalPruningThreshold` / `SolidEntryPointCheckAdditionalThresholdPast`. */
export const EXTRA_HISTORY = 5;
/** Hornet's `pruning.size.thresholdPercentage` and `cooldownTime`. */
export const SIZE_THRESHOLD_PERCENT = 10;
export const SIZE_COOLDOWN_MS = 5 * 60 * 1000;

export interface PruningSettings {
  /** Keep the last N confirmed milestones (absent: no pruning by milestones). */
  keepMilestones?: number;
  /** Target store size in bytes (absent: no pruning by size). */
  targetSizeBytes?: number;
  sizeCooldownMs?: number;
}

export interface PrunerDeps {
  store: NodeStore;
  protocol: ProtocolState;
  /** Runs `fn` in the attach queue (no attach or confirmation meanwhile). */
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** Blocks deleted that no milestone referenced (the recent-blocks cache forgets them). */
  forget: (ids: Uint8Array[]) => void;
  synced: () => boolean;
  /** Bytes the store takes on disk (absent for a store without files: size pruning is refused). */
  databaseSize?: () => number;
  logger: Logger;
  now?: () => number;
  /** Told after a run that moved the pruning index (the stored-block filter drops what was pruned). */
  pruned?: () => Promise<unknown>;
  /** Tests: told after every committed batch; throwing there stops the run as a crash would. */
  afterBatch?: (p: Readonly<PruneProgress>) => void | Promise<void>;
  /**
   * After the v2 deletions reached the pruning index (a run, or the start that finishes one): prunes the data older
   * than the timestamp of the milestone at the index (the v3 engine's, in its own queue); `pace` after each of its
   * batches throws once the pruner stops and lets other work in.
   */
  pruneByTime?: (milestone: { index: number; timestamp: number }, pace: () => Promise<void>) => Promise<unknown>;
}

/** What `POST /control/database/prune` asks for (exactly one). */
export type PruneRequest = { index: number } | { depth: number } | { targetDatabaseSize: string };

class PruningStopped extends Error {}

export class Pruner {
  /** The runs and snapshots, one after the other, in the order asked. */
  private readonly jobs = new SerialJobs();
  private again = false;
  private stopped = false;
  private lastBySize = 0;
  private readonly now: () => number;

  constructor(
    private readonly deps: PrunerDeps,
    private readonly settings: PruningSettings = {},
  ) {
    this.now = deps.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.settings.keepMilestones !== undefined || this.settings.targetSizeBytes !== undefined;
  }

  /**
   * The highest index pruning may reach now (confirmed index minus belowMaxDepth + 5), or undefined without a ledger.
   */
  maxIndex(): number | undefined {
    const { protocol } = this.deps;
    if (!protocol.hasLedger) return undefined;
    return protocol.ledgerIndex - (protocol.current.belowMaxDepth + EXTRA_HISTORY);
  }

  /** Finishes a run a crash or a stop interrupted (in the background). */
  start(): void {
    if ((this.deps.protocol.pruningIndex ?? 0) === 0 && !this.enabled) return;
    void this.serial(async () => {
      if (await resumePruning(this.deps.store, this.runner()))
        this.deps.logger.info(`pruning: finished the interrupted run to milestone ${this.deps.protocol.pruningIndex}`);
      await this.pruneByTime();
    }).catch((e: unknown) => this.failed(e));
  }

  /**
   * After each confirmed milestone: prunes when the settings ask for it (in the background, one run at a time; a
   * milestone confirmed during a run is looked at again when it ends).
   */
  confirmed(): void {
    if (!this.enabled || this.stopped || !this.deps.synced()) return;
    if (this.jobs.size > 0) {
      this.again = true;
      return;
    }
    void this.serial(async () => {
      do {
        this.again = false;
        const target = this.autoTarget();
        if (target !== undefined && target > (this.deps.protocol.pruningIndex ?? 0)) await this.run(target);
      } while (this.again && !this.stopped);
    }).catch((e: unknown) => this.failed(e));
  }

  /** On demand (after a run or snapshot under way); resolves with the pruning index reached. */
  prune(request: PruneRequest): Promise<number> {
    return this.serial(() => this.pruneNow(request));
  }

  private async pruneNow(request: PruneRequest): Promise<number> {
    const max = this.maxIndex();
    if (max === undefined) throw new NodeError('UNAVAILABLE', 'this node holds no ledger: nothing to prune');
    let target: number;
    if ('index' in request) target = request.index;
    else if ('depth' in request) target = this.deps.protocol.ledgerIndex - request.depth;
    else {
      const bytes = parseSize(request.targetDatabaseSize);
      if (bytes === undefined)
        throw new NodeError(
          'INVALID_REQUEST',
          `invalid targetDatabaseSize ${quoteText(request.targetDatabaseSize)}: expected a size like 30GB`,
        );
      const bySize = this.sizeTarget(bytes);
      if (bySize === undefined)
        throw new NodeError(
          'INVALID_REQUEST',
          this.deps.databaseSize
            ? `no pruning needed: the database is smaller than ${formatSize(bytes)}`
            : 'this store has no size on disk',
        );
      target = bySize;
    }
    target = Math.min(target, max);
    const current = this.deps.protocol.pruningIndex ?? (await firstMilestoneIndex(this.deps.store)) ?? 0;
    if (target <= current || target < 1) {
      throw new NodeError(
        'INVALID_REQUEST',
        `no pruning needed: the pruning index is ${current}, the target ${target} (at most the ` +
          `confirmed milestone ${this.deps.protocol.ledgerIndex} minus ${this.deps.protocol.ledgerIndex - max})`,
      );
    }
    return this.run(target);
  }

  /** Runs `fn` once no pruning is under way, with none starting meanwhile (snapshots). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.serial(fn);
  }

  /** Resolves once no job is under way or waiting (tests; a run that failed is logged, not thrown here). */
  idle(): Promise<void> {
    return this.jobs.idle();
  }

  /** Ends a run under way at its next batch (it is finished on the next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    return this.jobs.run(fn);
  }

  private autoTarget(): number | undefined {
    const { keepMilestones, targetSizeBytes, sizeCooldownMs } = this.settings;
    let target = keepMilestones !== undefined ? this.deps.protocol.ledgerIndex - keepMilestones : undefined;
    if (targetSizeBytes !== undefined && this.now() - this.lastBySize >= (sizeCooldownMs ?? SIZE_COOLDOWN_MS)) {
      const bySize = this.sizeTarget(targetSizeBytes);
      if (bySize !== undefined && (target === undefined || bySize > target)) {
        target = bySize;
        this.lastBySize = this.now();
      }
    }
    const max = this.maxIndex();
    return target === undefined || max === undefined ? undefined : Math.min(target, max);
  }

  /** Hornet's `calcTargetIndexBySize`: the index that leaves (100 - threshold)% of the target size, or undefined. */
  private sizeTarget(targetBytes: number): number | undefined {
    const size = this.deps.databaseSize?.();
    if (size === undefined || size < targetBytes) return undefined;
    const cmi = this.deps.protocol.ledgerIndex;
    const range = cmi - (this.deps.protocol.pruningIndex ?? 0);
    const share = (targetBytes * (100 - SIZE_THRESHOLD_PERCENT)) / 100 / size;
    return cmi - Math.ceil(range * share);
  }

  private async run(target: number): Promise<number> {
    const { store, logger } = this.deps;
    const from = ((await pruningIndexOf(store)) ?? (await firstMilestoneIndex(store)) ?? 0) + 1;
    const started = this.now();
    let last: PruneProgress | undefined;
    const runner = this.runner((p) => (last = { ...p }));
    try {
      const reached = await pruneTo(store, target, runner);
      await this.pruneByTime();
      const size = this.deps.databaseSize ? `, store ${formatSize(this.deps.databaseSize())}` : '';
      logger.info(
        `pruning: milestones ${from}..${reached} pruned (${last?.blocks ?? 0} blocks, ${last?.outputs ?? 0} ` +
          `spent outputs, ${last?.batches ?? 0} batches) in ${this.now() - started} ms; ` +
          `pruning index ${reached}${size}`,
      );
      if (reached >= from) await this.deps.pruned?.().catch((e: unknown) => logger.error('pruning: after the run', e));
      return reached;
    } catch (e) {
      if (e instanceof PruningStopped) {
        logger.info(
          `pruning: stopped at milestone ${last?.milestone ?? from} of ${target}; the next start finishes it`,
        );
        return this.deps.protocol.pruningIndex ?? 0;
      }
      throw e;
    }
  }

  /** `pruneByTime` to the milestone of a finished pruning state. */
  private async pruneByTime(): Promise<void> {
    const state = this.deps.pruneByTime && (await this.deps.store.getMeta(LEDGER_META.pruning));
    if (!state || state.done < state.index) return;
    await this.deps.pruneByTime!({ index: state.index, timestamp: state.milestone.timestamp }, async () => {
      if (this.stopped) throw new PruningStopped('stopped');
      await new Promise<void>((resolve) => setImmediate(resolve));
    });
  }

  private runner(progress?: (p: Readonly<PruneProgress>) => void): PruneRunner {
    const { protocol, exclusive, forget } = this.deps;
    return {
      exclusive,
      entryPointsChanged: () => protocol.refresh(),
      forget,
      afterBatch: async (p) => {
        progress?.(p);
        if (this.stopped) throw new PruningStopped('stopped');
        await this.deps.afterBatch?.(p);
        // Let the node's other work (reads, the next group of blocks) in between batches.
        await new Promise<void>((resolve) => setImmediate(resolve));
      },
    };
  }

  private failed(e: unknown): void {
    this.deps.logger.error('pruning failed', e);
  }
}
