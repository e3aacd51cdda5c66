/**
 * The dev network's built-in validator: every `intervalMs` it issues one signed validation block per committee
 * seat whose seed the genesis holds, over the current v3 tips, while user blocks wait for confirmation (an idle
 * network gets no blocks). Two rounds confirm a block: the first accepts it, the second ratifies the acceptance.
 */
import type { Logger } from '../logger.ts';
import type { V3Engine } from './engine.ts';

export interface ValidatorHandle {
  stop(): Promise<void>;
}

export function startValidator(engine: V3Engine, options: { intervalMs: number; logger: Logger }): ValidatorHandle {
  if (engine.validatorSeats.length === 0 || options.intervalMs <= 0) return { stop: async () => {} };
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const timer = setInterval(() => {
    if (running || stopped || !engine.hasUnconfirmedBlocks) return;
    running = engine
      .issueValidationBlocks()
      .catch((e: unknown) => options.logger.error('v3 validator: issuing a validation block failed', e))
      .finally(() => (running = undefined));
  }, options.intervalMs);
  timer.unref?.();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
