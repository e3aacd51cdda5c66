/**
 * Wiring of the v3 part into the node (node.ts calls these): record the v3 genesis on a network's first start, then
 * open the engine, hand it to the NodeService and run the built-in validator.
 */
import type { NodeStore } from '../../core/store/index.ts';
import type { Genesis } from '../genesis.ts';
import type { Logger } from '../logger.ts';
import { NODE_NAME, type NodeServiceImpl } from '../grpc/service.ts';
import { V3Engine } from './engine.ts';
import { devGenesisV3 } from './genesis-v3.ts';
import { V3Service } from './service-v3.ts';
import { startValidator } from './validator.ts';

export const DEFAULT_VALIDATION_INTERVAL_MS = 200;

/** First start: a generated dev network gets a dev v3 part; a genesis file has one when it has a `v3` section. */
export async function initV3(store: NodeStore, genesis: Genesis, generated: boolean): Promise<void> {
  if (generated && genesis.v3 === undefined) genesis.v3 = devGenesisV3();
  if (genesis.v3 !== undefined) await V3Engine.create(store, genesis.v3);
}

export interface V3Handle {
  readonly engine: V3Engine | undefined;
  stop(): Promise<void>;
}

export async function startV3(options: { store: NodeStore; service: NodeServiceImpl; validationInterval?: number; logger: Logger }): Promise<V3Handle> {
  const engine = await V3Engine.open(options.store);
  if (engine === undefined) return { engine, stop: async () => {} };
  const { service } = options;
  const { name, tickerSymbol, unit, subunit, decimals } = service.network.baseToken;
  const baseToken = { name, tickerSymbol, unit, ...(subunit !== undefined ? { subunit } : {}), decimals };
  service.v3 = new V3Service(engine, () => ({ name: NODE_NAME, version: service.version, baseToken }));
  const intervalMs = options.validationInterval ?? DEFAULT_VALIDATION_INTERVAL_MS;
  const validator = startValidator(engine, { intervalMs, logger: options.logger });
  options.logger.info(
    `v3 network "${engine.params.networkName}": ${engine.seats.length} committee seat(s), built-in validator ${engine.validatorSeats.length > 0 && intervalMs > 0 ? `every ${intervalMs} ms for ${engine.validatorSeats.length} seat(s)` : 'off'}`,
  );
  return {
    engine,
    async stop() {
      await validator.stop();
      await engine.idle();
    },
  };
}
