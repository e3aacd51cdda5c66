/**
 * The composition root: opens the store, creates or loads the network, starts the PoW miner, the gRPC server and
 * the REST gateway, and stops them all again in reverse order.
 *
 * First start (no network in the store): the genesis is `--genesis FILE`, or a dev network generated in memory
 * (genesis.ts `devGenesis`, with `--min-pow-score`); it is recorded in the store meta (network.ts) and written to
 * `<data-dir>/genesis.json` so the operator sees what the network is. Later starts read the network from the store;
 * a `--genesis` of another network is refused (NETWORK_MISMATCH).
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NodeStore, type KeyValueStore } from '../core/store/index.ts';
import { LevelKeyValueStore } from '../storage/level.ts';
import { ConfigError, type NodeConfig } from './config.ts';
import { genesisFromJson, genesisToJson, type Genesis } from './genesis.ts';
import { devNetworkGenesis } from './ledger/dev-genesis.ts';
import { coordinatorOf, devWalletOf, hasLedger, ledgerGenesisOf } from './ledger/genesis-ledger.ts';
import { initNodeLedger, startLedger } from './ledger/start.ts';
import { startGrpcServer, type GrpcServerHandle } from './grpc/server.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { createNetwork, loadNetwork, type NetworkState } from './network.ts';
import { createMiner } from './pow/miner.ts';
import { createPowQueue, type PowQueue } from './pow/queue.ts';
import { createPeering, type PeeringHandle } from './peering/start.ts';
import type { PeeringOptions } from './peering/manager.ts';
import { startRest, type RestHandle } from './rest.ts';
import { NodeServiceImpl } from './grpc/service.ts';
import { installOpenSslEd25519 } from './crypto/ed25519-openssl.ts';
import { initV3, startV3 } from './v3/start-v3.ts';
import { devGenesisV3 } from './v3/genesis-v3.ts';

export interface RunningNode {
  readonly grpcPort: number;
  /** Undefined when the REST gateway is off (`rest: false`). */
  readonly restPort: number | undefined;
  readonly service: NodeServiceImpl;
  readonly network: NetworkState;
  /** The peer layer (src/node/peering): gossip, solidification, sync. */
  readonly peering: PeeringHandle;
  /** Stops servers, PoW and the store; safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Start the REST gateway (default true). */
  rest?: boolean;
  /** Use this key-value store instead of LevelDB in `<dataDir>/db` (tests); the node closes it on stop. */
  kv?: KeyValueStore;
  /** Peer-layer settings beyond `config.peers` (tests: faster heartbeats, ticks, backoff). */
  peering?: Partial<PeeringOptions>;
}

export const GENESIS_FILE = 'genesis.json';
export const DB_FOLDER = 'db';

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

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

/** Writes a file so that after a crash it is either absent or complete (temp file, fsync, rename, fsync the folder). */
function writeFileDurably(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, text);
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/** Loads the store's network, or creates it from the genesis on a first start. */
async function openNetwork(store: NodeStore, config: NodeConfig, logger: Logger): Promise<NetworkState> {
  const given = config.genesis !== undefined ? readGenesisFile(config.genesis) : undefined;
  const existing = await loadNetwork(store);
  if (existing) {
    if (given && given.protocol.networkName !== existing.protocol.networkName) {
      throw new ConfigError(`Cannot start: the store in ${config.dataDir} belongs to network "${existing.protocol.networkName}", the genesis ${config.genesis} to "${given.protocol.networkName}"`);
    }
    if (config.minPowScoreExplicit && config.minPowScore !== existing.protocol.minPowScore) {
      logger.warn(`--min-pow-score ${config.minPowScore} ignored: network "${existing.protocol.networkName}" has minPowScore ${existing.protocol.minPowScore}`);
    }
    return existing;
  }
  // The genesis file is written (durably) before anything goes into the store, and an interrupted first start resumes
  // from it: a crash at any moment never leaves a ledger whose dev keys are lost or were generated anew.
  const file = join(config.dataDir, GENESIS_FILE);
  const resumed = given === undefined && existsSync(file) ? readGenesisFile(file) : undefined;
  const genesis = given ?? resumed ?? devNetworkGenesis({ minPowScore: config.minPowScore, ...(config.milestoneInterval !== undefined ? { milestoneInterval: config.milestoneInterval } : {}) });
  if (given === undefined && resumed === undefined && genesis.v3 === undefined) genesis.v3 = devGenesisV3();
  if (!existsSync(file)) writeFileDurably(file, JSON.stringify(genesisToJson(genesis), null, 2) + '\n');
  // The ledgers first: a crash between these writes leaves a store without a network, which the next start completes.
  await initV3(store, genesis, false);
  await initNodeLedger(store, genesis);
  const network = await createNetwork(store, genesis);
  logger.info(`created network "${genesis.protocol.networkName}" (${given ? `from ${config.genesis}` : resumed ? 'dev genesis of an interrupted first start' : 'dev genesis'}, minPowScore ${genesis.protocol.minPowScore}); genesis in ${file}`);
  return network;
}

export async function startNode(config: NodeConfig, options: StartOptions = {}): Promise<RunningNode> {
  const logger = options.logger ?? consoleLogger;
  if (!installOpenSslEd25519()) logger.warn('OpenSSL Ed25519 unavailable: signatures are verified by the (slower) pure ZIP-215 code');
  mkdirSync(config.dataDir, { recursive: true });
  const kv = options.kv ?? (await LevelKeyValueStore.open(join(config.dataDir, DB_FOLDER)));
  const cleanups: (() => Promise<void>)[] = [() => kv.close()];
  const unwind = async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((e: unknown) => logger.error('shutdown step failed', e));
  };
  try {
    const store = await NodeStore.open(kv);
    const network = await openNetwork(store, config, logger);
    let pow: PowQueue | undefined;
    if (config.powWorkers > 0) {
      pow = createPowQueue(createMiner({ workers: config.powWorkers }), { limit: config.powQueueSize });
      const queue = pow;
      cleanups.push(() => queue.close());
    }
    const service = new NodeServiceImpl({ store, network, version: packageVersion(), logger, ...(pow ? { pow } : {}) });
    const peering = createPeering(service, { ...options.peering, peers: config.peers ?? [], logger });
    const grpc: GrpcServerHandle = await startGrpcServer(service, { host: config.host, port: config.grpcPort, logger, services: [peering.grpcService] });
    cleanups.push(() => grpc.close());
    logger.info(`gRPC NodeService listening on ${config.host}:${grpc.port}`);
    let rest: RestHandle | undefined;
    if (options.rest !== false) {
      rest = await startRest({ host: config.host, port: config.restPort, grpcAddress: `${config.host}:${grpc.port}`, logger, limits: config });
      const r = rest;
      cleanups.push(() => r.close());
      logger.info(`REST API listening on http://${config.host}:${rest.port}/api/core/v2/`);
    }
    const ledger = await startLedger({ store, service, config, logger, ...(config.genesis !== undefined ? { given: readGenesisFile(config.genesis) } : {}) });
    cleanups.push(() => ledger.stop());
    const v3 = await startV3({ store, service, logger, ...(config.validationInterval !== undefined ? { validationInterval: config.validationInterval } : {}) });
    cleanups.push(() => v3.stop());
    await peering.start();
    cleanups.push(() => peering.stop());
    logger.info(`network "${network.protocol.networkName}", minPowScore ${network.protocol.minPowScore}, remote PoW ${pow ? `on (${pow.workers} workers)` : 'off'}`);
    let stopping: Promise<void> | undefined;
    return {
      grpcPort: grpc.port,
      restPort: rest?.port,
      service,
      network,
      peering,
      // PoW jobs are aborted first, so calls waiting on them end before the servers close.
      stop: () => (stopping ??= service.shutdown().then(unwind).then(() => logger.info('node stopped'))),
    };
  } catch (e) {
    await unwind();
    throw e;
  }
}
