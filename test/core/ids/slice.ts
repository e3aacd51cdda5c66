/**
 * Test-only slicing of real block bytes, so that the byte-level ID functions can be checked against real data without
 * the codec. It reads only what IDs need (block payload, transaction inputs, essence/unlocks boundary, milestone
 * essence) and asserts the framing it relies on; it is not a decoder.
 */
import { fromHex } from '../../../src/core/bytes.ts';

export interface SlicedBlock {
  parents: Uint8Array[];
  /** The payload bytes from the u32 payload type (the length prefix removed); undefined when there is none. */
  payload?: Uint8Array;
  payloadType?: number;
}

function u16(b: Uint8Array, o: number): number {
  return b[o]! | (b[o + 1]! << 8);
}
function u32(b: Uint8Array, o: number): number {
  return (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
}

export function sliceBlock(bytes: Uint8Array | string): SlicedBlock {
  const b = typeof bytes === 'string' ? fromHex(bytes) : bytes;
  const n = b[1]!;
  const parents: Uint8Array[] = [];
  for (let i = 0; i < n; i++) parents.push(b.slice(2 + 32 * i, 2 + 32 * (i + 1)));
  const at = 2 + 32 * n;
  const len = u32(b, at);
  if (at + 4 + len + 8 !== b.length)
    throw new Error(`block framing: payload length ${len} does not leave exactly 8 nonce bytes`);
  if (len === 0) return { parents };
  const payload = b.slice(at + 4, at + 4 + len);
  return { parents, payload, payloadType: u32(payload, 0) };
}

export interface SlicedInput {
  transactionId: Uint8Array;
  index: number;
  /** The 34-byte output ID as it appears in the input (tx ID ‖ u16 LE index). */
  outputId: Uint8Array;
}

export interface SlicedTransaction {
  inputs: SlicedInput[];
  inputsCommitment: Uint8Array;
  /** Serialized essence (from the essence type byte through the essence payload). */
  essence: Uint8Array;
  /** Signature unlocks by unlock position. */
  signatureUnlocks: { position: number; publicKey: Uint8Array; signature: Uint8Array }[];
}

/** Parses unlocks from `from` to the end strictly; returns undefined when they do not fit exactly. */
function tryUnlocks(tx: Uint8Array, from: number, count: number): SlicedTransaction['signatureUnlocks'] | undefined {
  if (from + 2 > tx.length || u16(tx, from) !== count) return undefined;
  let o = from + 2;
  const sigs: SlicedTransaction['signatureUnlocks'] = [];
  for (let i = 0; i < count; i++) {
    const type = tx[o];
    if (type === 0) {
      if (tx[o + 1] !== 0 || o + 98 > tx.length) return undefined;
      sigs.push({ position: i, publicKey: tx.slice(o + 2, o + 34), signature: tx.slice(o + 34, o + 98) });
      o += 98;
    } else if (type === 1 || type === 2 || type === 3) {
      o += 3;
    } else {
      return undefined;
    }
  }
  return o === tx.length ? sigs : undefined;
}

/** Slices a transaction payload (starting with 06000000). The essence/unlocks boundary must be unambiguous. */
export function sliceTransaction(tx: Uint8Array): SlicedTransaction {
  if (u32(tx, 0) !== 6 || tx[4] !== 1) throw new Error('not a transaction payload with a regular essence');
  const count = u16(tx, 13);
  const inputs: SlicedInput[] = [];
  let o = 15;
  for (let i = 0; i < count; i++, o += 35) {
    if (tx[o] !== 0) throw new Error(`input ${i} is not a UTXO input`);
    inputs.push({ transactionId: tx.slice(o + 1, o + 33), index: u16(tx, o + 33), outputId: tx.slice(o + 1, o + 35) });
  }
  const inputsCommitment = tx.slice(o, o + 32);
  const candidates: { boundary: number; sigs: SlicedTransaction['signatureUnlocks'] }[] = [];
  for (let s = 0; s <= count; s++) {
    const boundary = tx.length - (2 + 98 * s + 3 * (count - s));
    if (boundary <= o + 32) continue;
    const sigs = tryUnlocks(tx, boundary, count);
    if (sigs && sigs.length === s) candidates.push({ boundary, sigs });
  }
  if (candidates.length !== 1) throw new Error(`ambiguous essence/unlocks boundary: ${candidates.length} candidates`);
  const { boundary, sigs } = candidates[0]!;
  return { inputs, inputsCommitment, essence: tx.slice(4, boundary), signatureUnlocks: sigs };
}

/** Length of the milestone essence that starts at `o` (Index ... Options), read field by field. */
function milestoneEssenceEnd(ms: Uint8Array, o: number): number {
  o += 4 + 4 + 1 + 32; // index, timestamp, protocol version, previous milestone ID
  o += 1 + 32 * ms[o]!; // parents
  o += 64; // inclusion + applied Merkle roots
  o += 2 + u16(ms, o); // metadata
  const options = ms[o++]!;
  for (let i = 0; i < options; i++) {
    const type = ms[o]!;
    if (type === 0) {
      // receipt: type, migratedAt u32, final u8, funds (u16 count of 49 + 33 + 8 bytes), u32-length-prefixed treasury
      // tx
      const funds = u16(ms, o + 6);
      o += 8 + funds * (49 + 33 + 8);
      o += 4 + u32(ms, o);
    } else if (type === 1) {
      // protocol parameters: type, target index u32, protocol version u8, (u16) params
      o += 6;
      o += 2 + u16(ms, o);
    } else {
      throw new Error(`unknown milestone option type ${type}`);
    }
  }
  return o;
}

/** Slices a milestone payload (starting with 07000000) into its essence and signatures. */
export function sliceMilestone(ms: Uint8Array): {
  essence: Uint8Array;
  signatures: { publicKey: Uint8Array; signature: Uint8Array }[];
} {
  if (u32(ms, 0) !== 7) throw new Error('not a milestone payload');
  const end = milestoneEssenceEnd(ms, 4);
  const count = ms[end]!;
  if (end + 1 + 97 * count !== ms.length)
    throw new Error(`milestone framing: ${count} signatures do not end the payload`);
  const signatures = [];
  for (let i = 0; i < count; i++) {
    const s = end + 1 + 97 * i;
    if (ms[s] !== 0) throw new Error(`milestone signature ${i} is not Ed25519`);
    signatures.push({ publicKey: ms.slice(s + 1, s + 33), signature: ms.slice(s + 33, s + 97) });
  }
  return { essence: ms.slice(4, end), signatures };
}
