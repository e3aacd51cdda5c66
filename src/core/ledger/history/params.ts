/**
 * The query parameters of the explorer routes (inx-chronicle 1.0 `api/explorer/extractors.rs`), checked strictly: each
 * route takes its own names (an unknown one is refused, as chronicle's `deny_unknown_fields`), numbers are base-10
 * u32, `sort` is `newest` (the default) or `oldest`, and a cursor is the text a previous page gave, whose page size
 * wins over `pageSize`. Unlike chronicle, a page size of 0 or above the maximum is refused (chronicle clamps it
 * silently, and 0 pages forever), and an empty value counts as not given (as this node's indexer reads them). Every
 * rejection is a ProtocolError naming the parameter.
 */
import { clip, fromHex } from '../../bytes.ts';
import { reject, type ErrorCode } from '../../errors.ts';
import { OUTPUT_ID_LENGTH } from '../../model/limits.ts';

export type ExplorerRoute =
  | 'updatesByAddress'
  | 'updatesByMilestone'
  | 'milestones'
  | 'milestoneBlocks'
  | 'children'
  | 'richest'
  | 'distribution'
  | 'search';

/** chronicle's DEFAULT_PAGE_SIZE and `max_page_size` default; also the default of `top` (DEFAULT_TOP_RICHLIST). */
export const EXPLORER_DEFAULT_PAGE_SIZE = 100;
export const EXPLORER_MAX_PAGE_SIZE = 1000;

/** Which parameters each route takes. `ledger_index` is what chronicle's richest-addresses extractor reads. */
export const EXPLORER_PARAMS: Readonly<Record<ExplorerRoute, readonly string[]>> = Object.freeze({
  updatesByAddress: ['pageSize', 'sort', 'startMilestoneIndex', 'endMilestoneIndex', 'cursor'],
  updatesByMilestone: ['pageSize', 'cursor'],
  milestones: ['startTimestamp', 'endTimestamp', 'sort', 'pageSize', 'cursor'],
  milestoneBlocks: ['sort', 'pageSize', 'cursor'],
  children: ['pageSize', 'page'],
  richest: ['top', 'ledgerIndex', 'ledger_index'],
  distribution: ['ledgerIndex'],
  search: [],
});

export type Sort = 'newest' | 'oldest';

interface Paged {
  pageSize: number;
  sort: Sort;
}

/** Where a page of ledger updates by address starts: a milestone, or a whole position (a cursor). */
export interface AddressUpdatesQuery extends Paged {
  start?: number;
  end?: number;
  cursor?: { milestoneIndex: number; outputId: Uint8Array; spent: boolean };
}

export interface MilestoneUpdatesQuery {
  pageSize: number;
  cursor?: { outputId: Uint8Array; spent: boolean };
}

export interface MilestonesQuery extends Paged {
  startTimestamp?: number;
  endTimestamp?: number;
  cursor?: number;
}

export interface MilestoneBlocksQuery extends Paged {
  /** A white-flag index. */
  cursor?: number;
}

export interface ChildrenQuery {
  pageSize: number;
  page: number;
}

export interface AggregateQuery {
  top: number;
  ledgerIndex?: number;
}

function bad(code: ErrorCode, param: string, message: string, value: string): never {
  const name = clip(param, 60); // a name is whatever the client sent
  return reject(code, `Invalid query parameter ${name}: ${message}`, { field: name, value: clip(value) });
}

/** A base-10 u32 (at most `max`). */
export function parseU32(param: string, v: string, max = 0xffffffff): number {
  if (!/^[0-9]+$/.test(v)) return bad('INVALID_FIELD', param, `"${clip(v, 40)}" is not an unsigned integer`, v);
  const n = Number(v);
  if (n > max) return bad('VALUE_OUT_OF_RANGE', param, `${v} is above the maximum ${max}`, v);
  return n;
}

function parsePageSize(param: string, v: string, whole: string = v): number {
  const n = parseU32(param, v, EXPLORER_MAX_PAGE_SIZE);
  if (n === 0) bad('VALUE_OUT_OF_RANGE', param, 'a page holds at least 1 item', whole);
  return n;
}

function parseSort(v: string): Sort {
  if (v === 'newest' || v === 'oldest') return v;
  return bad('INVALID_FIELD', 'sort', `expected newest or oldest, got "${clip(v, 40)}"`, v);
}

/** Rust's `bool::from_str`: exactly `true` or `false`. */
function parseBool(param: string, v: string, whole: string): boolean {
  if (v === 'true' || v === 'false') return v === 'true';
  return bad('INVALID_FIELD', param, `"${clip(v, 40)}" is not true or false`, whole);
}

function parseOutputId(v: string, whole: string): Uint8Array {
  if (!/^0x[0-9a-fA-F]*$/.test(v) || v.length !== 2 + 2 * OUTPUT_ID_LENGTH)
    bad('INVALID_FIELD', 'cursor', `an output ID is 0x and ${2 * OUTPUT_ID_LENGTH} hex digits`, whole);
  return fromHex(v.slice(2), 'cursor');
}

/** The parts of a cursor, `count` of them separated by dots, else 400 naming the format. */
function cursorParts(v: string, count: number, format: string): string[] {
  const parts = v.split('.');
  if (parts.length !== count) bad('INVALID_FIELD', 'cursor', `expected ${format}, as the cursor of a previous page`, v);
  return parts;
}

/** The given parameters of `route`: unknown names refused, empty values dropped. */
function given(route: ExplorerRoute, params: Readonly<Record<string, string>>): Map<string, string> {
  const allowed = EXPLORER_PARAMS[route];
  const out = new Map<string, string>();
  for (const name of Object.keys(params).sort()) {
    if (!allowed.includes(name))
      bad(
        'INVALID_FIELD',
        name,
        allowed.length === 0 ? 'this route takes no parameters' : `unknown here (allowed: ${allowed.join(', ')})`,
        name,
      );
    const v = params[name];
    if (typeof v !== 'string') throw new TypeError(`explorer query parameter ${name} must be a string`);
    if (v !== '') out.set(name, v);
  }
  return out;
}

function paged(p: Map<string, string>): Paged {
  const pageSize = p.has('pageSize') ? parsePageSize('pageSize', p.get('pageSize')!) : EXPLORER_DEFAULT_PAGE_SIZE;
  return { pageSize, sort: p.has('sort') ? parseSort(p.get('sort')!) : 'newest' };
}

/** `{milestoneIndex}.{0x outputId}.{isSpent}.{pageSize}` (chronicle's LedgerUpdatesByAddressCursor). */
export function parseAddressUpdatesQuery(params: Readonly<Record<string, string>>): AddressUpdatesQuery {
  const p = given('updatesByAddress', params);
  const q: AddressUpdatesQuery = paged(p);
  const start = p.get('startMilestoneIndex');
  const end = p.get('endMilestoneIndex');
  if (start !== undefined) q.start = parseU32('startMilestoneIndex', start);
  if (end !== undefined) q.end = parseU32('endMilestoneIndex', end);
  const c = p.get('cursor');
  if (c !== undefined) {
    const [ms, oid, spent, size] = cursorParts(c, 4, 'milestoneIndex.0xoutputId.isSpent.pageSize');
    q.cursor = {
      milestoneIndex: parseU32('cursor', ms!),
      outputId: parseOutputId(oid!, c),
      spent: parseBool('cursor', spent!, c),
    };
    q.pageSize = parsePageSize('cursor', size!, c);
  }
  const from = q.cursor?.milestoneIndex ?? q.start;
  if (from !== undefined && q.end !== undefined && (q.sort === 'oldest' ? q.end < from : q.end > from))
    bad(
      'VALUE_OUT_OF_RANGE',
      'endMilestoneIndex',
      `${q.end} comes before the start ${from} in ${q.sort} order: the range is empty`,
      String(q.end),
    );
  return q;
}

/** `{0x outputId}.{isSpent}.{pageSize}` (chronicle's LedgerUpdatesByMilestoneCursor). */
export function parseMilestoneUpdatesQuery(params: Readonly<Record<string, string>>): MilestoneUpdatesQuery {
  const p = given('updatesByMilestone', params);
  const q: MilestoneUpdatesQuery = { pageSize: paged(p).pageSize };
  const c = p.get('cursor');
  if (c !== undefined) {
    const [oid, spent, size] = cursorParts(c, 3, '0xoutputId.isSpent.pageSize');
    q.cursor = { outputId: parseOutputId(oid!, c), spent: parseBool('cursor', spent!, c) };
    q.pageSize = parsePageSize('cursor', size!, c);
  }
  return q;
}

/** `{milestoneIndex}.{pageSize}`; `endTimestamp` before `startTimestamp` is chronicle's "invalid time range". */
export function parseMilestonesQuery(params: Readonly<Record<string, string>>): MilestonesQuery {
  const p = given('milestones', params);
  const q: MilestonesQuery = paged(p);
  const start = p.get('startTimestamp');
  const end = p.get('endTimestamp');
  if (start !== undefined) q.startTimestamp = parseU32('startTimestamp', start);
  if (end !== undefined) q.endTimestamp = parseU32('endTimestamp', end);
  if (q.startTimestamp !== undefined && q.endTimestamp !== undefined && q.endTimestamp < q.startTimestamp)
    bad('VALUE_OUT_OF_RANGE', 'endTimestamp', `invalid time range: it is before startTimestamp`, end!);
  const c = p.get('cursor');
  if (c !== undefined) {
    const [index, size] = cursorParts(c, 2, 'milestoneIndex.pageSize');
    q.cursor = parseU32('cursor', index!);
    q.pageSize = parsePageSize('cursor', size!, c);
  }
  return q;
}

/** `{whiteFlagIndex}.{pageSize}` (chronicle's BlocksByMilestoneCursor). */
export function parseMilestoneBlocksQuery(params: Readonly<Record<string, string>>): MilestoneBlocksQuery {
  const p = given('milestoneBlocks', params);
  const q: MilestoneBlocksQuery = paged(p);
  const c = p.get('cursor');
  if (c !== undefined) {
    const [wfi, size] = cursorParts(c, 2, 'whiteFlagIndex.pageSize');
    q.cursor = parseU32('cursor', wfi!);
    q.pageSize = parsePageSize('cursor', size!, c);
  }
  return q;
}

/** chronicle's Pagination: `pageSize` and a page number `page` (from 0). */
export function parseChildrenQuery(params: Readonly<Record<string, string>>): ChildrenQuery {
  const p = given('children', params);
  return { pageSize: paged(p).pageSize, page: p.has('page') ? parseU32('page', p.get('page')!) : 0 };
}

/** `top` (1..1000, default 100) for the richest addresses; `ledgerIndex` for both aggregates. */
export function parseAggregateQuery(
  route: 'richest' | 'distribution',
  params: Readonly<Record<string, string>>,
): AggregateQuery {
  const p = given(route, params);
  const q: AggregateQuery = { top: p.has('top') ? parsePageSize('top', p.get('top')!) : EXPLORER_DEFAULT_PAGE_SIZE };
  if (p.has('ledgerIndex') && p.has('ledger_index'))
    bad('INVALID_FIELD', 'ledger_index', 'give ledgerIndex or ledger_index, not both', p.get('ledger_index')!);
  const index = p.get('ledgerIndex') ?? p.get('ledger_index');
  if (index !== undefined) q.ledgerIndex = parseU32(p.has('ledgerIndex') ? 'ledgerIndex' : 'ledger_index', index);
  return q;
}

/** Checks that `route` (this node's search) got no parameters. */
export function parseNoParameters(route: ExplorerRoute, params: Readonly<Record<string, string>>): void {
  given(route, params);
}
