/**
 * Thin adapter around the reference client `@iota/iota.js` 2.0.0-rc.4 (Node only; test and benchmark use).
 *
 * iota.js takes and returns TIP-25-like JSON (hex strings with `0x`, u64 as decimal strings, u256 as `0x` hex), so the
 * bridge is our `blockToJson` plus these documented representational differences:
 *
 * 1. Empty byte strings. We (like iota.go/Hornet, docs/protocol.md §18) OMIT empty `tag`/`data` of a tagged-data
 *    payload, empty milestone `metadata`, empty alias `stateMetadata` and empty lists (`nativeTokens`, `features`,
 *    `immutableFeatures`, milestone `options`). iota.js's decoder emits `""` for an empty tagged-data tag/data, `"0x"`
 *    for empty milestone metadata and `[]` for empty milestone options. `normalizeIotaJs` drops those.
 * 2. Keys present with the value `undefined`: iota.js returns `payload: undefined` (block, essence) and
 *    `nativeTokens`/`features`/`immutableFeatures`/`stateMetadata: undefined` when empty; we omit the keys.
 * 3. Feeding iota.js: its tagged-data ENCODER writes a u32 (4 bytes) instead of a u8 tag length when `tag` is missing
 * or
 *    `""` (an iota.js defect, see `iotaJsTagLengthDefect`); given `"0x"` it writes the correct u8 0. `toIotaJsJson`
 *    therefore re-adds `"0x"` for omitted empty tagged-data `tag`/`data`. Nothing else is changed.
 */
import { deserializeBlock, serializeBlock, TransactionHelper, type IBlock } from '@iota/iota.js';
import { ReadStream, WriteStream } from '@iota/util.js';
import type { BlockJson } from '../../src/core/json/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const clone = (v: unknown): Json => JSON.parse(JSON.stringify(v));

function fillTaggedData(p: Json): void {
  if (p && p.type === 5) {
    p.tag ??= '0x';
    p.data ??= '0x';
  }
}

/** Our block JSON, shaped the way iota.js's encoder needs it (difference 3). Returns a copy. */
export function toIotaJsJson(json: BlockJson): IBlock {
  const j = clone(json);
  fillTaggedData(j.payload);
  if (j.payload?.type === 6) fillTaggedData(j.payload.essence.payload);
  return j as IBlock;
}

const EMPTY_BYTES_KEYS = new Set(['tag', 'data', 'metadata', 'stateMetadata']);
const EMPTY_LIST_KEYS = new Set(['nativeTokens', 'features', 'immutableFeatures', 'options']);

/** Counts of each normalization applied, keyed by `key=value`, so tests can show what was normalized. */
export type NormalizationCounts = Map<string, number>;

/**
 * iota.js decoder JSON → our JSON conventions (differences 1 and 2): drops `undefined` values, empty byte strings
 * (`""`, `"0x"`) under the keys tag/data/metadata/stateMetadata, and empty lists under nativeTokens/features/
 * immutableFeatures/options. Returns a copy.
 */
export function normalizeIotaJs(v: unknown, counts?: NormalizationCounts): Json {
  const walk = (x: Json): Json => {
    if (Array.isArray(x)) return x.map(walk);
    if (x === null || typeof x !== 'object') return x;
    const out: Json = {};
    for (const [k, val] of Object.entries(x)) {
      let dropped: string | undefined;
      if (val === undefined) dropped = `${k}=undefined`;
      else if (EMPTY_BYTES_KEYS.has(k) && (val === '' || val === '0x')) dropped = `${k}=${JSON.stringify(val)}`;
      else if (EMPTY_LIST_KEYS.has(k) && Array.isArray(val) && val.length === 0) dropped = `${k}=[]`;
      if (dropped !== undefined) {
        counts?.set(dropped, (counts.get(dropped) ?? 0) + 1);
        continue;
      }
      out[k] = walk(val);
    }
    return out;
  };
  return walk(v);
}

/** iota.js encoder: bytes of an iota.js block object. */
export function iotaJsEncode(block: IBlock): Uint8Array {
  const ws = new WriteStream();
  serializeBlock(ws, block);
  return ws.finalBytes();
}

/** iota.js decoder: block object from bytes. */
export function iotaJsDecode(bytes: Uint8Array): IBlock {
  return deserializeBlock(new ReadStream(bytes));
}

/** iota.js block ID (`0x` hex): BLAKE2b-256 (its own @iota/crypto.js) over its own serialization. */
export function iotaJsBlockId(block: IBlock): string {
  return TransactionHelper.calculateBlockId(block);
}

/**
 * iota.js's `deserializeBlock` refuses anything shorter than its MIN_BLOCK_LENGTH (50), computed as if every block
 * had a payload; the smallest valid Stardust block (1 parent, no payload) is 46 bytes (docs/protocol.md §2). Defect;
 * spec wins.
 */
export const IOTAJS_MIN_BLOCK_LENGTH = 50;

/**
 * iota.js's milestone decoder requires MIN_MILESTONE_PAYLOAD_LENGTH (273) bytes to remain at the payload start (the
 * block nonce included), counting 2 parents and omitting the protocol version and parent count bytes. A valid milestone
 * with 1 parent, little metadata and no options is shorter and is refused. Defect; docs/protocol.md §3.3 wins.
 */
export const IOTAJS_MIN_MILESTONE_REMAINING = 273;

/**
 * iota.js cannot ENCODE a Protocol Parameters milestone option with empty `params` ("0x"): its `writeFixedHex` rejects
 * the empty hex string ("...params should be in hex format"). The protocol (docs/protocol.md §3.3.2) allows 0..8192
 * bytes. Defect; spec wins. (Its decoder reads such an option fine and returns `params: "0x"`.)
 */
export const IOTAJS_EMPTY_PARAMS_ERROR = /protocolParamsMilestoneOption\.params should be in hex format/;
