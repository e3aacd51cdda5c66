/**
 * Protobuf-aware mutations for the gRPC fuzz (harness/fuzz/grpc.ts): a message's top-level fields are read off the wire
 * and one of them gets a hostile payload (invalid UTF-8; an emoji then NUL, whose JSON parse error message quotes half
 * of a surrogate pair; NUL and control characters; IDs one byte off, of 20 KB and of 1 MB; long strings), or a field
 * is added, repeated, re-typed or set to an extreme varint, a nested message is mutated in turn, or the whole message
 * is mutated as bytes (harness/fuzz/mutate.ts). Every choice comes from the seeded Rng, so a seed replays its case.
 */
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { BYTE_MUTATIONS, mutateBytes, type Rng } from './mutate.ts';

/** One top-level field as it lies on the wire: its number and type, its span, and a LEN field's payload. */
export interface WireField {
  no: number;
  type: WireType;
  start: number;
  end: number;
  payload?: Uint8Array;
}

/** The top-level fields of `bytes`, or undefined when the bytes are no protobuf message. */
export function wireFields(bytes: Uint8Array): WireField[] | undefined {
  const reader = new BinaryReader(bytes);
  const fields: WireField[] = [];
  try {
    while (reader.pos < reader.len) {
      const start = reader.pos;
      const [no, type] = reader.tag();
      if (type === WireType.LengthDelimited) fields.push({ no, type, start, payload: reader.bytes(), end: reader.pos });
      else {
        reader.skip(type, no);
        fields.push({ no, type, start, end: reader.pos });
      }
    }
  } catch {
    return undefined;
  }
  return fields;
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const join = (...parts: (Uint8Array | number[])[]): Uint8Array => Buffer.concat(parts.map((p) => Uint8Array.from(p)));
const EMOJI = [0xf0, 0x9f, 0x98, 0x80];

/** Byte sequences that are no UTF-8: a bad continuation, stray continuations, an encoded surrogate, overlong forms. */
const INVALID_UTF8 = [
  [0xc3, 0x28],
  [0xa0, 0xa1],
  [0xed, 0xa0, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xff, 0xfe],
  [0xc0, 0xaf],
];
const CONTROL = ['\u0000', '\u0001', '\u0007', '\b', '\n', '\r\n', '\u001b[2J', '\u007f', '\u2028', '\ufeff'];

export const PAYLOAD_KINDS = [
  'surrogate',
  'invalidUtf8',
  'control',
  'nearLength',
  'id20k',
  'id1m',
  'long',
  'empty',
  'random',
] as const;
export type PayloadKind = (typeof PAYLOAD_KINDS)[number];

/** `n` bytes of `like` repeated (0xab when it is empty): an oversized ID that still looks like one. */
export function oversized(like: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n).fill(0xab);
  for (let o = 0; like.length > 0 && o < n; o += like.length) out.set(like.subarray(0, n - o), o);
  return out;
}

/** A hostile payload for a string or bytes field; `like` is the payload it replaces (a real ID gets near misses). */
export function hostilePayload(rng: Rng, kind: PayloadKind, like: Uint8Array = new Uint8Array(0)): Uint8Array {
  switch (kind) {
    case 'surrogate': {
      // JSON.parse's error message quotes the text around the error, cut by UTF-16 units: a pair may be halved
      const prefix = text('x'.repeat(rng.pick([0, 1, 2, 7, 31, 60, 200])));
      const emojis = Array.from({ length: 1 + rng.int(rng.bool(0.7) ? 2 : 40) }, () => EMOJI);
      return join(prefix, ...emojis, rng.pick([[0x00], [0x01], [0x0a], [0x7f], [0x22], [0x5c], [], EMOJI.slice(0, 3)]));
    }
    case 'invalidUtf8': {
      const at = rng.int(like.length + 1);
      return join(like.subarray(0, at), rng.pick(INVALID_UTF8), like.subarray(at));
    }
    case 'control':
      return join(text('a'), text(rng.pick(CONTROL)), text(rng.bool(0.5) ? 'b' : ''));
    case 'nearLength': {
      if (like.length === 0) return join(Array.from({ length: rng.pick([31, 33, 35, 37]) }, () => rng.int(256)));
      const shorter = like.slice(0, like.length - 1 - rng.int(Math.min(like.length, 4)));
      return rng.bool(0.5) ? shorter : join(like, [rng.int(256)]);
    }
    case 'id20k':
      return oversized(like, 20_000);
    case 'id1m':
      return oversized(like, 1 << 20);
    case 'long':
      return text(rng.pick(['x', '\u{1f600}', '\u00e9', '\u0000']).repeat(rng.pick([5000, 70_000])));
    case 'empty':
      return new Uint8Array(0);
    case 'random':
      return join(Array.from({ length: 1 + rng.int(64) }, () => rng.int(256)));
  }
}

/** Payload kinds weighted so that the oversized ones (slow to send and to refuse) come up about one case in 15. */
function payloadKind(rng: Rng): PayloadKind {
  if (rng.bool(0.07)) return rng.bool(0.7) ? 'id20k' : 'id1m';
  return rng.pick(PAYLOAD_KINDS.filter((k) => k !== 'id20k' && k !== 'id1m'));
}

const lenField = (no: number, payload: Uint8Array): Uint8Array =>
  new BinaryWriter().tag(no, WireType.LengthDelimited).bytes(payload).finish();

/** `bytes` with field `f` (one of its wireFields) replaced by a LEN field of the same number carrying `payload`. */
export function replacePayload(bytes: Uint8Array, f: WireField, payload: Uint8Array): Uint8Array {
  return join(bytes.subarray(0, f.start), lenField(f.no, payload), bytes.subarray(f.end));
}

/** Varints at the edges of u32, i32 (negative: ten bytes on the wire) and u64. */
const EXTREME_VARINTS = [0n, 1n, 127n, 128n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n];

/** What mutateMessage may do; a hostile payload in an existing field twice as often as the rest. */
export const MESSAGE_MUTATIONS = [
  'payload',
  'payload',
  'nested',
  'add',
  'duplicate',
  'varint',
  'wireType',
  'bytes',
] as const;

/** One mutation of an encoded message; `mutation` names what was done (for the failure report). */
export function mutateMessage(rng: Rng, bytes: Uint8Array, depth = 0): { bytes: Uint8Array; mutation: string } {
  const fields = wireFields(bytes) ?? [];
  const len = fields.filter((f) => f.payload !== undefined);
  const numbers = [...new Set([...fields.map((f) => f.no), 1, 2, 3, 4, 5, 8, 16, 536_870_911])];
  const kind = rng.pick(MESSAGE_MUTATIONS);
  if ((kind === 'payload' || kind === 'nested') && len.length > 0) {
    const f = rng.pick(len);
    const inner = wireFields(f.payload!);
    if (kind === 'nested' && depth < 3 && inner !== undefined && inner.length > 0) {
      const m = mutateMessage(rng, f.payload!, depth + 1);
      return { bytes: replacePayload(bytes, f, m.bytes), mutation: `in field ${f.no}: ${m.mutation}` };
    }
    const pk = payloadKind(rng);
    return { bytes: replacePayload(bytes, f, hostilePayload(rng, pk, f.payload)), mutation: `field ${f.no} ${pk}` };
  }
  if (kind === 'duplicate' && fields.length > 0) {
    const f = rng.pick(fields);
    return { bytes: join(bytes, bytes.subarray(f.start, f.end)), mutation: `field ${f.no} repeated` };
  }
  if (kind === 'varint') {
    const no = rng.pick(numbers);
    const v = rng.bool(0.2) ? -1n : rng.pick(EXTREME_VARINTS);
    const w = new BinaryWriter().tag(no, WireType.Varint);
    const field = (v < 0n ? w.int64(v) : w.uint64(v)).finish();
    return { bytes: join(bytes, field), mutation: `varint field ${no} = ${v}` };
  }
  if (kind === 'wireType' && fields.length > 0) {
    const f = rng.pick(fields);
    const type = rng.int(8);
    const tag = new BinaryWriter().uint32(((f.no << 3) | type) >>> 0).finish();
    const old = new BinaryReader(bytes.subarray(f.start));
    old.uint32(); // the field's own tag, whatever its length on the wire
    const retyped = join(bytes.subarray(0, f.start), tag, bytes.subarray(f.start + old.pos));
    return { bytes: retyped, mutation: `field ${f.no} wire type ${f.type} -> ${type}` };
  }
  if (kind === 'bytes') {
    const bm = rng.pick(BYTE_MUTATIONS);
    return { bytes: mutateBytes(rng, bytes, [], bm), mutation: `bytes ${bm}` };
  }
  // 'add', and the fallback of a mutation the message has no field for
  const no = rng.pick(numbers);
  const pk = payloadKind(rng);
  return { bytes: join(bytes, lenField(no, hostilePayload(rng, pk))), mutation: `added field ${no} ${pk}` };
}

/** Hex of a request for a report: all of it up to 64 bytes, else its start and its length. */
export function hexPreview(bytes: Uint8Array, max = 64): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, max)).toString('hex');
  return bytes.length <= max ? hex : `${hex}... (${bytes.length} bytes)`;
}
