/**
 * The node in process, for tests, scripts and benchmarks. Two ways in, by how much of the node they need:
 *
 * - `startConfiguredNode`: the whole node as `ledger-node run` starts it (src/node/node.ts `startNode`): a data
 *   folder (a fresh temporary one unless given), the default configuration with free ports and the given overrides,
 *   the store on disk or in memory; `stop()` stops it and removes the temporary folder.
 * - `startTestNode`: only the composed parts (src/node/compose.ts) over a memory store (or a given key-value store), a
 *   network from a genesis and the real gRPC server on a free port with its generated client; no data folder,
 *   identity, REST or peer door. Tests reach it through `testing` (compose.ts `TestSurface`), as a running node's.
 *
 * The node as a process (`ledger-node run` / `gateway` spawned from bin/) is harness/process.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { credentials } from '@grpc/grpc-js';
import { MemoryKeyValueStore, NodeStore, type KeyValueStore } from '../src/core/store/index.ts';
import { NodeServiceClient } from '../src/grpc/gen/node.ts';
import {
  composeNode,
  testSurfaceOf,
  type ComposedNode,
  type ComposeOptions,
  type TestSurface,
} from '../src/node/compose.ts';
import { defaultConfig, type NodeConfig } from '../src/node/config.ts';
import { devGenesis, type Genesis } from '../src/node/genesis/genesis.ts';
import { loadNetwork } from '../src/node/genesis/network.ts';
import { recordGenesis } from '../src/node/genesis/open-network.ts';
import { startGrpcServer, type GrpcServerHandle } from '../src/node/grpc/server.ts';
import type { NodeServiceImpl } from '../src/node/grpc/service.ts';
import type { Logger } from '../src/node/logger.ts';
import { startNode, type RunningNode, type StartOptions } from '../src/node/node.ts';
import type { PowQueue } from '../src/node/pow/queue.ts';
import type { PoolRules } from '../src/node/tangle/urts.ts';

/** A logger that keeps its lines (tests assert on them). */
export class CollectingLogger implements Logger {
  lines: string[] = [];
  info(m: string): void {
    this.lines.push(`INFO ${m}`);
  }
  warn(m: string): void {
    this.lines.push(`WARN ${m}`);
  }
  error(m: string, e?: unknown): void {
    this.lines.push(`ERROR ${m} ${e instanceof Error ? e.stack : String(e)}`);
  }
}

/** The default configuration on `dataDir` with every door on a free loopback port, then `overrides`. */
export function nodeConfig(dataDir: string, overrides: Partial<NodeConfig> = {}): NodeConfig {
  return { ...defaultConfig(), dataDir, grpcPort: 0, restPort: 0, peerPort: 0, ...overrides };
}

export interface ConfiguredNode {
  node: RunningNode;
  config: NodeConfig;
  dataDir: string;
  logger: Logger;
  /** `http://127.0.0.1:PORT` of the REST gateway (empty when it is off). */
  rest: string;
  /** Stops the node; removes the data folder when the harness made it. */
  stop(): Promise<void>;
}

/**
 * Starts the whole node in process (`startNode`) on `nodeConfig(dataDir, overrides)`. Without `dataDir` a temporary
 * folder is made and removed on stop; `store: 'memory'` keeps the key-value store in memory (the identity key and
 * genesis file still go to the folder). The logger defaults to a `CollectingLogger`.
 */
export async function startConfiguredNode(
  overrides: Partial<NodeConfig> = {},
  options: StartOptions & { dataDir?: string; store?: 'disk' | 'memory' } = {},
): Promise<ConfiguredNode> {
  const { dataDir: given, store, ...start } = options;
  const dataDir = given ?? mkdtempSync(join(tmpdir(), 'ledger-node-harness-'));
  const logger = start.logger ?? new CollectingLogger();
  const config = nodeConfig(dataDir, overrides);
  const cleanup = (): void => {
    if (!given) rmSync(dataDir, { recursive: true, force: true });
  };
  let node: RunningNode;
  try {
    node = await startNode(config, {
      ...start,
      logger,
      ...(store === 'memory' && !start.kv ? { kv: new MemoryKeyValueStore() } : {}),
    });
  } catch (e) {
    cleanup();
    throw e;
  }
  return {
    node,
    config,
    dataDir,
    logger,
    rest: node.restPort === undefined ? '' : `http://127.0.0.1:${node.restPort}`,
    async stop() {
      try {
        await node.stop();
      } finally {
        cleanup();
      }
    },
  };
}

export interface TestNode {
  store: NodeStore;
  service: NodeServiceImpl;
  /** The narrow surface tests reach (compose.ts `TestSurface`), as on a running node. */
  testing: TestSurface;
  /** The parts themselves, for tests of a part (say why where one is reached). */
  parts: ComposedNode;
  client: NodeServiceClient;
  server: GrpcServerHandle;
  logger: CollectingLogger;
  /** Stops the node and its server, and closes the store unless it was given; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Tip pools in which a tip leaves at its first child: the pool is exactly the solid blocks without children, which
 * the service tests assert block by block. (The node's default, Hornet's retention rules, is tested in
 * test/node/tangle/tip-pools.test.ts.)
 */
export const LEAVE_AT_FIRST_CHILD = Object.freeze({
  nonLazy: { tipsLimit: 100, maxReferencedTipAgeMs: 0, maxChildren: 1 },
  semiLazy: { tipsLimit: 20, maxReferencedTipAgeMs: 0, maxChildren: 1 },
});

export interface TestNodeOptions {
  /** The network (default: a dev network without a ledger), recorded with its ledger when it has one. */
  genesis?: Genesis;
  /** The default genesis' minimum PoW score (default 0). */
  minPowScore?: number;
  pow?: PowQueue;
  /** Starts with no tips (the solid entry points removed from the tips table). */
  noTips?: boolean;
  /** Default: LEAVE_AT_FIRST_CHILD; the node's own default is urts.ts URTS_DEFAULTS. */
  tipPools?: { nonLazy: PoolRules; semiLazy: PoolRules };
  /**
   * The key-value store (default: a new memory store, closed with the node). One given stays open on close, so a node
   * started on it again is a restart: the network it holds is loaded, the genesis is not recorded again.
   */
  kv?: KeyValueStore;
  /** The rest of the composition: the coordinator, the faucet, the peer layer, pruning, snapshots, the clock. */
  compose?: Omit<Partial<ComposeOptions>, 'store' | 'network' | 'version' | 'logger' | 'pow' | 'tipPools'>;
  /**
   * What runs from the start (default: nothing; the attacher always runs): the milestone processor, the peer layer,
   * or the whole node (`start()`: also pruning, the faucet, the coordinator's timer and the v3 validator).
   */
  start?: 'milestones' | 'peering' | 'all';
}

/** The composed node over a memory store with the real gRPC server on a free port and its client. */
export async function startTestNode(options: TestNodeOptions = {}): Promise<TestNode> {
  const store = await NodeStore.open(options.kv ?? new MemoryKeyValueStore());
  const genesis = options.genesis ?? devGenesis({ minPowScore: options.minPowScore ?? 0, timestamp: 1700000000 });
  const network = (await loadNetwork(store)) ?? (await recordGenesis(store, genesis));
  if (options.noTips) {
    const batch = store.batch();
    for (const t of await store.tips()) batch.removeTip(t);
    await batch.commit();
  }
  const logger = new CollectingLogger();
  const parts = await composeNode({
    ...options.compose,
    store,
    network,
    version: '9.9.9-test',
    logger,
    tipPools: options.tipPools ?? LEAVE_AT_FIRST_CHILD,
    ...(options.pow ? { pow: options.pow } : {}),
  });
  if (options.start === 'all') await parts.start();
  else if (options.start === 'milestones') await parts.milestones.start();
  else if (options.start === 'peering') await parts.peering.start();
  const service = parts.service;
  const server = await startGrpcServer(service, { host: '127.0.0.1', port: 0, logger });
  const client = new NodeServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
  let closing: Promise<void> | undefined;
  return {
    store,
    service,
    testing: testSurfaceOf(parts),
    parts,
    client,
    server,
    logger,
    close() {
      closing ??= (async () => {
        client.close();
        await parts.stop();
        await server.close(500);
        if (!options.kv) await store.close();
      })();
      return closing;
    },
  };
}
