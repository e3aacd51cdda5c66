/**
 * The ledger part of the composition root: `initNodeLedger` writes a genesis' ledger on a first start, and
 * `startLedger` resumes milestone processing and starts the built-in coordinator when the network has coordinator
 * keys (dev networks; `--coordinator false` turns it off). The coordinator keys come from the genesis given with
 * `--genesis`, else from `<data-dir>/genesis.json` (written at the first start) when it is the same network.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initLedger } from '../../core/ledger/index.ts';
import { META, type NodeStore } from '../../core/store/index.ts';
import { Coordinator } from './coordinator.ts';
import type { NodeConfig } from '../config.ts';
import { genesisFromJson, type Genesis } from '../genesis.ts';
import type { Logger } from '../logger.ts';
import type { NodeServiceImpl } from '../grpc/service.ts';
import { coordinatorOf, hasLedger, ledgerGenesisOf } from './genesis-ledger.ts';

/** Writes the genesis ledger unless the store already holds one (a restart after a partial first start). */
export async function initNodeLedger(store: NodeStore, genesis: Genesis): Promise<boolean> {
  if (!hasLedger(genesis)) return false;
  if ((await store.getMeta(META.ledgerIndex)) !== undefined) return true;
  await initLedger(store, ledgerGenesisOf(genesis));
  return true;
}

function coordinatorGenesis(config: NodeConfig, networkName: string, given: Genesis | undefined, logger: Logger): Genesis | undefined {
  if (given) return given;
  const file = join(config.dataDir, 'genesis.json');
  if (!existsSync(file)) return undefined;
  try {
    const g = genesisFromJson(JSON.parse(readFileSync(file, 'utf8')));
    return g.protocol.networkName === networkName ? g : undefined;
  } catch (e) {
    logger.warn(`coordinator: cannot read ${file}: ${(e as Error).message}`);
    return undefined;
  }
}

export interface LedgerHandle {
  coordinator: Coordinator | undefined;
  stop(): Promise<void>;
}

export async function startLedger(opts: { store: NodeStore; service: NodeServiceImpl; config: NodeConfig; logger: Logger; given?: Genesis }): Promise<LedgerHandle> {
  const { store, service, config, logger } = opts;
  await service.milestones.start();
  const ledgerIndex = await store.getMeta(META.ledgerIndex);
  if (ledgerIndex === undefined) {
    logger.info('no ledger (the genesis has no milestone keys): blocks are stored, milestones are not confirmed');
    return { coordinator: undefined, stop: async () => undefined };
  }
  logger.info(`ledger at milestone ${ledgerIndex}`);
  // Two coordinators on one network fork it. A node that dials static peers joins a network someone else coordinates
  // unless the operator says otherwise, so there it runs only with an explicit `--coordinator true`.
  const dialsPeers = (config.peers?.length ?? 0) > 0;
  if (config.coordinator === undefined && dialsPeers) {
    logger.info('coordinator off: this node dials peers; pass --coordinator true on the one node that coordinates');
  }
  const wanted = config.coordinator === true || (config.coordinator === undefined && !dialsPeers);
  const g = wanted ? coordinatorGenesis(config, service.network.protocol.networkName, opts.given, logger) : undefined;
  const settings = g ? coordinatorOf(g) : undefined;
  if (!settings) return { coordinator: undefined, stop: async () => undefined };
  if (config.milestoneInterval !== undefined) settings.milestoneInterval = config.milestoneInterval;
  const coordinator = new Coordinator({
    store,
    network: service.network,
    tips: service.tips,
    milestones: service.milestones,
    exclusive: (fn) => service.exclusive(fn),
    submit: (req) => service.submitBlock(req),
    settings,
    logger,
  });
  coordinator.start();
  service.coordinatorActive = () => coordinator.active;
  logger.info(`coordinator on: a milestone every ${settings.milestoneInterval} s with ${settings.seeds.length} dev keys`);
  return { coordinator, stop: () => coordinator.stop() };
}
