/**
 * The ledger tests' harness: a node over a memory store with the dev genesis' coordinator, its service and its test
 * surface, and the blocks those tests submit (a tagged-data block, a milestone signed with the coordinator keys).
 */
import { compareBytes } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { ed25519PublicKeyFromSeed, ed25519Sign } from '../../../src/core/crypto/index.ts';
import { merkleRoot, milestoneIdOf } from '../../../src/core/ids/index.ts';
import type { Block, MilestonePayload } from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore, type KeyValueStore, type NodeStore } from '../../../src/core/store/index.ts';
import type { TestSurface } from '../../../src/node/compose.ts';
import { genesisFromJson, genesisToJson, type Genesis } from '../../../src/node/genesis/genesis.ts';
import type { NodeServiceImpl } from '../../../src/node/grpc/service.ts';
import type { Coordinator } from '../../../src/node/ledger/coordinator.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { startTestNode, type CollectingLogger, type TestNode } from '../../../harness/node.ts';

export function devGenesisJson(
  extra: Parameters<typeof devNetworkGenesis>[0] = { minPowScore: 0 },
): Record<string, any> {
  return genesisToJson(devNetworkGenesis({ timestamp: Math.floor(Date.now() / 1000) - 10, ...extra }));
}

export interface Harness {
  node: TestNode;
  store: NodeStore;
  kv: KeyValueStore;
  genesis: Genesis;
  service: NodeServiceImpl;
  testing: TestSurface;
  coordinator: Coordinator;
  logger: CollectingLogger;
  submit(block: Block): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * A node (harness/node.ts `startTestNode`) on `kv` (a new memory store unless given: a node on it again is a restart)
 * with the genesis' coordinator, which issues only when asked, and its milestone processor running.
 */
export async function harness(
  opts: { kv?: KeyValueStore; genesis?: Genesis; now?: () => number } = {},
): Promise<Harness> {
  const kv = opts.kv ?? new MemoryKeyValueStore();
  const genesis = opts.genesis ?? genesisFromJson(devGenesisJson());
  const node = await startTestNode({
    kv,
    genesis,
    tipPools: URTS_DEFAULTS,
    compose: { coordinator: coordinatorOf(genesis)!, ...(opts.now ? { now: opts.now } : {}) },
    start: 'milestones',
  });
  const { store, service } = node.testing;
  return {
    node,
    store,
    kv,
    genesis,
    service,
    testing: node.testing,
    coordinator: node.testing.coordinator!,
    logger: node.logger,
    async submit(block) {
      return (await service.submitBlock({ block: { $case: 'raw', value: encodeBlock(block) } })).blockId;
    },
    close: () => node.close(),
  };
}

/** A harness for each test of the suite: a new one before each test (the object is filled in then), closed after. */
export function harnessPerTest(): Harness {
  const h = {} as Harness;
  beforeEach(async () => {
    Object.assign(h, await harness());
  });
  afterEach(async () => {
    await h.close();
  });
  return h;
}

export function tagged(parents: Uint8Array[], tag: string): Block {
  return {
    protocolVersion: 2,
    parents: [...parents].sort(compareBytes),
    payload: { type: 5, tag: new TextEncoder().encode(tag), data: new Uint8Array(0) },
    nonce: 1n,
  };
}

/**
 * A milestone signed with the genesis' coordinator keys. By default it is issued now, follows no milestone (a zero
 * previous ID), includes exactly its parents (the inclusion root of `parents`) and changes no ledger output.
 */
export function signedMilestone(
  g: Genesis,
  draft: {
    index: number;
    parents: Uint8Array[];
    timestamp?: number;
    previousMilestoneId?: Uint8Array;
    inclusion?: Uint8Array;
    applied?: Uint8Array;
  },
): Block {
  const parents = [...draft.parents].sort(compareBytes);
  const unsigned: MilestonePayload = {
    type: 7,
    index: draft.index,
    timestamp: draft.timestamp ?? Math.floor(Date.now() / 1000),
    protocolVersion: 2,
    previousMilestoneId: draft.previousMilestoneId ?? new Uint8Array(32),
    parents,
    inclusionMerkleRoot: draft.inclusion ?? merkleRoot(draft.parents),
    appliedMerkleRoot: draft.applied ?? merkleRoot([]),
    metadata: new Uint8Array(0),
    options: [],
    signatures: [],
  };
  const id = milestoneIdOf(unsigned);
  const seeds = coordinatorOf(g)!.seeds.slice(0, g.milestonePublicKeyCount);
  const signatures = seeds
    .map((s) => ({ type: 0 as const, publicKey: ed25519PublicKeyFromSeed(s), signature: ed25519Sign(s, id) }))
    .sort((a, b) => compareBytes(a.publicKey, b.publicKey));
  return { protocolVersion: 2, parents, payload: { ...unsigned, signatures }, nonce: 0n };
}
