/**
 * `ledger-node run`: opens the store, the network (open-network.ts) and the PoW miner, composes the node's parts
 * (compose.ts), starts its doors (doors.ts: the node service door, the peer door, REST), and stops them all again in
 * reverse order. The gateway calls the service itself (grpc/port.ts, the gateway's port in this process), not the
 * node's own gRPC port.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { NodeStore, PREFIX, WriteThroughCache, type KeyValueStore } from '../core/store/index.ts';
import { openDataDirStore } from '../storage/open.ts';
import { allocatorInUse, allocatorNote } from './support/allocator.ts';
import { importSnapshot, prepareBootstrap, type BootstrapOptions } from './snapshots/open-from-peer.ts';
import { pruningOptionsOf, snapshotOptionsOf } from './pruning/options.ts';
import { parseSize } from './pruning/size.ts';
import { composeNode, testSurfaceOf, type ComposedNode, type TestSurface } from './compose.ts';
import type { NodeConfig } from './config.ts';
import { installOpenSslEd25519 } from './crypto/ed25519-openssl.ts';
import { checkDoorPolicy, peerDialer, startGrpcDoors } from './doors.ts';
import { loadOrCreateIdentity, type NodeIdentity } from './peering/identity.ts';
import { PeeringFile } from './peering/peering-file.ts';
import { StorageWatch } from './status/storage.ts';
import { servicePort } from './grpc/port.ts';
import { localEventsPort } from './grpc/events-port.ts';
import { consoleLogger, type Logger } from './logger.ts';
import { faucetSettingsOf } from './faucet/faucet.ts';
import { coordinatorSettings, devWalletFor, openNetwork } from './genesis/open-network.ts';
import type { PeeringOptions } from './peering/manager.ts';
import { NodeMetrics } from './metrics/node-metrics.ts';
import { createMiner } from './pow/miner.ts';
import { createPowQueue, type PowQueue } from './pow/queue.ts';
import { serveMetrics, startRest, type RestHandle, type RestNode } from './rest.ts';

export { GENESIS_FILE, readGenesisFile } from './genesis/open-network.ts';

export interface RunningNode {
  readonly grpcPort: number;
  /** The peer door's port (PeerService only). */
  readonly peerPort: number;
  /** The data folder's identity key (identity.ts). */
  readonly identity: NodeIdentity;
  /** Undefined when the REST gateway is off (`rest: false`). */
  readonly restPort: number | undefined;
  /** The Prometheus /metrics port; undefined without `metricsPort`. */
  readonly metricsPort: number | undefined;
  /** The node's parts (compose.ts); tests use `testing` instead where it suffices. */
  readonly parts: ComposedNode;
  /** The narrow surface tests reach (compose.ts `TestSurface`). */
  readonly testing: TestSurface;
  /** Stops servers, PoW and the store; safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Start the REST gateway (default true). */
  rest?: boolean;
  /**
   * How the REST gateway reaches the service: 'in-process' (default, the service itself: grpc/port.ts) or 'grpc', a
   * gRPC client of the node's own port over loopback (what `ledger-node run` did before; tests and benchmarks compare
   * both), or 'mux', the multiplexed transport a standalone gateway uses, over the same loopback port
   * (grpc/mux-server.ts).
   */
  restTransport?: 'in-process' | 'grpc' | 'mux';
  /**
   * Use this key-value store instead of the data folder's (`<dataDir>/db` or `db-rocksdb`; tests); the node closes it
   * on stop.
   */
  kv?: KeyValueStore;
  /** Peer-layer settings beyond `config.peers` (tests: faster heartbeats, ticks, backoff). */
  peering?: Partial<PeeringOptions>;
  /** Bootstrap from a peer's snapshot (open-from-peer.ts): timeouts, size bound, rounds (tests). */
  bootstrap?: Partial<BootstrapOptions>;
  /** HS256 secret of the REST gateway's protected routes (none: they are closed); default `nodeJwtSecret`. */
  restJwtSecret?: string;
  /**
   * HS256 secret (LEDGER_NODE_JWT_SECRET) that guards the node service door, every call needing a token, and the REST
   * routes; without it the door must stay on loopback (doors.ts).
   */
  nodeJwtSecret?: string;
}

/** Bytes of recently written blocks and metadata kept in memory (about 50,000 blocks with their metadata). */
export const WRITE_CACHE_BYTES = 32 * 1024 * 1024;

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export async function startNode(config: NodeConfig, options: StartOptions = {}): Promise<RunningNode> {
  const logger = options.logger ?? consoleLogger;
  checkDoorPolicy(config, options.nodeJwtSecret);
  if (!installOpenSslEd25519())
    logger.warn('OpenSSL Ed25519 unavailable: signatures are verified by the (slower) pure ZIP-215 code');
  mkdirSync(config.dataDir, { recursive: true });
  const { identity, created } = loadOrCreateIdentity(config.dataDir, (m) => logger.warn(m));
  if (created) logger.info(`new identity key in ${identity.file}`);
  // An empty data folder with --genesis-keys: a peer's snapshot, verified before the store exists.
  const bootstrap = options.kv ? undefined : await prepareBootstrap(config, identity, logger, options.bootstrap);
  const kv =
    options.kv ??
    (await openDataDirStore(config.dataDir, { engine: config.dbEngine, engineIsDefault: !config.dbEngineExplicit }));
  const cleanups: (() => Promise<void>)[] = [() => kv.close()];
  const unwind = async () => {
    for (const c of cleanups.splice(0).reverse())
      await c().catch((e: unknown) => logger.error('shutdown step failed', e));
  };
  try {
    // Recent blocks and their metadata are read again at once (new blocks' parents, the cone a milestone confirms).
    const store = await NodeStore.open(
      new WriteThroughCache(kv, { prefixes: [PREFIX.blocks, PREFIX.blockMetadata], maxBytes: WRITE_CACHE_BYTES }),
    );
    if (bootstrap) await importSnapshot(store, bootstrap, logger, config.dataDir);
    const network = await openNetwork(store, config, logger);
    const metrics = new NodeMetrics();
    let pow: PowQueue | undefined;
    if (config.powWorkers > 0) {
      pow = createPowQueue(createMiner({ workers: config.powWorkers }), {
        limit: config.powQueueSize,
        observe: (outcome, s, hashes) => metrics.powJob(outcome, s, hashes),
      });
      const queue = pow;
      cleanups.push(() => queue.close());
    }
    const coordinator = coordinatorSettings(config, network, logger);
    const devWallet = devWalletFor(config, network, logger);
    // the data folder's size and free disk (/info, the dashboard, the metrics); none for a store given in memory
    const storage = options.kv ? undefined : new StorageWatch(config.dataDir);
    const parts = await composeNode({
      store,
      network,
      version: packageVersion(),
      logger,
      ...(pow ? { pow } : {}),
      metrics,
      peering: {
        ...peerDialer(config),
        linkTimeoutMs: config.peerLinkTimeout,
        ...options.peering,
        peers: config.peers ?? [],
        ...(options.kv ? {} : { peeringFile: PeeringFile.open(config.dataDir) }),
        identity,
      },
      ...(coordinator ? { coordinator } : {}),
      ...(devWallet ? { faucet: { seed: devWallet.seed, settings: faucetSettingsOf(config) } } : {}),
      ...(config.validationInterval !== undefined ? { validationInterval: config.validationInterval } : {}),
      health: {
        milestoneIntervals: config.healthMilestoneIntervals,
        minMilestoneAgeSeconds: config.healthMinMilestoneAge,
        peerSilenceSeconds: config.healthPeerSilence,
      },
      ...(config.pruneV3Epochs !== undefined ? { pruneV3Epochs: config.pruneV3Epochs } : {}),
      pruning: pruningOptionsOf(config, kv),
      ...(config.historyMilestones !== undefined ? { historyMilestones: config.historyMilestones } : {}),
      snapshots: snapshotOptionsOf(config, network, logger),
      ...(storage ? { storage } : {}),
    });
    const minPowScore = parts.protocol.current.minPowScore;
    if (config.minPowScoreExplicit && config.minPowScore !== minPowScore) {
      logger.warn(
        `--min-pow-score ${config.minPowScore} ignored: network ` +
          `"${network.networkName}" has minPowScore ${minPowScore}`,
      );
    }
    if (storage) {
      metrics.observeDataDir(() => storage.measure(), config.pruneSize ? parseSize(config.pruneSize) : undefined);
      storage.start();
      cleanups.push(async () => storage.stop());
    }
    const secret = options.nodeJwtSecret;
    const grpc = await startGrpcDoors(parts, config, {
      logger,
      ...(secret ? { nodeJwtSecret: secret } : {}),
      calls: (method, code, s, transport = 'grpc') => metrics.grpcCall(method, code, transport, s),
    });
    cleanups.push(() => grpc.close());
    let rest: RestHandle | undefined;
    if (options.rest !== false) {
      const security = {
        ...(grpc.selfToken ? { token: grpc.selfToken } : {}),
        ...(grpc.selfTlsCa ? { tlsCa: grpc.selfTlsCa } : {}),
      };
      let node: RestNode = {
        grpcAddress: `${config.grpcHost}:${grpc.grpcPort}`,
        transport: options.restTransport === 'mux' ? 'mux' : 'unary',
        security,
      };
      if (options.restTransport !== 'grpc' && options.restTransport !== 'mux') {
        const port = servicePort(parts.service, {
          logger,
          observe: (method, code, s) => metrics.grpcCall(method, code, 'in-process', s),
        });
        cleanups.push(async () => port.close()); // after the gateway has closed (cleanups run in reverse)
        const events = localEventsPort(parts.events);
        cleanups.push(async () => events.close());
        node = { port, events };
      }
      const restSecret = options.restJwtSecret ?? secret;
      const jwt = restSecret ? { jwtSecret: restSecret } : {};
      rest = await startRest({
        host: config.restHost,
        port: config.restPort,
        node,
        logger,
        limits: config,
        metrics: metrics.registry,
        ...jwt,
      });
      const r = rest;
      cleanups.push(() => r.close());
      logger.info(`REST API listening on http://${config.restHost}:${rest.port}/api/core/v2/`);
    }
    let metricsPort: number | undefined;
    if (config.metricsPort !== undefined) {
      metrics.withDefaultMetrics();
      const host = config.metricsHost ?? '127.0.0.1';
      // the gateway's /metrics listener (rest.ts): the HTTP layer's own refusals answer the REST error body here too
      const server = await serveMetrics(metrics.registry, host, config.metricsPort, (m, e) => logger.error(m, e));
      cleanups.push(() => server.close());
      metricsPort = server.port;
      logger.info(`Prometheus metrics on http://${host}:${server.port}/metrics`);
    }
    cleanups.push(() => parts.stop());
    await parts.start();
    logger.info(
      `network "${network.networkName}", minPowScore ${minPowScore}, ` +
        `remote PoW ${pow ? `on (${pow.workers} workers)` : 'off'}`,
    );
    const allocator = allocatorNote(allocatorInUse());
    if (allocator !== undefined) logger.info(allocator);
    let stopping: Promise<void> | undefined;
    return {
      grpcPort: grpc.grpcPort,
      peerPort: grpc.peerPort,
      identity,
      restPort: rest?.port,
      metricsPort,
      parts,
      testing: testSurfaceOf(parts),
      // PoW jobs are aborted first, so calls waiting on them end before the servers close.
      stop: () =>
        (stopping ??= parts
          .stop()
          .then(unwind)
          .then(() => logger.info('node stopped'))),
    };
  } catch (e) {
    await unwind();
    throw e;
  }
}
