/**
 * The bad requests of errors.test.ts, each with the status and the error message it must get: malformed bodies and
 * IDs, blocks that break the protocol's rules (raw and JSON), unsupported media types, protected and unlisted routes,
 * unknown data, a method not allowed.
 */
import { toHex0x } from '../../../src/core/bytes.ts';
import { hexOf, sortedParents, taggedData } from './support.ts';

export const RAW = 'application/vnd.iota.serializer-v1';
export const JSON_CT = 'application/json';

/** A name, the request (a path under /api/core/v2 and its init), the status and the error message it must get. */
export type ErrorCase = [string, () => [string, RequestInit], number, RegExp];

/** Raw v2 block bytes from parts, without any check (to build malformed blocks). */
function rawBlock(version: number, parents: Uint8Array[], payload: Uint8Array, nonce = 0n): Uint8Array {
  const out = new Uint8Array(2 + 32 * parents.length + 4 + payload.length + 8);
  const view = new DataView(out.buffer);
  out[0] = version;
  out[1] = parents.length;
  parents.forEach((p, i) => {
    out.set(p, 2 + 32 * i);
  });
  let at = 2 + 32 * parents.length;
  view.setUint32(at, payload.length, true);
  out.set(payload, at + 4);
  at += 4 + payload.length;
  view.setBigUint64(at, nonce, true);
  return out;
}

/** A tagged-data payload's bytes: type 5, u8 tag length, tag, u32 data length, data. */
function taggedBytes(type = 5, tag = 'e2e', data = 'x'): Uint8Array {
  const t = new TextEncoder().encode(tag);
  const d = new TextEncoder().encode(data);
  const out = new Uint8Array(4 + 1 + t.length + 4 + d.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, type, true);
  out[4] = t.length;
  out.set(t, 5);
  view.setUint32(5 + t.length, d.length, true);
  out.set(d, 9 + t.length);
  return out;
}

const id = (fill: number): Uint8Array => new Uint8Array(32).fill(fill);

/** A transaction payload whose only output has an unknown type (the rest is well-formed). */
function transactionWithOutputType(type: number): unknown {
  return {
    protocolVersion: 2,
    payload: {
      type: 6,
      essence: {
        type: 1,
        networkId: '1',
        inputsCommitment: '0x' + '00'.repeat(32),
        inputs: [{ type: 0, transactionId: '0x' + '11'.repeat(32), transactionOutputIndex: 0 }],
        outputs: [
          {
            type,
            amount: '1000000',
            unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: '0x' + '22'.repeat(32) } }],
          },
        ],
      },
      unlocks: [
        { type: 0, signature: { type: 0, publicKey: '0x' + '33'.repeat(32), signature: '0x' + '44'.repeat(64) } },
      ],
    },
  };
}

/** The cases, on the node's known block (its raw bytes) and tips, read when a request is made. */
export function errorCases(known: () => { raw: Uint8Array; tips: string[] }): ErrorCase[] {
  const post = (body: NonNullable<RequestInit['body']>, contentType?: string): RequestInit => ({
    method: 'POST',
    body,
    headers: contentType ? { 'content-type': contentType } : {},
  });
  const postJson = (block: unknown): RequestInit => post(JSON.stringify(block), JSON_CT);
  const parentIds = (): Uint8Array[] =>
    sortedParents(known().tips).map((t) => Uint8Array.from(Buffer.from(t.slice(2), 'hex')));

  return [
    [
      'malformed JSON body',
      () => ['/blocks', post('{"protocolVersion":2,', JSON_CT)],
      400,
      /^invalid data provided: .*malformed JSON/,
    ],
    ['JSON body that is not an object', () => ['/blocks', post('[1,2]', JSON_CT)], 400, /^invalid data provided: /],
    [
      'body that is not UTF-8',
      () => ['/blocks', post(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), JSON_CT)],
      400,
      /not valid UTF-8/,
    ],
    ['empty body', () => ['/blocks', post('', JSON_CT)], 400, /request body missing/],
    [
      'bad hex in a block ID',
      () => [`/blocks/0x${'zz'.repeat(32)}`, {}],
      400,
      /^invalid data provided: invalid block ID: .*invalid hex character "z"/,
    ],
    ['block ID without 0x', () => [`/blocks/${'ab'.repeat(32)}`, {}], 400, /without 0x prefix/],
    ['block ID of odd length', () => [`/blocks/0x${'a'.repeat(63)}`, {}], 400, /odd length/],
    [
      'bad hex in a JSON field',
      () => ['/blocks', postJson({ protocolVersion: 2, payload: { type: 5, tag: '0xzz', data: '0x00' } })],
      400,
      /^invalid data provided: .*payload\.tag: invalid hex/,
    ],
    ['block ID of 31 bytes', () => [`/blocks/0x${'ab'.repeat(31)}`, {}], 400, /expected 32 bytes, got 31/],
    [
      'block ID of 33 bytes (metadata)',
      () => [`/blocks/0x${'ab'.repeat(33)}/metadata`, {}],
      400,
      /expected 32 bytes, got 33/,
    ],
    [
      'transaction ID of 31 bytes',
      () => [`/transactions/0x${'ab'.repeat(31)}/included-block`, {}],
      400,
      /invalid transaction ID: .*expected 32 bytes, got 31/,
    ],
    [
      'v3 transaction ID of 32 bytes',
      () => [`/../v3/transactions/0x${'ab'.repeat(32)}/included-block`, {}],
      400,
      /invalid transaction ID: .*expected 36 bytes, got 32/,
    ],
    [
      'parent ID of 31 bytes in JSON',
      () => [
        '/blocks',
        postJson({
          protocolVersion: 2,
          parents: [`0x${'ab'.repeat(31)}`],
          payload: taggedData('e2e', 'x'),
          nonce: '0',
        }),
      ],
      400,
      /^invalid data provided: .*parents\[0\]: byte string of 31 bytes/,
    ],
    [
      'unknown payload type (JSON)',
      () => ['/blocks', postJson({ protocolVersion: 2, payload: { type: 99, tag: '0x00', data: '0x00' } })],
      400,
      /^invalid data provided: .*unknown payload type 99/,
    ],
    [
      'unknown payload type (raw)',
      () => ['/blocks', post(rawBlock(2, parentIds().slice(0, 1), taggedBytes(99)), RAW)],
      400,
      /^invalid data provided: .*unknown payload type 99/,
    ],
    [
      'unknown output type in a transaction (JSON)',
      () => ['/blocks', postJson(transactionWithOutputType(42))],
      400,
      /^invalid data provided: .*unknown output type 42/,
    ],
    [
      'too many parents (JSON, 9)',
      () => [
        '/blocks',
        postJson({
          protocolVersion: 2,
          parents: sortedParents(Array.from({ length: 9 }, (_, i) => toHex0x(id(i + 1)))),
          payload: taggedData('e2e', 'x'),
          nonce: '0',
        }),
      ],
      400,
      /^invalid data provided: .*parents: list has 9 entries, at most 8/,
    ],
    [
      'too many parents (raw, 9)',
      () => [
        '/blocks',
        post(
          rawBlock(
            2,
            Array.from({ length: 9 }, (_, i) => id(i + 1)),
            taggedBytes(),
          ),
          RAW,
        ),
      ],
      400,
      /^invalid data provided: .*parents count 9 is outside 0\.\.8/,
    ],
    [
      'unsorted parents (JSON)',
      () => [
        '/blocks',
        postJson({
          protocolVersion: 2,
          parents: [toHex0x(id(2)), toHex0x(id(1))],
          payload: taggedData('e2e', 'x'),
          nonce: '0',
        }),
      ],
      400,
      /^invalid data provided: .*parents are not in ascending lexical order/,
    ],
    [
      'unsorted parents (raw)',
      () => ['/blocks', post(rawBlock(2, [id(2), id(1)], taggedBytes()), RAW)],
      400,
      /^invalid data provided: .*parents are not in ascending lexical order/,
    ],
    [
      'duplicate parents (raw)',
      () => ['/blocks', post(rawBlock(2, [id(1), id(1)], taggedBytes()), RAW)],
      400,
      /^invalid data provided: .*parents are not unique/,
    ],
    [
      'block over 32768 bytes (raw)',
      () => ['/blocks', post(rawBlock(2, parentIds().slice(0, 1), taggedBytes(5, 'big', 'x'.repeat(32768))), RAW)],
      400,
      /^invalid data provided: .*32768/,
    ],
    [
      'block over 32768 bytes (JSON)',
      () => [
        '/blocks',
        postJson({ protocolVersion: 2, payload: { type: 5, tag: hexOf('big'), data: '0x' + '78'.repeat(32768) } }),
      ],
      400,
      /^invalid data provided: .*32768/,
    ],
    [
      'truncated raw block',
      () => ['/blocks', post(known().raw.subarray(0, known().raw.length - 3), RAW)],
      400,
      /^invalid data provided: .*need 8 bytes for nonce/,
    ],
    [
      'trailing bytes after a raw block',
      () => ['/blocks', post(new Uint8Array([...known().raw, 0]), RAW)],
      400,
      /^invalid data provided: .*1 trailing byte/,
    ],
    [
      'wrong protocol version (JSON)',
      () => ['/blocks', postJson({ protocolVersion: 3, payload: taggedData('e2e', 'x') })],
      400,
      /protocol version 3 differs from the node's 2/,
    ],
    [
      'wrong protocol version (raw)',
      () => ['/blocks', post(rawBlock(1, parentIds().slice(0, 1), taggedBytes()), RAW)],
      400,
      /protocol version 1/,
    ],
    [
      'wrong content type',
      () => ['/blocks', post('{}', 'text/plain')],
      415,
      /^invalid data provided: unsupported media type: Content-Type "text\/plain"/,
    ],
    ['no content type', () => ['/blocks', post(new Uint8Array([1]))], 415, /no Content-Type/],
    [
      'unlisted route (protected, no tokens)',
      () => ['/peers', {}],
      403,
      /^not available for public use: route .* is protected/,
    ],
    [
      'output ID of 33 bytes',
      () => [`/outputs/0x${'ab'.repeat(33)}`, {}],
      400,
      /^invalid data provided: invalid output ID: .*expected 34 bytes, got 33/,
    ],
    [
      'output index over 127',
      () => [`/outputs/0x${'ab'.repeat(32)}ff00/metadata`, {}],
      400,
      /^invalid data provided: output ID: output index 255 is outside 0\.\.127/,
    ],
    [
      'milestone index that is not a number',
      () => ['/milestones/by-index/one', {}],
      400,
      /^invalid data provided: invalid milestone index: one/,
    ],
    [
      'milestone index over u32',
      () => ['/milestones/by-index/4294967296/utxo-changes', {}],
      400,
      /^invalid data provided: invalid milestone index: 4294967296, out of range/,
    ],
    [
      'milestone ID of 31 bytes',
      () => [`/milestones/0x${'ab'.repeat(31)}`, {}],
      400,
      /^invalid data provided: invalid milestone ID: .*expected 32 bytes, got 31/,
    ],
    [
      'receipts of a bad migratedAt',
      () => ['/receipts/x', {}],
      400,
      /^invalid data provided: invalid migratedAt index: x/,
    ],
    [
      'unlisted route (outside /api)',
      () => ['/../../../metrics', {}],
      403,
      /^not available for public use: route \/metrics is not exposed/,
    ],
    [
      'unknown block',
      () => [`/blocks/${toHex0x(id(0xee))}`, {}],
      404,
      /^could not find data: block not found: 0x(ee){32}$/,
    ],
    [
      'unknown block (raw)',
      () => [`/blocks/${toHex0x(id(0xee))}`, { headers: { accept: RAW } }],
      404,
      /^could not find data: block not found/,
    ],
    [
      'unknown block metadata',
      () => [`/blocks/${toHex0x(id(0xee))}/metadata`, {}],
      404,
      /^could not find data: block not found/,
    ],
    [
      'included block of an unknown transaction',
      () => [`/transactions/${toHex0x(id(0xee))}/included-block`, {}],
      404,
      /^could not find data: transaction not included: 0x/,
    ],
    [
      'included block metadata of an unknown transaction',
      () => [`/transactions/${toHex0x(id(0xee))}/included-block/metadata`, {}],
      404,
      /^could not find data: transaction not included: 0x/,
    ],
    [
      'v3 included block of an unknown transaction',
      () => [`/../v3/transactions/0x${'ee'.repeat(36)}/included-block`, {}],
      404,
      /^could not find data: transaction not included: 0x/,
    ],
    [
      'unknown output',
      () => [`/outputs/0x${'ee'.repeat(32)}0000`, {}],
      404,
      /^could not find data: output not found: 0x(ee){32}0000$/,
    ],
    [
      'unknown output (raw)',
      () => [`/outputs/0x${'ee'.repeat(32)}0000`, { headers: { accept: RAW } }],
      404,
      /^could not find data: output not found/,
    ],
    [
      'unknown milestone index',
      () => ['/milestones/by-index/4294967295', {}],
      404,
      /^could not find data: milestone index not found: 4294967295$/,
    ],
    [
      'unknown milestone ID',
      () => [`/milestones/${toHex0x(id(0xee))}/utxo-changes`, {}],
      404,
      /^could not find data: milestone not found: 0x(ee){32}$/,
    ],
    ['treasury of a network without one', () => ['/treasury', {}], 404, /^could not find data: no treasury output/],
    [
      'method not allowed',
      () => [`/blocks/${'0x' + 'ab'.repeat(32)}`, { method: 'DELETE' }],
      405,
      /^invalid data provided: method DELETE is not allowed/,
    ],
  ];
}
