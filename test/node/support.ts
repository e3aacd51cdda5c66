/**
 * A node service under test: memory store, a network created from a genesis, the real grpc-js server on a free
 * port and the generated client. Calls are promises; failures come back parsed (status + ErrorInfo).
 */
import { expect } from 'chai';
import { credentials, type handleUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { MemoryKeyValueStore, NodeStore } from '../../src/core/store/index.ts';
import { NodeServiceClient, type NodeServiceServer } from '../../src/grpc/gen/node.ts';
import { parseNodeError, type RestParsedError as ParsedError } from '../../gateway/errors.ts';
import { devGenesis, type Genesis } from '../../src/node/genesis/genesis.ts';
import { startGrpcServer, type GrpcServerHandle } from '../../src/node/grpc/server.ts';
import type { Logger } from '../../src/node/logger.ts';
import { createNetwork } from '../../src/node/genesis/network.ts';
import type { PowQueue } from '../../src/node/pow/queue.ts';
import type { NodeServiceImpl } from '../../src/node/grpc/service.ts';
import { composeNode, type ComposedNode } from '../../src/node/compose.ts';
import type { PoolRules } from '../../src/node/tangle/urts.ts';

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

export interface TestNode {
  store: NodeStore;
  service: NodeServiceImpl;
  parts: ComposedNode;
  client: NodeServiceClient;
  server: GrpcServerHandle;
  logger: CollectingLogger;
  close(): Promise<void>;
}

/**
 * Tip pools in which a tip leaves at its first child: the pool is exactly the solid blocks without children, which
 * these tests assert block by block. (The node's default, Hornet's retention rules, is tested in tip-pools.test.ts.)
 */
export const LEAVE_AT_FIRST_CHILD = Object.freeze({
  nonLazy: { tipsLimit: 100, maxReferencedTipAgeMs: 0, maxChildren: 1 },
  semiLazy: { tipsLimit: 20, maxReferencedTipAgeMs: 0, maxChildren: 1 },
});

export async function startTestNode(
  options: {
    genesis?: Genesis;
    minPowScore?: number;
    pow?: PowQueue;
    noTips?: boolean;
    tipPools?: { nonLazy: PoolRules; semiLazy: PoolRules };
  } = {},
): Promise<TestNode> {
  const store = await NodeStore.open(new MemoryKeyValueStore());
  const genesis = options.genesis ?? devGenesis({ minPowScore: options.minPowScore ?? 0, timestamp: 1700000000 });
  const network = await createNetwork(store, genesis);
  if (options.noTips) {
    const batch = store.batch();
    for (const t of await store.tips()) batch.removeTip(t);
    await batch.commit();
  }
  const logger = new CollectingLogger();
  const parts = await composeNode({
    store,
    network,
    version: '9.9.9-test',
    logger,
    tipPools: options.tipPools ?? LEAVE_AT_FIRST_CHILD,
    ...(options.pow ? { pow: options.pow } : {}),
  });
  const service = parts.service;
  const server = await startGrpcServer(service, { host: '127.0.0.1', port: 0, logger });
  const client = new NodeServiceClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
  return {
    store,
    service,
    parts,
    client,
    server,
    logger,
    async close() {
      client.close();
      await parts.stop();
      await server.close(500);
      await store.close();
    },
  };
}

type Method =
  | 'getBlock'
  | 'getBlockMetadata'
  | 'submitBlock'
  | 'getIncludedBlock'
  | 'getIncludedBlockMetadata'
  | 'getIncludedBlockV3'
  | 'getInfo'
  | 'getTips';
type ReqOf<K extends Method> = NodeServiceServer[K] extends handleUnaryCall<infer Q, unknown> ? Q : never;
type ResOf<K extends Method> = NodeServiceServer[K] extends handleUnaryCall<never, infer R> ? R : never;

/** Calls a unary method of the generated client as a promise. */
export function call<K extends Method>(client: NodeServiceClient, method: K, req: ReqOf<K>): Promise<ResOf<K>> {
  const fn = client[method] as unknown as (
    req: ReqOf<K>,
    cb: (err: ServiceError | null, res: ResOf<K>) => void,
  ) => unknown;
  return new Promise((resolve, reject) => {
    fn.call(client, req, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** The parsed failure of a call that must fail. */
export async function failure(p: Promise<unknown>): Promise<ParsedError> {
  try {
    await p;
  } catch (e) {
    return parseNodeError(e as ServiceError);
  }
  return expect.fail('the call should have failed');
}
