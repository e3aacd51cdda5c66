/**
 * The network a node runs on, from its store or, on a first start, from a genesis: `--genesis FILE`, or a dev network
 * generated in memory (`devNetworkGenesis`, with `--min-pow-score`) with a dev v3 part. A first start records the
 * genesis in the store (network, ledger, v3 part) and writes it to `<data-dir>/genesis.json`, so the operator sees
 * what the network is. Later starts read the network from the store; a `--genesis` of another network is refused.
 * The built-in coordinator's keys come from the genesis given with `--genesis`, else from `<data-dir>/genesis.json`
 * when it is the same network. A store whose ledger has no TIP-26 index yet (or one of another layout) gets it built
 * from the unspent outputs before the node starts (core ledger/indexer/build.ts), and the same for the explorer
 * history and its aggregates (core ledger/history/build.ts, docs/explorer.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureHistory, ensureOutputIndex, initLedger } from '../../core/ledger/index.ts';
import { META, type NodeStore } from '../../core/store/index.ts';
import { ConfigError, type NodeConfig } from '../config.ts';
import { writeFileDurably } from '../support/durable-file.ts';
import { genesisFromJson, genesisToJson, type Genesis } from './genesis.ts';
import { devNetworkGenesis } from './dev-genesis.ts';
import {
  coordinatorOf,
  devWalletOf,
  hasLedger,
  ledgerGenesisOf,
  type CoordinatorSettings,
  type DevWallet,
} from './genesis-ledger.ts';
import type { Logger } from '../logger.ts';
import { createNetwork, loadNetwork, type NetworkState } from './network.ts';
import { V3Engine } from '../v3/engine.ts';
import { devGenesisV3 } from '../v3/genesis-v3.ts';

export const GENESIS_FILE = 'genesis.json';

/** Reads and checks a genesis file; any problem is a ConfigError naming the file. */
export function readGenesisFile(path: string): Genesis {
  try {
    const g = genesisFromJson(JSON.parse(readFileSync(path, 'utf8')));
    // The ledger entries are checked up front too, so a bad file never half-starts a network.
    if (hasLedger(g)) ledgerGenesisOf(g);
    coordinatorOf(g);
    devWalletOf(g);
    return g;
  } catch (e) {
    throw new ConfigError(`Cannot read genesis file ${path}: ${(e as Error).message}`);
  }
}

/**
 * Records a genesis in a store: the v3 part, the ledger, then the network (a crash between them is completed later).
 */
export async function recordGenesis(store: NodeStore, genesis: Genesis): Promise<NetworkState> {
  if (genesis.v3 !== undefined) await V3Engine.create(store, genesis.v3);
  if (hasLedger(genesis) && (await store.getMeta(META.ledgerIndex)) === undefined)
    await initLedger(store, ledgerGenesisOf(genesis));
  return createNetwork(store, genesis);
}

/**
 * Loads the store's network, or creates it from the genesis on a first start; then makes sure the ledger is indexed
 * and has its history (a build logs its progress at most every 10 s).
 */
export async function openNetwork(store: NodeStore, config: NodeConfig, logger: Logger): Promise<NetworkState> {
  const network = await loadOrCreateNetwork(store, config, logger);
  const started = Date.now();
  const build = await ensureOutputIndex(store);
  if (build.built)
    logger.info(`indexer: built the output index of ${build.outputs} unspent outputs in ${Date.now() - started} ms`);
  const historyStarted = Date.now();
  let logged = 0;
  const history = await ensureHistory(store, (text) => {
    if (Date.now() - logged < 10_000) return;
    logged = Date.now();
    logger.info(text);
  });
  if (history.built)
    logger.info(
      `history: built for explorers: ${history.milestones} milestones, ${history.blocks} blocks, ` +
        `${history.updates} ledger updates, ${history.outputs} unspent outputs in ${Date.now() - historyStarted} ms`,
    );
  return network;
}

async function loadOrCreateNetwork(store: NodeStore, config: NodeConfig, logger: Logger): Promise<NetworkState> {
  const given = config.genesis !== undefined ? readGenesisFile(config.genesis) : undefined;
  const existing = await loadNetwork(store);
  if (existing) {
    if (given && given.protocol.networkName !== existing.networkName) {
      throw new ConfigError(
        `Cannot start: the store in ${config.dataDir} belongs to network ` +
          `"${existing.networkName}", the genesis ${config.genesis} to "${given.protocol.networkName}"`,
      );
    }
    return existing;
  }
  // The genesis file is written (durably) before anything goes into the store, and an interrupted first start resumes
  // from it: a crash at any moment never leaves a ledger whose dev keys are lost or were generated anew.
  const file = join(config.dataDir, GENESIS_FILE);
  const resumed = given === undefined && existsSync(file) ? readGenesisFile(file) : undefined;
  const genesis =
    given ??
    resumed ??
    devNetworkGenesis({
      minPowScore: config.minPowScore,
      ...(config.milestoneInterval !== undefined ? { milestoneInterval: config.milestoneInterval } : {}),
    });
  if (given === undefined && resumed === undefined && genesis.v3 === undefined) genesis.v3 = devGenesisV3();
  // Readable by its owner only: a dev network's genesis holds the coordinator's and the dev wallet's private keys.
  if (!existsSync(file)) writeFileDurably(file, JSON.stringify(genesisToJson(genesis), null, 2) + '\n', 0o600);
  const network = await recordGenesis(store, genesis);
  const origin = given
    ? `from ${config.genesis}`
    : resumed
      ? 'dev genesis of an interrupted first start'
      : 'dev genesis';
  logger.info(
    `created network "${genesis.protocol.networkName}" (${origin}, minPowScore ${genesis.protocol.minPowScore}); ` +
      `genesis in ${file}`,
  );
  return network;
}

/**
 * The built-in coordinator's settings, when it runs. Two coordinators on one network fork it: a node that dials
 * static peers joins a network someone else coordinates unless the operator says otherwise, so there it runs only
 * with an explicit `--coordinator true`.
 */
export function coordinatorSettings(
  config: NodeConfig,
  network: NetworkState,
  logger: Logger,
): CoordinatorSettings | undefined {
  const dialsPeers = (config.peers?.length ?? 0) > 0;
  if (config.coordinator === undefined && dialsPeers)
    logger.info('coordinator off: this node dials peers; pass --coordinator true on the one node that coordinates');
  const wanted = config.coordinator === true || (config.coordinator === undefined && !dialsPeers);
  if (!wanted) return undefined;
  const genesis =
    config.genesis !== undefined ? readGenesisFile(config.genesis) : genesisInDataDir(config, network, logger);
  const settings = genesis ? coordinatorOf(genesis) : undefined;
  if (settings && config.milestoneInterval !== undefined) settings.milestoneInterval = config.milestoneInterval;
  return settings;
}

/**
 * The dev wallet the faucet pays from: the genesis' `devWallet` (`--genesis`, else the data folder's of this network).
 */
export function devWalletFor(config: NodeConfig, network: NetworkState, logger: Logger): DevWallet | undefined {
  const genesis =
    config.genesis !== undefined ? readGenesisFile(config.genesis) : genesisInDataDir(config, network, logger);
  return genesis ? devWalletOf(genesis) : undefined;
}

function genesisInDataDir(config: NodeConfig, network: NetworkState, logger: Logger): Genesis | undefined {
  const file = join(config.dataDir, GENESIS_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const g = genesisFromJson(JSON.parse(readFileSync(file, 'utf8')));
    return g.protocol.networkName === network.networkName ? g : undefined;
  } catch (e) {
    logger.warn(`coordinator: cannot read ${file}: ${(e as Error).message}`);
    return undefined;
  }
}
