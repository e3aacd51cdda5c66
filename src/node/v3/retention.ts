/**
 * The v3 retention (docs/decisions.md §46; `--prune-v3-epochs N`): the node keeps the confirmed v3 blocks of the
 * epoch of its latest commitment and of the N epochs before it, and prunes older ones in the background
 * (pruning.ts, the same run as the v2-driven pruning: blocks, states, tips, slot index and attachment entries, the
 * records of the transactions they included and the outputs those spent, the slots' roots; every commitment stays),
 * whether the v2 pruning runs or not. As iota-core's `database.pruningThreshold` (30 epochs by default), whole epochs:
 * the boundary moves once an epoch, to the first slot of the epoch N before the latest commitment's, so a run starts
 * once an epoch (every 8,192 slots: 2 h 16 min with the dev network's one-second slots, 22.8 h with ten-second ones)
 * and the store holds N to N + 1 epochs of blocks. 0 turns it off (v3 data then goes only with the v2 pruning).
 *
 * A check every `intervalMs` (a timer that does not keep the process alive) starts a run when the boundary moved;
 * one run at a time, each batch in the engine's queue with other work let in between batches; stop() ends a run at
 * its next batch, and the next run (or start) finishes it.
 */
import { epochFromSlot, epochStartSlot, type ProtocolParametersV3 } from '../../core/v3/index.ts';
import type { Logger } from '../logger.ts';
import type { V3Engine } from './engine.ts';
import type { PruningRecordV3 } from './tables.ts';
import type { ValidatorTimer } from './validator.ts';

/** iota-core's default `database.pruningThreshold`: 30 epochs (68 h on the dev network, 28 days with 10-s slots). */
export const DEFAULT_V3_RETENTION_EPOCHS = 30;
/** How often the retention looks whether the boundary moved (a run starts only once an epoch). */
export const V3_RETENTION_CHECK_MS = 60_000;

export interface RetentionHandle {
  stop(): Promise<void>;
}

/**
 * The boundary the retention of `epochs` epochs asks for with the latest commitment at `latestCommittedSlot`: the
 * first slot of the epoch `epochs` before that slot's; undefined when nothing is older, or when `current` (the
 * pruning record) is already there or beyond.
 */
export function retentionTargetV3(
  latestCommittedSlot: number,
  epochs: number,
  params: ProtocolParametersV3,
  current?: Readonly<PruningRecordV3>,
): PruningRecordV3 | undefined {
  const epoch = epochFromSlot(latestCommittedSlot, params) - epochs;
  if (epoch <= 0) return undefined;
  const slot = epochStartSlot(epoch, params);
  return current !== undefined && current.slot >= slot ? undefined : { slot, keptEpochs: epochs };
}

class Stopped extends Error {}

const realTimer: ValidatorTimer = (check, ms) => {
  const timer = setInterval(() => void check(), ms);
  timer.unref?.();
  return () => clearInterval(timer);
};

/** Starts the retention of `epochs` epochs (0: off), a first check at once. */
export function startV3Retention(
  engine: V3Engine,
  options: { epochs: number; logger: Logger; intervalMs?: number; timer?: ValidatorTimer },
): RetentionHandle {
  const { epochs, logger } = options;
  if (epochs <= 0) return { stop: async () => {} };
  let running: Promise<void> | undefined;
  let stopped = false;
  const pace = async (): Promise<void> => {
    if (stopped) throw new Stopped();
    // let the node's other work (reads, submissions, validation rounds) in between batches
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
  const run = async (): Promise<void> => {
    const target = retentionTargetV3(engine.latestCommitment.commitment.slot, epochs, engine.params, engine.pruned);
    if (target === undefined) return;
    const started = Date.now();
    const p = await engine.prune(target, { afterBatch: pace });
    logger.info(
      `v3 retention: blocks of the slots before ${p.slot} pruned (${p.blocks} blocks, ${p.transactions} ` +
        `transactions, ${p.outputs} spent outputs, ${p.batches} batches) in ${Date.now() - started} ms`,
    );
  };
  // A check due while a run goes on is skipped: runs never pile up.
  const check = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= run()
      .catch((e: unknown) => {
        if (e instanceof Stopped) logger.info('v3 retention: run stopped; the next one finishes it');
        else logger.error('v3 retention: pruning failed', e);
      })
      .finally(() => (running = undefined));
    return running;
  };
  const cancel = (options.timer ?? realTimer)(check, options.intervalMs ?? V3_RETENTION_CHECK_MS);
  void check();
  return {
    async stop() {
      stopped = true;
      cancel();
      await running;
    },
  };
}
