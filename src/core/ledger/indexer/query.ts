/**
 * The TIP-26 list queries over the index tables (tables.ts). A query scans one group per output type of its route:
 * the entries of one address (indexByAddress) when an address filter is given, else all outputs of the type
 * (indexByType). Each group is a range in (createdAt, output ID) order, bounded by createdAfter / createdBefore and
 * the cursor; the groups of the combined route are merged into one such order. Roles on the address entries settle
 * the address filters; any other filter decodes the output record (LEDGER_TABLES.outputs) and checks its facts.
 *
 * A page holds up to `pageSize` output IDs; when more match, `cursor` is the position of the first one of the next
 * page and the page size (`<76 hex digits>.<pageSize>`), as inx-indexer (pkg/indexer/types.go, pkg/server/routes.go):
 * the next call starts AT that position, so pages neither overlap nor skip an output that stays unspent.
 *
 * A query examines at most a budget of index entries (`scanBudget`: 10 per item of the page, at least 10,000). When
 * the budget runs out before the page is full, the page holds what matched so far and `cursor` is the position of the
 * next entry to examine: a short (even empty) page with a cursor, which a client following cursors simply continues.
 * A signal stops the scan between store reads.
 */
import { compareBytes, toHex0x } from '../../bytes.ts';
import type { KeyValueStore } from '../../store/kv.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { prefixUpperBound } from '../../store/range.ts';
import { LEDGER_TABLES } from '../tables.ts';
import { outputFacts } from './facts.ts';
import { flagChecks, matchesFacts, needsOutput, roleChecks } from './filters.ts';
import {
  formatCursor,
  INDEXER_MAX_PAGE_SIZE,
  parseOutputQuery,
  type IndexerRoute,
  type OutputQuery,
} from './params.ts';
import { INDEXER_TABLES, positionOf, positionOutputId, POSITION_LENGTH, type IndexedOutputType } from './tables.ts';

/** The answer of a list route (TIP-26 OutputsResponse): output IDs as 0x-hex, in (createdAt, output ID) order. */
export interface IndexerAnswer {
  /** The ledger index the caller read before querying. */
  ledgerIndex: number;
  pageSize: number;
  /** Present when more outputs match: pass it as `cursor` to get the next page. */
  cursor?: string;
  items: string[];
}

/** The output types each route lists (the combined route: every kind, merged). */
export const ROUTE_TYPES: Readonly<Record<IndexerRoute, readonly IndexedOutputType[]>> = Object.freeze({
  outputs: [3, 4, 6, 5],
  basic: [3],
  alias: [4],
  foundry: [5],
  nft: [6],
});

/** Which address filter picks the scanned address when several are given (any choice is correct; these are narrow). */
const SCAN_ORDER = [
  'address',
  'stateController',
  'governor',
  'aliasAddress',
  'unlockableByAddress',
  'storageDepositReturnAddress',
  'expirationReturnAddress',
] as const;

interface Candidate {
  position: Uint8Array;
  /** Roles of the scanned address (address groups only). */
  roles: number;
  /** What the output has (address groups only: tables.ts FLAG). */
  flags: number;
}

/**
 * Runs one list query: checks `params` for `route` (params.ts: unknown parameters, bad values and addresses of another
 * network than `hrp` throw a ProtocolError naming the parameter) and returns one page.
 */
export async function queryOutputs(
  store: NodeStore,
  route: IndexerRoute,
  params: Readonly<Record<string, string>>,
  ledgerIndex: number,
  hrp: string,
  options: { maxPageSize?: number } & ScanLimits = {},
): Promise<IndexerAnswer> {
  return runOutputQuery(
    store,
    parseOutputQuery(route, params, hrp, options.maxPageSize ?? INDEXER_MAX_PAGE_SIZE),
    ledgerIndex,
    options,
  );
}

/** What stops a scan: an AbortSignal fits (src/core has no DOM types, so only what is read is named). */
export interface ScanSignal {
  readonly aborted: boolean;
  readonly reason?: unknown;
}

export interface ScanLimits {
  /** Index entries examined at most (default `scanBudget(pageSize)`); a positive integer. */
  budget?: number;
  /** Checked before every store read: once aborted, the query rejects with the signal's reason. */
  signal?: ScanSignal;
}

/** A page and what it cost. */
export interface ScannedPage {
  answer: IndexerAnswer;
  /** Index entries examined. */
  examined: number;
  /** The budget ran out before the page was full (the cursor, if any, is the next entry to examine). */
  exhausted: boolean;
}

/** At least this many index entries per query, whatever the page size. */
export const MIN_SCAN_BUDGET = 10_000;
/** Index entries examined per item of the page. */
export const SCAN_BUDGET_PER_ITEM = 10;

/** The default budget of a query: 10 index entries per item of the page, at least 10,000. */
export function scanBudget(pageSize: number): number {
  return Math.max(MIN_SCAN_BUDGET, SCAN_BUDGET_PER_ITEM * pageSize);
}

/** One page of a checked query. */
export async function runOutputQuery(
  store: NodeStore,
  q: OutputQuery,
  ledgerIndex: number,
  limits: ScanLimits = {},
): Promise<IndexerAnswer> {
  return (await scanOutputQuery(store, q, ledgerIndex, limits)).answer;
}

function checkSignal(signal: ScanSignal | undefined): void {
  if (signal?.aborted !== true) return;
  throw signal.reason instanceof Error ? signal.reason : new Error('indexer: the query was aborted');
}

/** One page of a checked query, with the number of index entries it examined. */
export async function scanOutputQuery(
  store: NodeStore,
  q: OutputQuery,
  ledgerIndex: number,
  limits: ScanLimits = {},
): Promise<ScannedPage> {
  const budget = limits.budget ?? scanBudget(q.pageSize);
  if (!Number.isSafeInteger(budget) || budget < 1)
    throw new RangeError(`indexer: the scan budget must be a positive integer, got ${budget}`);
  const { signal } = limits;
  checkSignal(signal);
  const answer: IndexerAnswer = { ledgerIndex, pageSize: q.pageSize, items: [] };
  const bounds = rangeBounds(q);
  if (bounds === undefined) return { answer, examined: 0, exhausted: false };
  const scanned = SCAN_ORDER.map((name) => q[name]).find((a) => a !== undefined);
  const roles = scanned === undefined ? undefined : roleChecks(q, scanned);
  const flags = scanned === undefined ? undefined : flagChecks(q);
  const decode = needsOutput(q, scanned);
  const want = q.pageSize + 1;
  const types = ROUTE_TYPES[q.route];
  const firstChunk = Math.min(want, types.length === 1 ? MAX_CHUNK : FIRST_CHUNK);
  const scans = types.map(
    (t) => new GroupScan(store.kv, groupPrefix(t, scanned), bounds, scanned !== undefined, firstChunk),
  );
  const found: Uint8Array[] = [];
  let pending: Uint8Array[] = [];
  const flush = async (): Promise<void> => {
    checkSignal(signal);
    const records = await store.getMany(LEDGER_TABLES.outputs, pending.map(positionOutputId));
    pending.forEach((position, i) => {
      const record = records[i];
      if (record === undefined)
        throw new Error(
          `indexer: output ${toHex0x(positionOutputId(position))} is indexed but the ledger has no record of it`,
        );
      if (found.length < want && matchesFacts(outputFacts(positionOutputId(position), record.output), q))
        found.push(position);
    });
    pending = [];
  };
  /** Reads the groups whose buffer is used up (`limit`: at most that many entries each). */
  const refill = async (limit?: number): Promise<void> => {
    for (const s of scans) {
      if (!s.needsRead()) continue;
      checkSignal(signal);
      await s.read(limit);
    }
  };
  let examined = 0;
  let exhausted = false;
  while (found.length < want) {
    if (examined >= budget) {
      exhausted = true;
      break;
    }
    await refill();
    const c = nextInOrder(scans);
    if (c === undefined) break;
    examined++;
    if (
      roles !== undefined &&
      ((c.roles & roles.required) !== roles.required || (roles.any !== 0 && (c.roles & roles.any) === 0))
    )
      continue;
    if (flags !== undefined && (c.flags & flags.mask) !== flags.value) continue;
    if (!decode) found.push(c.position);
    else {
      pending.push(c.position);
      if (pending.length >= Math.min(MAX_CHUNK, Math.max(16, want - found.length))) await flush();
    }
  }
  if (pending.length > 0) await flush();
  let cut = false;
  if (found.length > q.pageSize) answer.cursor = formatCursor(found[q.pageSize]!, q.pageSize);
  else if (exhausted) {
    // Out of budget before the page was full: continue at the next entry to examine, if there is one.
    await refill(1);
    const next = headInOrder(scans);
    if (next !== undefined) answer.cursor = formatCursor(next.position, q.pageSize);
    cut = next !== undefined;
  }
  answer.items = found.slice(0, q.pageSize).map((p) => toHex0x(p.subarray(4)));
  return { answer, examined, exhausted: cut };
}

interface Bounds {
  /** Inclusive lower bound of the position, if any. */
  from?: Uint8Array;
  /** Exclusive upper bound of the position, if any. */
  to?: Uint8Array;
}

const ZERO_OUTPUT_ID = new Uint8Array(34);
/** Entries read per store range read: a merged route starts small (most of its groups are short), then doubles. */
const FIRST_CHUNK = 128;
const MAX_CHUNK = 1024;

/** The positions a query may return, or undefined when none can match (createdAfter at the end of time). */
function rangeBounds(q: OutputQuery): Bounds | undefined {
  const b: Bounds = {};
  if (q.createdAfter !== undefined) {
    if (q.createdAfter >= 0xffffffff) return undefined;
    b.from = positionOf(q.createdAfter + 1, ZERO_OUTPUT_ID);
  }
  if (q.cursor !== undefined && (b.from === undefined || compareBytes(q.cursor, b.from) > 0)) b.from = q.cursor;
  if (q.createdBefore !== undefined) b.to = positionOf(q.createdBefore, ZERO_OUTPUT_ID);
  if (b.from !== undefined && b.to !== undefined && compareBytes(b.from, b.to) >= 0) return undefined;
  return b;
}

/** Store-key prefix of a group: the entries of an address for one output type, or all outputs of the type. */
function groupPrefix(outputType: IndexedOutputType, address: Uint8Array | undefined): Uint8Array {
  if (address === undefined) return Uint8Array.of(INDEXER_TABLES.byType.prefix, outputType);
  const out = new Uint8Array(2 + address.length);
  out[0] = INDEXER_TABLES.byAddress.prefix;
  out.set(address, 1);
  out[1 + address.length] = outputType;
  return out;
}

function join(prefix: Uint8Array, position: Uint8Array): Uint8Array {
  const out = new Uint8Array(prefix.length + position.length);
  out.set(prefix, 0);
  out.set(position, prefix.length);
  return out;
}

/** One group's range, read in chunks (each a bounded store range read), consumed one candidate at a time. */
class GroupScan {
  private buffer: Candidate[] = [];
  private next = 0;
  private done = false;
  private lastKey: Uint8Array | undefined;
  private readonly gte: Uint8Array;
  private readonly lt: Uint8Array | undefined;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly prefix: Uint8Array,
    bounds: Bounds,
    private readonly withRoles: boolean,
    private chunk: number,
  ) {
    this.gte = bounds.from === undefined ? prefix : join(prefix, bounds.from);
    this.lt = bounds.to === undefined ? prefixUpperBound(prefix) : join(prefix, bounds.to);
  }

  needsRead(): boolean {
    return this.next >= this.buffer.length && !this.done;
  }

  head(): Candidate | undefined {
    return this.buffer[this.next];
  }

  take(): void {
    this.next++;
  }

  /** Reads the next chunk; `limit` reads fewer entries than the chunk (the chunk then stays as it is). */
  async read(limit = this.chunk): Promise<void> {
    const range = {
      ...(this.lastKey === undefined ? { gte: this.gte } : { gt: this.lastKey }),
      ...(this.lt !== undefined ? { lt: this.lt } : {}),
      limit,
    };
    this.buffer = [];
    this.next = 0;
    for await (const [key, value] of this.kv.entries(range)) {
      if (key.length !== this.prefix.length + POSITION_LENGTH)
        throw new Error(`indexer: malformed index key of ${key.length} bytes under ${toHex0x(this.prefix)}`);
      this.buffer.push({
        position: key.subarray(this.prefix.length),
        roles: this.withRoles ? value[0]! : 0,
        flags: this.withRoles ? value[1]! : 0,
      });
      this.lastKey = key;
    }
    if (this.buffer.length < limit) this.done = true;
    if (limit === this.chunk) this.chunk = Math.min(MAX_CHUNK, this.chunk * 2);
  }
}

/** The group whose head has the smallest position (each group is ordered); undefined at the end. */
function firstGroup(scans: readonly GroupScan[]): GroupScan | undefined {
  let best: GroupScan | undefined;
  for (const s of scans) {
    const h = s.head();
    if (h !== undefined && (best === undefined || compareBytes(h.position, best.head()!.position) < 0)) best = s;
  }
  return best;
}

/** The candidate with the smallest position among the groups' heads, without taking it. */
function headInOrder(scans: readonly GroupScan[]): Candidate | undefined {
  return firstGroup(scans)?.head();
}

/** Takes the candidate with the smallest position among the groups' heads; undefined at the end. */
function nextInOrder(scans: readonly GroupScan[]): Candidate | undefined {
  const best = firstGroup(scans);
  if (best === undefined) return undefined;
  const chosen = best.head()!;
  best.take();
  return chosen;
}
