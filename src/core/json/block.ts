/**
 * Block (docs/protocol.md §2): `{ protocolVersion, parents, payload?, nonce }`.
 * `nonce` is accepted as a decimal string or a `0x` hex string and emitted as a decimal string (docs/decisions.md §3).
 * A submitted block (`submission: true`) may leave `parents` and `nonce` for the node to fill (docs/decisions.md §4).
 */
import { ID_LENGTH, LIMITS, type Block } from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { blockPayloadToJson, parseBlockPayload } from './payload.ts';
import {
  optional,
  readFixed,
  readList,
  readObject,
  readU64,
  readU64Hex,
  readU8,
  required,
  type JsonObject,
} from './read.ts';
import type { BlockJson } from './types.ts';
import { bytesToJson, u64ToJson } from './write.ts';

export interface BlockFromJsonOptions {
  /** A block POSTed to a node: missing/null/[] parents → [], missing/null/""/"0"/0 nonce → 0n. */
  submission?: boolean;
}

export function blockToJson(b: Block): BlockJson {
  return {
    protocolVersion: b.protocolVersion,
    parents: b.parents.map(bytesToJson),
    ...(b.payload !== undefined ? { payload: blockPayloadToJson(b.payload) } : {}),
    nonce: u64ToJson(b.nonce),
  };
}

function parseParents(o: JsonObject, p: JsonPath, submission: boolean): Uint8Array[] {
  const v = submission ? optional(o, 'parents') : required(o, 'parents', p);
  if (v === undefined) return [];
  return readList(v, p.key('parents'), LIMITS.parents.max, (e, ep) => readFixed(e, ep, ID_LENGTH));
}

function parseNonce(o: JsonObject, p: JsonPath, submission: boolean): bigint {
  const v = submission ? optional(o, 'nonce') : required(o, 'nonce', p);
  const at = p.key('nonce');
  if (v === undefined) return 0n;
  if (submission && (v === '' || v === 0)) return 0n;
  if (typeof v === 'string' && (v.startsWith('0x') || v.startsWith('0X'))) return readU64Hex(v, at);
  return readU64(v, at);
}

export function parseBlock(v: unknown, p: JsonPath, opts: BlockFromJsonOptions = {}): Block {
  const o = readObject(v, p);
  const submission = opts.submission === true;
  const block: Block = {
    protocolVersion: readU8(required(o, 'protocolVersion', p), p.key('protocolVersion')),
    parents: parseParents(o, p, submission),
    nonce: 0n,
  };
  const payload = optional(o, 'payload');
  if (payload !== undefined) block.payload = parseBlockPayload(payload, p.key('payload'));
  block.nonce = parseNonce(o, p, submission);
  return block;
}

export function blockFromJson(json: unknown, opts: BlockFromJsonOptions = {}): Block {
  return fromJson('block', json, (v, p) => parseBlock(v, p, opts));
}
