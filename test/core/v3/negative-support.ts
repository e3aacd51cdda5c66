/** Hand-made v3 bytes for the binary rejection tests: the vectors they patch, patch and splice helpers, raw outputs. */
import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import type { ProtocolError } from '../../../src/core/errors.ts';
import * as V3 from '../../../src/core/v3/index.ts';
import { encodeKind } from '../../../src/core/v3/codec/binary.ts';
import { FEATURE, UNLOCK_CONDITION } from '../../../src/core/v3/codec/layouts.ts';
import { blocks, hex, params, protocolError, transactions, type Any } from './helpers.ts';

export const taggedBlock = hex(blocks.vectors[0].bytes); // layout annotated in docs/protocol.md §V3.5
export const txPayload = hex(transactions.vectors[0].bytes); // layout annotated in docs/protocol.md §V5.6
export const decodeBlock = (b: Uint8Array) => V3.decodeBlockV3(b, params);

export function patched(bytes: Uint8Array, at: number, ...values: number[]): Uint8Array {
  const out = bytes.slice();
  values.forEach((v, i) => {
    out[at + i] = v;
  });
  return out;
}
export function spliced(bytes: Uint8Array, at: number, remove: number, insert: Uint8Array | number[]): Uint8Array {
  return concatBytes(bytes.subarray(0, at), Uint8Array.from(insert), bytes.subarray(at + remove));
}
export const u32le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
export const u64le = (n: bigint) => Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
export const feature = (f: Any) => encodeKind({ k: 'union', family: FEATURE }, f, 'feature');
export const condition = (c: Any) => encodeKind({ k: 'union', family: UNLOCK_CONDITION }, c, 'uc');
export const ed25519 = { type: 0, pubKeyHash: new Uint8Array(32).fill(7) };
export const addressUc = condition({ type: 0, address: ed25519 });

/** A basic output assembled by hand (so invalid combinations can be produced). */
export function rawBasic(ucs: Uint8Array[], features: Uint8Array[]): Uint8Array {
  return concatBytes(
    Uint8Array.of(0),
    Uint8Array.from(u64le(1000n)),
    Uint8Array.from(u64le(0n)),
    Uint8Array.of(ucs.length),
    ...ucs,
    Uint8Array.of(features.length),
    ...features,
  );
}

/** Asserts the ProtocolError `fn` throws: its code and, when given, a part of its message. */
export function expectCode(fn: () => unknown, code: string, messagePart?: RegExp): ProtocolError {
  const e = protocolError(fn);
  expect(e.code, e.message).to.equal(code);
  if (messagePart) expect(e.message).to.match(messagePart);
  return e;
}
