/**
 * End-to-end helpers: tagged-data blocks, pre-mining with the node's own miner, an independent BLAKE2b-256 (noble)
 * for block IDs and the JSON error bodies. The node processes themselves come from harness/process.ts.
 */
import { blake2b } from '@noble/hashes/blake2.js';
import { concatBytes, toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockFromJson } from '../../../src/core/json/index.ts';
import { nonceToBytes, powScore } from '../../../src/core/pow/index.ts';
import { createMiner } from '../../../src/node/pow/miner.ts';

/** BLAKE2b-256 of the bytes as 0x-hex: the block ID of a block's serialized bytes (noble, not our own BLAKE2b). */
export function blake2b256Hex(bytes: Uint8Array): string {
  return toHex0x(blake2b(bytes, { dkLen: 32 }));
}

export const hexOf = (text: string): string => '0x' + Buffer.from(text, 'utf8').toString('hex');

/** A tagged-data payload in TIP-25 JSON. */
export function taggedData(tag: string, data: string): { type: number; tag: string; data: string } {
  return { type: 5, tag: hexOf(tag), data: hexOf(data) };
}

/** Parent IDs sorted and deduplicated as the protocol requires (lexical order of the bytes = of lower-case hex). */
export function sortedParents(ids: readonly string[]): string[] {
  return [...new Set(ids.map((i) => i.toLowerCase()))].sort();
}

/**
 * A v2 tagged-data block with the given parents, mined with the node's own miner (`tool pow` logic) to `score`.
 * Returns the bytes, the nonce as a decimal string and the block ID.
 */
export async function preMine(
  parents: readonly string[],
  payload: { type: number; tag: string; data: string },
  score: number,
  workers = 1,
): Promise<{ bytes: Uint8Array; nonce: string; blockId: string }> {
  const unmined = encodeBlock(
    blockFromJson({ protocolVersion: 2, parents: sortedParents(parents), payload, nonce: '0' }),
  );
  const body = unmined.subarray(0, unmined.length - 8);
  const miner = createMiner({ workers });
  try {
    const { nonce } = await miner.mine(body, score);
    const bytes = concatBytes(body, nonceToBytes(nonce));
    if (powScore(bytes) < score) throw new Error(`pre-mining failed: score ${powScore(bytes)} < ${score}`);
    return { bytes, nonce: nonce.toString(), blockId: blake2b256Hex(bytes) };
  } finally {
    await miner.close();
  }
}

export interface ErrorBody {
  error: { code: number; message: string };
}

/** A fetch that must answer with `status` and the JSON error body of that status. */
export async function expectError(url: string, init: RequestInit, status: number, message: RegExp): Promise<ErrorBody> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: ErrorBody;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: expected a JSON error body, ` +
        `got ${res.status} ${JSON.stringify(text.slice(0, 200))}`,
    );
  }
  if (res.status !== status || body.error?.code !== status || !message.test(body.error.message)) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: expected ${status} matching ${message}, got ${res.status} ${text.slice(0, 300)}`,
    );
  }
  return body;
}
