/**
 * `ledger-node run`: opens the store, the network (open-network.ts) and the PoW miner, composes the node's parts
 * (compose.ts), starts the gRPC server and the REST gateway, and stops them all again in reverse order. The gateway
 * reaches the service over the in-process transport (grpc/in-process.ts), not over the node's own gRPC port.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { NodeStore, PREFIX, WriteThroughCache, type KeyValueStore } from '../core/store/index.ts';
import { openDataDirStore } from '../storage/open.ts';
import { composeNode, type ComposedNode } from './compose.ts';
import type { NodeConfig } from './config.ts';
import { installOpenSslEd25519 } from './crypto/ed25519-openssl.ts';
import { nodeServiceHandlers } from './grpc/handlers.ts';
import { InProcessNodeServer } from './grpc/in-process.ts';
import { startGrpcServer } from './grpc/server.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { coordinatorSettings, openNetwork } from './open-network.ts';
import type { PeeringOptions } from './peering/manager.ts';
import { createMiner } from './pow/miner.ts';
import { createPowQueue, type PowQueue } from './pow/queue.ts';
import { startRest, type RestHandle, type RestNode } from './rest.ts';

export { GENESIS_FILE, readGenesisFile } from './open-network.ts';

export interface RunningNode {
  readonly grpcPort: number;
  /** Undefined when the REST gateway is off (`rest: false`). */
  readonly restPort: number | undefined;
  /** The node's parts (compose.ts). */
  readonly parts: ComposedNode;
  /** Stops servers, PoW and the store; safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Start the REST gateway (default true). */
  rest?: boolean;
  /**
   * How the REST gateway reaches the service: 'in-process' (default, grpc/in-process.ts) or 'grpc', a gRPC client of
   * the node's own port over loopback (what `ledger-node run` did before; tests and benchmarks compare both).
   */
  restTransport?: 'in-process' | 'grpc';
  /** Use this key-value store instead of the data folder's (`<dataDir>/db` or `db-rocksdb`; tests); the node closes it on stop. */
  kv?: KeyValueStore;
  /** Peer-layer settings beyond `config.peers` (tests: faster heartbeats, ticks, backoff). */
  peering?: Partial<PeeringOptions>;
}

/** Bytes of recently written blocks and metadata kept in memory (about 50,000 blocks with their metadata). */
export const WRITE_CACHE_BYTES = 32 * 1024 * 1024;

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function startNode(config: NodeConfig, options: StartOptions = {}): Promise<RunningNode> {
  const logger = options.logger ?? consoleLogger;
  if (!installOpenSslEd25519()) logger.warn('OpenSSL Ed25519 unavailable: signatures are verified by the (slower) pure ZIP-215 code');
  mkdirSync(config.dataDir, { recursive: true });
  const kv = options.kv ?? (await openDataDirStore(config.dataDir, { engine: config.dbEngine, engineIsDefault: !config.dbEngineExplicit }));
  const cleanups: (() => Promise<void>)[] = [() => kv.close()];
  const unwind = async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch((e: unknown) => logger.error('shutdown step failed', e));
  };
  try {
    // Recent blocks and their metadata are read again at once (new blocks' parents, the cone a milestone confirms).
    const store = await NodeStore.open(new WriteThroughCache(kv, { prefixes: [PREFIX.blocks, PREFIX.blockMetadata], maxBytes: WRITE_CACHE_BYTES }));
    const network = await openNetwork(store, config, logger);
    let pow: PowQueue | undefined;
    if (config.powWorkers > 0) {
      pow = createPowQueue(createMiner({ workers: config.powWorkers }), { limit: config.powQueueSize });
      const queue = pow;
      cleanups.push(() => queue.close());
    }
    const coordinator = coordinatorSettings(config, network, logger);
    const parts = await composeNode({
      store,
      network,
      version: packageVersion(),
      logger,
      ...(pow ? { pow } : {}),
      peering: { ...options.peering, peers: config.peers ?? [] },
      ...(coordinator ? { coordinator } : {}),
      ...(config.validationInterval !== undefined ? { validationInterval: config.validationInterval } : {}),
    });
    const minPowScore = parts.protocol.current.minPowScore;
    if (config.minPowScoreExplicit && config.minPowScore !== minPowScore) {
      logger.warn(`--min-pow-score ${config.minPowScore} ignored: network "${network.networkName}" has minPowScore ${minPowScore}`);
    }
    const grpc = await startGrpcServer(parts.service, { host: config.host, port: config.grpcPort, logger, services: [parts.peerService] });
    cleanups.push(() => grpc.close());
    logger.info(`gRPC NodeService listening on ${config.host}:${grpc.port}`);
    let rest: RestHandle | undefined;
    if (options.rest !== false) {
      let node: RestNode = { grpcAddress: `${config.host}:${grpc.port}` };
      if (options.restTransport !== 'grpc') {
        const inProcess = new InProcessNodeServer(nodeServiceHandlers(parts.service, logger));
        cleanups.push(async () => inProcess.shutdown()); // after the gateway has closed (cleanups run in reverse)
        node = { client: inProcess.createClient() };
      }
      rest = await startRest({ host: config.host, port: config.restPort, node, logger, limits: config });
      const r = rest;
      cleanups.push(() => r.close());
      logger.info(`REST API listening on http://${config.host}:${rest.port}/api/core/v2/`);
    }
    cleanups.push(() => parts.stop());
    await parts.start();
    logger.info(`network "${network.networkName}", minPowScore ${minPowScore}, remote PoW ${pow ? `on (${pow.workers} workers)` : 'off'}`);
    let stopping: Promise<void> | undefined;
    return {
      grpcPort: grpc.port,
      restPort: rest?.port,
      parts,
      // PoW jobs are aborted first, so calls waiting on them end before the servers close.
      stop: () => (stopping ??= parts.stop().then(unwind).then(() => logger.info('node stopped'))),
    };
  } catch (e) {
    await unwind();
    throw e;
  }
}
