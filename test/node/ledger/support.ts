/**
 * The ledger tests' harness: a node composed over a memory store with the dev genesis' coordinator, its service and
 * its parts, and the blocks those tests submit (a tagged-data block, a milestone signed with the coordinator keys).
 */
import { compareBytes } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { ed25519PublicKeyFromSeed, ed25519Sign } from '../../../src/core/crypto/index.ts';
import { milestoneIdOf } from '../../../src/core/ids/index.ts';
import type { Block, MilestonePayload } from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore, NodeStore, type KeyValueStore } from '../../../src/core/store/index.ts';
import { composeNode, type ComposedNode } from '../../../src/node/compose.ts';
import { genesisFromJson, genesisToJson, type Genesis } from '../../../src/node/genesis/genesis.ts';
import type { NodeServiceImpl } from '../../../src/node/grpc/service.ts';
import type { Coordinator } from '../../../src/node/ledger/coordinator.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { loadNetwork } from '../../../src/node/genesis/network.ts';
import { recordGenesis } from '../../../src/node/genesis/open-network.ts';
import { CollectingLogger } from '../../../harness/node.ts';

export function devGenesisJson(
  extra: Parameters<typeof devNetworkGenesis>[0] = { minPowScore: 0 },
): Record<string, any> {
  return genesisToJson(devNetworkGenesis({ timestamp: Math.floor(Date.now() / 1000) - 10, ...extra }));
}

export interface Harness {
  store: NodeStore;
  kv: KeyValueStore;
  genesis: Genesis;
  service: NodeServiceImpl;
  parts: ComposedNode;
  coordinator: Coordinator;
  logger: CollectingLogger;
  submit(block: Block): Promise<Uint8Array>;
  close(): Promise<void>;
}

export async function harness(
  opts: { kv?: KeyValueStore; genesis?: Genesis; now?: () => number } = {},
): Promise<Harness> {
  const kv = opts.kv ?? new MemoryKeyValueStore();
  const store = await NodeStore.open(kv);
  const genesis = opts.genesis ?? genesisFromJson(devGenesisJson());
  const network = (await loadNetwork(store)) ?? (await recordGenesis(store, genesis));
  const logger = new CollectingLogger();
  const parts = await composeNode({
    store,
    network,
    version: 't',
    logger,
    coordinator: coordinatorOf(genesis)!,
    ...(opts.now ? { now: opts.now } : {}),
  });
  await parts.milestones.start();
  const service = parts.service;
  const coordinator = parts.coordinator!;
  return {
    store,
    kv,
    genesis,
    service,
    parts,
    coordinator,
    logger,
    async submit(block) {
      return (await service.submitBlock({ block: { $case: 'raw', value: encodeBlock(block) } })).blockId;
    },
    async close() {
      await parts.stop();
    },
  };
}

export function tagged(parents: Uint8Array[], tag: string): Block {
  return {
    protocolVersion: 2,
    parents: [...parents].sort(compareBytes),
    payload: { type: 5, tag: new TextEncoder().encode(tag), data: new Uint8Array(0) },
    nonce: 1n,
  };
}

/** A milestone signed with the genesis' coordinator keys (roots as given). */
export function signedMilestone(
  g: Genesis,
  draft: {
    index: number;
    timestamp: number;
    previousMilestoneId: Uint8Array;
    parents: Uint8Array[];
    inclusion: Uint8Array;
    applied: Uint8Array;
  },
): Block {
  const parents = [...draft.parents].sort(compareBytes);
  const unsigned: MilestonePayload = {
    type: 7,
    index: draft.index,
    timestamp: draft.timestamp,
    protocolVersion: 2,
    previousMilestoneId: draft.previousMilestoneId,
    parents,
    inclusionMerkleRoot: draft.inclusion,
    appliedMerkleRoot: draft.applied,
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
