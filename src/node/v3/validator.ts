/**
 * The dev network's built-in validator: every `intervalMs` it issues one signed validation block per committee seat
 * whose seed the genesis holds, over the current v3 tips, whatever the load, as iota-core's validators issue theirs
 * every `committeeBroadcastInterval`. So the newest tip is never older than one interval, also on an idle network (a
 * client refuses to build on tips issued 5 minutes or more from its clock: iota-sdk's `timeNotSynced`), and an idle
 * network grows by one block per seat per interval, which pruning removes with the other confirmed blocks. Two
 * rounds confirm a user block: the first accepts it, the second ratifies the acceptance.
 */
import type { Logger } from '../logger.ts';
import type { V3Engine } from './engine.ts';

export interface ValidatorHandle {
  stop(): Promise<void>;
}

/**
 * Calls `round` every `ms` until the returned function cancels it. The default is a timer that does not keep the
 * process alive; tests pass their own to drive rounds one by one against a test clock.
 */
export type ValidatorTimer = (round: () => Promise<void>, ms: number) => () => void;

const realTimer: ValidatorTimer = (round, ms) => {
  const timer = setInterval(() => void round(), ms);
  timer.unref?.();
  return () => clearInterval(timer);
};

export function startValidator(
  engine: V3Engine,
  options: { intervalMs: number; logger: Logger; timer?: ValidatorTimer },
): ValidatorHandle {
  if (engine.validatorSeats.length === 0 || options.intervalMs <= 0) return { stop: async () => {} };
  let running: Promise<void> | undefined;
  let stopped = false;
  // A round still running when the next one is due makes that one skip: rounds never pile up.
  const round = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= engine
      .issueValidationBlocks()
      .then(
        () => undefined,
        (e: unknown) => options.logger.error('v3 validator: issuing a validation block failed', e),
      )
      .finally(() => (running = undefined));
    return running;
  };
  const cancel = (options.timer ?? realTimer)(round, options.intervalMs);
  return {
    async stop() {
      stopped = true;
      cancel();
      await running;
    },
  };
}
