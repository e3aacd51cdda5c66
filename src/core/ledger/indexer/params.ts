/**
 * The query parameters of the TIP-26 routes, checked strictly. Which route takes which parameter, and how each value
 * reads, follow inx-indexer v1.0 (pkg/server/routes.go, inx-app's httpserver parsers): booleans as Go's
 * strconv.ParseBool, numbers as base-10 u32, Unix timestamps in seconds, addresses as bech32 of the network's HRP,
 * `tag` as 0x-hex of 1..64 bytes, native token counts 0..64, and an empty value counts as not given. Unlike
 * inx-indexer, an unknown parameter, a page size above the maximum and a bad page size are rejected (400) instead of
 * ignored. Every rejection is a ProtocolError naming the parameter.
 */
import { clip, fromHex } from '../../bytes.ts';
import { encodeAddress } from '../../codec/address.ts';
import { reject, type ErrorCode } from '../../errors.ts';
import { bech32DecodeAddress } from '../../ids/address-bech32.ts';
import { ADDRESS_ALIAS } from '../../model/address.ts';
import { LIMITS } from '../../model/limits.ts';
import { POSITION_LENGTH } from './tables.ts';

export type IndexerRoute = 'outputs' | 'basic' | 'alias' | 'foundry' | 'nft';
export const INDEXER_ROUTES: readonly IndexerRoute[] = ['outputs', 'basic', 'alias', 'foundry', 'nft'];

/** inx-indexer's `maxPageSize` default (components/indexer/params.go); also the page size when none is asked for. */
export const INDEXER_MAX_PAGE_SIZE = 1000;
/** iota.go's MaxNativeTokenCountPerOutput, the bound inx-indexer checks the native token counts against. */
export const MAX_NATIVE_TOKEN_COUNT = LIMITS.nativeTokens.max;
/** Hex digits of a cursor's position (createdAt u32 ‖ output ID): inx-indexer's CursorLength. */
export const CURSOR_HEX_LENGTH = 2 * POSITION_LENGTH;

/** Parameters whose value is a bech32 address; stored as the serialized address (type ‖ 32-byte ID). */
export const ADDRESS_PARAMS = [
  'address',
  'unlockableByAddress',
  'storageDepositReturnAddress',
  'expirationReturnAddress',
  'stateController',
  'governor',
  'aliasAddress',
  'sender',
  'issuer',
] as const;
export const BOOLEAN_PARAMS = ['hasNativeTokens', 'hasStorageDepositReturn', 'hasExpiration', 'hasTimelock'] as const;
export const TIME_PARAMS = [
  'createdBefore',
  'createdAfter',
  'expiresBefore',
  'expiresAfter',
  'timelockedBefore',
  'timelockedAfter',
] as const;
export const COUNT_PARAMS = ['minNativeTokenCount', 'maxNativeTokenCount'] as const;

export type AddressParam = (typeof ADDRESS_PARAMS)[number];
export type BooleanParam = (typeof BOOLEAN_PARAMS)[number];
export type TimeParam = (typeof TIME_PARAMS)[number];
export type CountParam = (typeof COUNT_PARAMS)[number];

/** A checked query: the filters given, the page size in force and where to start. */
export type OutputQuery = { route: IndexerRoute; pageSize: number; cursor?: Uint8Array; tag?: Uint8Array } & Partial<
  Record<AddressParam, Uint8Array>
> &
  Partial<Record<BooleanParam, boolean>> &
  Partial<Record<TimeParam | CountParam, number>>;

const COMMON = [
  'hasNativeTokens',
  'minNativeTokenCount',
  'maxNativeTokenCount',
  'createdBefore',
  'createdAfter',
  'pageSize',
  'cursor',
];
const UNLOCK = [
  'address',
  'unlockableByAddress',
  'hasStorageDepositReturn',
  'storageDepositReturnAddress',
  'hasExpiration',
  'expirationReturnAddress',
  'expiresBefore',
  'expiresAfter',
  'hasTimelock',
  'timelockedBefore',
  'timelockedAfter',
  'sender',
  'tag',
];

/** The parameters each route takes (inx-indexer v1.0 pkg/server/routes.go). */
export const ROUTE_PARAMS: Readonly<Record<IndexerRoute, readonly string[]>> = Object.freeze({
  outputs: [...COMMON, 'unlockableByAddress'],
  basic: [...COMMON, ...UNLOCK],
  alias: [...COMMON, 'unlockableByAddress', 'stateController', 'governor', 'issuer', 'sender'],
  foundry: [...COMMON, 'aliasAddress'],
  nft: [...COMMON, ...UNLOCK, 'issuer'],
});

function bad(code: ErrorCode, param: string, message: string, value: string): never {
  return reject(code, `Invalid query parameter ${param}: ${message}`, { field: param, value: clip(value) });
}

/** Go's strconv.ParseBool. */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function parseBool(param: string, v: string): boolean {
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  return bad('INVALID_FIELD', param, `"${clip(v, 40)}" is not a boolean (true or false)`, v);
}

/** A base-10 u32 (Go's strconv.ParseUint(v, 10, 32)), at most `max`. */
function parseU32(param: string, v: string, max = 0xffffffff): number {
  if (!/^[0-9]+$/.test(v)) return bad('INVALID_FIELD', param, `"${clip(v, 40)}" is not an unsigned decimal integer`, v);
  const n = Number(v);
  if (n > max) return bad('VALUE_OUT_OF_RANGE', param, `${clip(v, 40)} is above the maximum ${max}`, v);
  return n;
}

function parseAddress(param: string, v: string, hrp: string): Uint8Array {
  let address: ReturnType<typeof bech32DecodeAddress>['address'];
  try {
    address = bech32DecodeAddress(v, hrp).address;
  } catch (e) {
    return bad('INVALID_BECH32', param, `not a bech32 address of this network (${(e as Error).message})`, v);
  }
  if (param === 'aliasAddress' && address.type !== ADDRESS_ALIAS)
    bad('INVALID_FIELD', param, `${clip(v, 90)} is not an alias address`, v);
  return encodeAddress(address);
}

function parseTag(v: string): Uint8Array {
  if (!v.startsWith('0x') && !v.startsWith('0X')) bad('INVALID_HEX', 'tag', 'expected 0x-prefixed hex', v);
  let tag: Uint8Array;
  try {
    tag = fromHex(v, 'tag');
  } catch (e) {
    return bad('INVALID_HEX', 'tag', (e as Error).message.replace(/^tag: /, ''), v);
  }
  const { min, max } = LIMITS.tagFeature;
  if (tag.length < min || tag.length > max)
    bad('LENGTH_OUT_OF_RANGE', 'tag', `a tag has ${min}..${max} bytes, got ${tag.length}`, v);
  return tag;
}

/** `<position as 76 hex digits>.<page size>`, as inx-indexer writes it (routes.go outputsResponseFromResult). */
export function parseCursor(
  v: string,
  maxPageSize = INDEXER_MAX_PAGE_SIZE,
): { position: Uint8Array; pageSize: number } {
  const parts = v.split('.');
  if (parts.length !== 2 || parts[0]!.length !== CURSOR_HEX_LENGTH || !/^[0-9a-fA-F]+$/.test(parts[0]!)) {
    bad(
      'INVALID_FIELD',
      'cursor',
      `expected ${CURSOR_HEX_LENGTH} hex digits, a dot and a page size, as a previous answer's cursor`,
      v,
    );
  }
  const pageSize = parseU32('cursor', parts[1]!, maxPageSize);
  if (pageSize === 0) bad('VALUE_OUT_OF_RANGE', 'cursor', 'its page size must be at least 1', v);
  return { position: fromHex(parts[0]!, 'cursor'), pageSize };
}

export function formatCursor(position: Uint8Array, pageSize: number): string {
  let hex = '';
  for (const b of position) hex += b.toString(16).padStart(2, '0');
  return `${hex}.${pageSize}`;
}

/**
 * Checks every parameter of a query on `route`: unknown names, bad values, bech32 of another network (`hrp`).
 * The page size is the cursor's when a cursor is given (TIP-26: pageSize is then ignored), else `pageSize` (0 or
 * absent: the maximum, as inx-indexer v1.0.1), at most `maxPageSize`.
 */
export function parseOutputQuery(
  route: IndexerRoute,
  params: Readonly<Record<string, string>>,
  hrp: string,
  maxPageSize = INDEXER_MAX_PAGE_SIZE,
): OutputQuery {
  const allowed = ROUTE_PARAMS[route];
  if (allowed === undefined) throw new RangeError(`unknown indexer route ${String(route)}`);
  const query: OutputQuery = { route, pageSize: maxPageSize };
  const q = query as Record<string, unknown>;
  const names = Object.keys(params).sort();
  for (const name of names) {
    if (!allowed.includes(name))
      bad(
        'INVALID_FIELD',
        name,
        `unknown for /outputs${route === 'outputs' ? '' : '/' + route} (allowed: ${allowed.join(', ')})`,
        name,
      );
  }
  for (const name of names) {
    const v = params[name];
    if (typeof v !== 'string') throw new TypeError(`indexer query parameter ${name} must be a string, got ${typeof v}`);
    if (v === '') continue;
    if ((ADDRESS_PARAMS as readonly string[]).includes(name)) q[name] = parseAddress(name, v, hrp);
    else if ((BOOLEAN_PARAMS as readonly string[]).includes(name)) q[name] = parseBool(name, v);
    else if ((TIME_PARAMS as readonly string[]).includes(name)) q[name] = parseU32(name, v);
    else if ((COUNT_PARAMS as readonly string[]).includes(name)) q[name] = parseU32(name, v, MAX_NATIVE_TOKEN_COUNT);
    else if (name === 'tag') query.tag = parseTag(v);
    else if (name === 'pageSize') {
      const size = parseU32(name, v, maxPageSize);
      if (size > 0 && (params.cursor ?? '') === '') query.pageSize = size;
    } else if (name === 'cursor') {
      const c = parseCursor(v, maxPageSize);
      query.cursor = c.position;
      query.pageSize = c.pageSize;
    }
  }
  return query;
}
