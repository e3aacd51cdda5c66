/**
 * The node service tests' node and blocks: a node with real PoW (harness/node.ts `startTestNode`), the client's calls
 * as promises, tagged-data blocks and hand-built raw ones.
 */
import { concatBytes, toHex0x } from '../../../src/core/bytes.ts';
import type { Block } from '../../../src/core/model/index.ts';
import { BlockView, type NodeServiceClient } from '../../../src/grpc/gen/node.ts';
import { blockToProto } from '../../../src/grpc/mapping.ts';
import { createMiner } from '../../../src/node/pow/miner.ts';
import { createPowQueue, type PowQueue } from '../../../src/node/pow/queue.ts';
import { startTestNode, type TestNode } from '../../../harness/node.ts';
import { call } from '../support.ts';

export const MIN_SCORE = 10; // a few thousand hashes: real PoW that takes milliseconds
const enc = new TextEncoder();

export function tagged(text: string, parents: Uint8Array[] = [], nonce = 0n): Block {
  return {
    protocolVersion: 2,
    parents,
    payload: { type: 5, tag: enc.encode('node-test'), data: enc.encode(text) },
    nonce,
  };
}

/** Hand-built raw block: version, parent count + parents as given (no checks), payload bytes, nonce. */
export function rawBlock(version: number, parents: Uint8Array[], payload: Uint8Array, nonce = 0n): Uint8Array {
  const n = new Uint8Array(8);
  new DataView(n.buffer).setBigUint64(0, nonce, true);
  const len = new Uint8Array(4);
  new DataView(len.buffer).setUint32(0, payload.length, true);
  return concatBytes(Uint8Array.of(version, parents.length), ...parents, len, payload, n);
}

/** A decoded message without its unset optional fields (grpc-js leaves them as undefined keys). */
export function defined<T>(v: T): T {
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || Array.isArray(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => [k, defined(x)]),
  ) as T;
}

export const id = (seed: number): Uint8Array => new Uint8Array(32).fill(seed);

/** The client's calls, on the client `client()` answers when called. */
export function api(client: () => NodeServiceClient) {
  return {
    submitJson: (json: string) =>
      call(client(), 'submitBlock', { block: { $case: 'json', value: json } }).then((r) => r.blockId),
    submitRaw: (raw: Uint8Array) =>
      call(client(), 'submitBlock', { block: { $case: 'raw', value: raw } }).then((r) => r.blockId),
    submitBlock: (b: Block) =>
      call(client(), 'submitBlock', { block: { $case: 'structured', value: blockToProto(b) } }).then((r) => r.blockId),
    get: (blockId: Uint8Array, view = BlockView.BLOCK_VIEW_UNSPECIFIED) =>
      call(client(), 'getBlock', { blockId, view }),
    meta: (blockId: Uint8Array) => call(client(), 'getBlockMetadata', { blockId }),
    tips: () => call(client(), 'getTips', { allowSemiLazy: false }).then((r) => r.tips.map(toHex0x)),
    info: () => call(client(), 'getInfo', {}),
  };
}

/**
 * A node mining at MIN_SCORE on a one-worker miner for the suite: started before its tests (the object is filled in
 * then), closed after them.
 */
export function nodeWithPow(): { node: TestNode } {
  const held = {} as { node: TestNode };
  let pow: PowQueue | undefined;
  before(async () => {
    pow = createPowQueue(createMiner({ workers: 1, chunk: 2048 }), { limit: 4 });
    held.node = await startTestNode({ minPowScore: MIN_SCORE, pow });
  });
  after(async () => {
    await held.node?.close();
    await pow?.close();
  });
  return held;
}
