/**
 * Fuzzing a running node's gRPC doors (project issue 22), the NodeService: every method (taken from the generated
 * service definition, so a new method is fuzzed without a change here) gets valid-looking requests built with the
 * generated message types around real IDs of the node (discover), mutated on the wire (grpc-wire.ts) and sent as raw
 * bytes (grpc-harness.ts RawDoor); plus fixed cases: the requests that once crashed the node, and oversized IDs on
 * every method that takes one. The mux and the peer service are in grpc-mux.ts and grpc-peer.ts. Used by
 * grpc.test.ts and `scripts/fuzz.ts --grpc HOST:PORT`; a failure names the target, the seed, the mutation and the
 * request's hex.
 */
import { status as Status } from '@grpc/grpc-js';
import { NodeServiceService, type BlockResponse } from '../../src/grpc/gen/node.ts';
import { WIRE_NAME, type NodeServiceMethod } from '../../src/grpc/mux.ts';
import { loadTargets } from './targets.ts';
import { mutateJson, Rng } from './mutate.ts';
import { freshAfterFailure, judge, type FuzzCase, type RawDoor, type Verdict } from './grpc-harness.ts';
import { mutateMessage, oversized, replacePayload, wireFields } from './grpc-wire.ts';

export type { NodeServiceMethod };

type Definition = typeof NodeServiceService;
type RequestOf<M extends NodeServiceMethod> = Parameters<Definition[M]['requestSerialize']>[0];
type ResponseOf<M extends NodeServiceMethod> = ReturnType<Definition[M]['responseDeserialize']>;
interface LooseDefinition {
  path: string;
  requestSerialize(v: unknown): Buffer;
  requestDeserialize(b: Buffer): Record<string, unknown>;
}
const loose = (m: NodeServiceMethod): LooseDefinition => NodeServiceService[m] as unknown as LooseDefinition;

/** Every NodeService method, in the order of the generated definition. */
export const NODE_METHODS = Object.keys(NodeServiceService) as NodeServiceMethod[];
export const targetOf = (m: NodeServiceMethod): string => `NodeService/${WIRE_NAME[m]}`;

/** The request's bytes: `partial` over the message's defaults, encoded by the method's generated serializer. */
export function encodeRequest(method: NodeServiceMethod, partial: object): Uint8Array {
  const def = loose(method);
  return def.requestSerialize({ ...def.requestDeserialize(Buffer.alloc(0)), ...partial });
}

/** A typed call (discovery, probes): the answer decoded, or an Error with the status. */
export async function callTyped<M extends NodeServiceMethod>(
  door: RawDoor,
  m: M,
  req: Partial<RequestOf<M>>,
): Promise<ResponseOf<M>> {
  const { answer, response } = await door.call(loose(m).path, encodeRequest(m, req));
  if (!response) throw new Error(`${WIRE_NAME[m]}: ${Status[answer.code]} ${answer.details}`);
  return NodeServiceService[m].responseDeserialize(response) as ResponseOf<M>;
}

/** Real IDs and values of the node under fuzz, around which the valid-looking requests are built. */
export interface Known {
  blockId: Uint8Array;
  /** The known block as GetBlock answers it: raw, TIP-25 JSON and structured. */
  block: BlockResponse;
  milestoneIndex: number;
  milestoneId: Uint8Array;
  outputId: Uint8Array;
  transactionId: Uint8Array;
  faucetAddress: string;
  nodeId: string;
  networkName: string;
}

/** Submits a tagged-data block (the node selects its parents and does any proof of work) and answers its ID. */
export async function submitKnownBlock(door: RawDoor): Promise<Uint8Array> {
  const json = JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x66757a7a', data: '0x01' } });
  return (await callTyped(door, 'submitBlock', { block: { $case: 'json', value: json } })).blockId;
}

/** Asks the node for its real IDs; `blockId`: a block known to be there (else one of its tips, else a new one). */
export async function discover(door: RawDoor, blockId?: Uint8Array): Promise<Known> {
  const info = await callTyped(door, 'getInfo', {});
  const tips = blockId ? [blockId] : ((await callTyped(door, 'getTips', {}).catch(() => undefined))?.tips ?? []);
  let block: BlockResponse | undefined;
  for (const tip of tips) block ??= await callTyped(door, 'getBlock', { blockId: tip }).catch(() => undefined);
  const id = block ? block.blockId : await submitKnownBlock(door);
  block ??= await callTyped(door, 'getBlock', { blockId: id });
  const confirmed = info.status?.confirmedMilestone;
  const items = await callTyped(door, 'queryOutputs', { route: 'basic', parameters: [] })
    .then((r) => (JSON.parse(r.json) as { items: string[] }).items)
    .catch(() => []);
  const outputId = items[0] ? Buffer.from(items[0].slice(2), 'hex') : oversized(id, 34);
  const faucet = await callTyped(door, 'faucetInfo', {}).catch(() => undefined);
  return {
    blockId: id,
    block,
    milestoneIndex: confirmed?.index ?? 1,
    milestoneId: confirmed?.milestoneId ?? id,
    outputId,
    transactionId: outputId.subarray(0, 32),
    faucetAddress: faucet?.address ?? 'rms1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq8fuzz',
    nodeId: Buffer.from(info.identity?.nodeId ?? []).toString('hex'),
    networkName: info.protocol?.networkName ?? '',
  };
}

/** Blocks of the test vectors for the submissions (JSON as parsed values; v3 also as bytes). */
export interface BlockCorpus {
  v2Json: unknown[];
  v3Raw: Uint8Array[];
  v3Json: unknown[];
}

let corpus: BlockCorpus | undefined;
export function blockCorpus(): BlockCorpus {
  if (corpus) return corpus;
  const of = (name: string) => loadTargets().find((t) => t.name === name)!.corpus;
  corpus = {
    v2Json: of('v2 blockFromJson (submission)'),
    v3Raw: of('v3 decodeBlockV3') as Uint8Array[],
    v3Json: of('v3 blockFromJsonV3'),
  };
  return corpus;
}

type Seeds = { [M in NodeServiceMethod]?: (k: Known, rng: Rng, c: BlockCorpus) => Partial<RequestOf<M>>[] };

const hex0x = (id: Uint8Array): string => `0x${Buffer.from(id).toString('hex')}`;
/** A v3 ID of the same hash: 32 bytes ‖ slot index 0. */
const v3Id = (id: Uint8Array): Uint8Array => Buffer.concat([id, new Uint8Array(4)]);
const ROUTES = ['outputs', 'basic', 'alias', 'foundry', 'nft'];

/** Valid-looking requests per method; a method missing here still gets the generic one (requestsFor). */
const SEEDS: Seeds = {
  getBlock: (k, rng) => [{ blockId: k.blockId, view: rng.int(4) }],
  getBlockMetadata: (k) => [{ blockId: k.blockId }],
  submitBlock: (k, rng, c) => [
    { block: { $case: 'raw', value: k.block.raw } },
    { block: { $case: 'json', value: k.block.json } },
    ...(k.block.block ? [{ block: { $case: 'structured' as const, value: k.block.block } }] : []),
    { block: { $case: 'json', value: JSON.stringify(mutateJson(rng, rng.pick(c.v2Json))) ?? 'null' } },
  ],
  getIncludedBlock: (k, rng) => [{ transactionId: k.transactionId, view: rng.int(4) }],
  getIncludedBlockMetadata: (k, rng) => [{ transactionId: k.transactionId, view: rng.int(4) }],
  getIncludedBlockV3: (k, rng) => [{ transactionId: v3Id(k.transactionId), view: rng.int(4) }],
  submitBlockV3: (_k, rng, c) => [
    { block: { $case: 'raw', value: rng.pick(c.v3Raw) } },
    { block: { $case: 'json', value: JSON.stringify(rng.pick(c.v3Json)) } },
  ],
  getBlockV3: (k, rng) => [{ blockId: v3Id(k.blockId), view: rng.int(4) }],
  getBlockMetadataV3: (k) => [{ blockId: v3Id(k.blockId) }],
  getTips: (_k, rng) => [{ allowSemiLazy: rng.bool() }],
  getOutput: (k, rng) => [{ outputId: k.outputId, view: rng.int(4) }],
  getOutputMetadata: (k) => [{ outputId: k.outputId }],
  getMilestone: (k, rng) => [
    { milestone: { $case: 'index', value: k.milestoneIndex }, view: rng.int(4) },
    { milestone: { $case: 'milestoneId', value: k.milestoneId }, view: rng.int(4) },
  ],
  getMilestoneUtxoChanges: (k) => [
    { milestone: { $case: 'index', value: k.milestoneIndex } },
    { milestone: { $case: 'milestoneId', value: k.milestoneId } },
  ],
  getReceipts: () => [{ migratedAt: 1 }, {}],
  queryOutputs: (k, rng) => [
    {
      route: rng.pick(ROUTES),
      parameters: [
        { name: 'address', value: k.faucetAddress },
        { name: 'pageSize', value: '10' },
      ],
    },
    {
      route: 'outputs',
      parameters: [
        { name: 'hasNativeTokens', value: 'true' },
        { name: 'cursor', value: `${Buffer.from(k.outputId).toString('hex')}.10` },
      ],
    },
  ],
  getChainOutput: (k, rng) => [
    { kind: 1 + rng.int(2), id: k.blockId },
    { kind: 3, id: Buffer.concat([k.outputId, new Uint8Array(4)]) },
  ],
  getExplorerBalance: (k) => [{ subject: { $case: 'address', value: k.faucetAddress }, parameters: [] }],
  getLedgerUpdatesByAddress: (k) => [
    {
      subject: { $case: 'address', value: k.faucetAddress },
      parameters: [
        { name: 'pageSize', value: '2' },
        { name: 'sort', value: 'oldest' },
        { name: 'cursor', value: `${k.milestoneIndex}.0x${Buffer.from(k.outputId).toString('hex')}.false.2` },
      ],
    },
  ],
  getLedgerUpdatesByMilestone: (k) => [
    { subject: { $case: 'milestoneId', value: k.milestoneId }, parameters: [{ name: 'pageSize', value: '5' }] },
  ],
  getMilestoneBlocks: (k) => [
    { subject: { $case: 'milestoneIndex', value: k.milestoneIndex }, parameters: [{ name: 'cursor', value: '0.5' }] },
  ],
  getBlockChildren: (k) => [{ subject: { $case: 'blockId', value: k.blockId }, parameters: [] }],
  explorerSearch: (k) =>
    [String(k.milestoneIndex), hex0x(k.blockId), hex0x(k.transactionId), hex0x(k.outputId), k.faucetAddress].map(
      (value) => ({ subject: { $case: 'text' as const, value }, parameters: [] }),
    ),
  faucetEnqueue: (k) => [{ address: k.faucetAddress, client: '127.0.0.1' }],
  getPeer: (k) => [{ peerId: k.nodeId }, { peerId: '127.0.0.1:1' }],
  addPeer: () => [{ address: '127.0.0.1:1', alias: 'fuzz' }, { address: '/ip4/127.0.0.1/tcp/1' }],
  removePeer: (k) => [{ peerId: k.nodeId }, { peerId: '127.0.0.1:1' }],
  pruneDatabase: () => [
    { target: { $case: 'index', value: 1 } },
    { target: { $case: 'depth', value: 1 } },
    { target: { $case: 'targetDatabaseSize', value: '1GB' } },
  ],
  createSnapshot: (k) => [{ index: k.milestoneIndex }],
};

/** The method's default message with every scalar field filled (IDs with the known block's): fits any method. */
function genericRequest(method: NodeServiceMethod, k: Known): object {
  const fields = loose(method).requestDeserialize(Buffer.alloc(0));
  for (const [key, v] of Object.entries(fields)) {
    if (v instanceof Uint8Array) fields[key] = k.blockId;
    else if (typeof v === 'string') fields[key] = k.faucetAddress;
    else if (typeof v === 'number') fields[key] = 1;
    else if (typeof v === 'boolean') fields[key] = true;
  }
  return fields;
}

/** The valid-looking requests of a method, encoded. */
export function requestsFor(method: NodeServiceMethod, k: Known, rng: Rng, c: BlockCorpus): Uint8Array[] {
  const seeds = (SEEDS[method] as ((k: Known, rng: Rng, c: BlockCorpus) => object[]) | undefined)?.(k, rng, c) ?? [];
  return [...seeds, genericRequest(method, k)].map((r) => encodeRequest(method, r));
}

export interface UnaryCase extends FuzzCase {
  method: NodeServiceMethod;
}

/** The case `seed` of `method`: one of its valid-looking requests, mutated on the wire (now and then unmutated). */
export function unaryCase(method: NodeServiceMethod, seed: number, k: Known, c: BlockCorpus): UnaryCase {
  const rng = new Rng(seed);
  const base = rng.pick(requestsFor(method, k, rng, c));
  const m = rng.bool(0.05) ? { bytes: base, mutation: 'unmutated' } : mutateMessage(rng, base);
  return { target: targetOf(method), method, seed, ...m };
}

const fixed = (method: NodeServiceMethod, hex: string, why: string): UnaryCase => ({
  target: targetOf(method),
  method,
  seed: 0,
  mutation: why,
  bytes: Buffer.from(hex, 'hex'),
});

/** Requests that crashed the node (issue 22): the JSON parse error quoted a lone surrogate into the status details. */
export const CRASH_CASES: readonly UnaryCase[] = [
  fixed('submitBlock', '1a05f09f988000', 'fixed: json = an emoji then NUL'),
  fixed('submitBlockV3', '1205f09f988000', 'fixed: json = an emoji then NUL'),
];

/** The node's real IDs as the requests carry them (v2, v3 with slot 0, output, chain IDs), by hex. */
function knownIds(k: Known): Set<string> {
  const ids = [k.blockId, v3Id(k.blockId), k.milestoneId, k.outputId, k.transactionId, v3Id(k.transactionId)];
  return new Set([...ids, Buffer.concat([k.outputId, new Uint8Array(4)])].map((id) => Buffer.from(id).toString('hex')));
}

/** Every ID field of every method's valid-looking requests (a field carrying a real ID) at 20 KB and at 1 MB. */
export function oversizedIdCases(k: Known, c: BlockCorpus): UnaryCase[] {
  const ids = knownIds(k);
  const out: UnaryCase[] = [];
  for (const method of NODE_METHODS) {
    const seen = new Set<number>();
    for (const request of requestsFor(method, k, new Rng(0), c)) {
      for (const f of wireFields(request) ?? []) {
        if (!f.payload || !ids.has(Buffer.from(f.payload).toString('hex')) || seen.has(f.no)) continue;
        seen.add(f.no);
        for (const [size, name] of [
          [20_000, '20 KB'],
          [1 << 20, '1 MB'],
        ] as const) {
          const bytes = replacePayload(request, f, oversized(f.payload, size));
          const mutation = `fixed: field ${f.no}, a ${name} ID`;
          out.push({ target: targetOf(method), method, seed: 0, mutation, bytes });
        }
      }
    }
  }
  return out;
}

/**
 * Sends one NodeService case and judges the answer. A failed case leaves a fresh connection for the next one. A peer
 * that AddPeer really added is removed again (the node would dial it).
 */
export async function sendUnary(door: RawDoor, c: UnaryCase): Promise<Verdict> {
  const { answer, response } = await door.call(loose(c.method).path, c.bytes);
  if (c.method === 'addPeer' && response) {
    const peer = NodeServiceService.addPeer.responseDeserialize(response);
    await callTyped(door, 'removePeer', { peerId: peer.id }).catch(() => undefined);
  }
  return freshAfterFailure(door, judge(answer));
}
