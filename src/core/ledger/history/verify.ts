/**
 * Checks the history and its aggregates against what the store derives them from (`tool check`,
 * node/check/consistency.ts), both ways where the source is still stored:
 *   1. the aggregates equal those recomputed from the unspent outputs: every balance record, the order by balance,
 *      the distribution buckets;
 *   2. every unspent output has its "booked" ledger update (unless the history no longer keeps its milestone), and
 *      the ledger updates of each milestone with a diff are exactly the diff's outputs under their owners;
 *   3. each update of a milestone is in its address's parts (with the milestone's timestamp), and back;
 *   4. milestones and blocks (verify-blocks.ts).
 * Entries left at or below `history.prunedTo` by a retention run a stop interrupted are counted as pending (the node
 * deletes them on its next start), not as differences.
 */
import { equalBytes, toHex, toHex0x } from '../../bytes.ts';
import { META } from '../../store/meta.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { LEDGER_TABLES } from '../tables.ts';
import { BalanceDeltas, magnitudeOf } from './balances.ts';
import { ownerOf } from './owner.ts';
import { addressPartHolding, addressParts, allMilestoneUpdates } from './pages.ts';
import {
  AGGREGATE_TABLES,
  HISTORY_META,
  HISTORY_TABLES,
  HISTORY_VERSION,
  type AddressBalance,
  type MilestoneUpdate,
} from './tables.ts';
import { verifyHistoryBlocks, type Differences } from './verify-blocks.ts';

export interface HistoryVerification {
  /** Addresses with a balance record, ledger updates, referenced blocks kept. */
  addresses: number;
  updates: number;
  blocks: number;
  /** Entries an interrupted retention run has still to delete. */
  pending: number;
  differences: string[];
}

const CHUNK = 2_000;

function recorder(max: number): Differences {
  const lines: string[] = [];
  let dropped = 0;
  return {
    lines,
    add: (line) => {
      if (lines.length < max) lines.push(line);
      else dropped++;
    },
    finish: () => {
      if (dropped > 0) lines.push(`history: ${dropped} more difference(s) not listed`);
    },
  };
}

export async function verifyHistory(store: NodeStore, maxDifferences = 1000): Promise<HistoryVerification> {
  const d = recorder(maxDifferences);
  const result: HistoryVerification = { addresses: 0, updates: 0, blocks: 0, pending: 0, differences: d.lines };
  const ledgerIndex = await store.getMeta(META.ledgerIndex);
  if (ledgerIndex === undefined) return result;
  const version = await store.getMeta(HISTORY_META.version);
  const start = await store.getMeta(HISTORY_META.start);
  if (version !== HISTORY_VERSION || start === undefined) {
    d.add(
      `history: meta ${HISTORY_META.version.name} is ${version ?? 'missing'} and ${HISTORY_META.start.name} is ` +
        `${start ?? 'missing'}, expected version ${HISTORY_VERSION} and a start (the history was not completed)`,
    );
    d.finish();
    return result;
  }
  const prunedTo = await store.getMeta(HISTORY_META.prunedTo);
  const floor = prunedTo === undefined ? 0 : prunedTo + 1;
  await verifyAggregates(store, floor, d, result);
  await verifyUpdates(store, start, floor, ledgerIndex, d, result);
  const blocks = await verifyHistoryBlocks(store, { start, floor, ledgerIndex }, d);
  result.blocks = blocks.blocks;
  result.pending += blocks.pending;
  d.finish();
  return result;
}

/** 1 and the first half of 2: aggregates from the unspent outputs, and their "booked" updates. */
async function verifyAggregates(store: NodeStore, floor: number, d: Differences, result: HistoryVerification) {
  const deltas = new BalanceDeltas();
  let ids: Uint8Array[] = [];
  const chunk = async (): Promise<void> => {
    const records = await store.getMany(LEDGER_TABLES.outputs, ids);
    const wanted: { address: Uint8Array; milestoneIndex: number; outputId: Uint8Array }[] = [];
    ids.forEach((outputId, i) => {
      const r = records[i];
      if (r === undefined) {
        d.add(`history: unspent output ${toHex0x(outputId)} has no output record`);
        return;
      }
      deltas.add(r.output, 1);
      if (r.milestoneIndexBooked >= floor)
        wanted.push({ address: ownerOf(r.output), milestoneIndex: r.milestoneIndexBooked, outputId });
    });
    const found = await Promise.all(
      wanted.map((w) => addressPartHolding(store, w.address, w.milestoneIndex, { outputId: w.outputId, spent: false })),
    );
    wanted.forEach((w, i) => {
      if (found[i] === undefined)
        d.add(`historyByAddress: unspent output ${toHex0x(w.outputId)} has no update at ${w.milestoneIndex}`);
    });
    ids = [];
  };
  for await (const id of store.keys(LEDGER_TABLES.unspent)) {
    ids.push(id);
    if (ids.length >= CHUNK) await chunk();
  }
  if (ids.length > 0) await chunk();

  const expected = new Map<string, AddressBalance>();
  const buckets = new Map<number, { addresses: bigint; total: bigint }>();
  let rich = 0;
  for (const e of deltas.entries()) {
    const b: AddressBalance = { amount: e.amount, outputs: e.outputs, special: e.special, returns: e.returns };
    expected.set(toHex(e.address), b);
    if (b.amount <= 0n) continue;
    rich++;
    const m = magnitudeOf(b.amount);
    const bucket = buckets.get(m) ?? { addresses: 0n, total: 0n };
    buckets.set(m, { addresses: bucket.addresses + 1n, total: bucket.total + b.amount });
  }
  const encode = (b: AddressBalance): Uint8Array => AGGREGATE_TABLES.balances.value.encode(b);
  for await (const [address, stored] of store.entries(AGGREGATE_TABLES.balances)) {
    result.addresses++;
    const want = expected.get(toHex(address));
    expected.delete(toHex(address));
    if (want === undefined) d.add(`addressBalances: ${toHex0x(address)} holds a record but owns no unspent output`);
    else if (!equalBytes(encode(want), encode(stored)))
      d.add(`addressBalances: ${toHex0x(address)} holds ${show(stored)}, expected ${show(want)}`);
  }
  for (const [address, want] of expected) d.add(`addressBalances: 0x${address} has no record, expected ${show(want)}`);
  let richStored = 0;
  for await (const k of store.keys(AGGREGATE_TABLES.richest)) {
    richStored++;
    const record = await store.get(AGGREGATE_TABLES.balances, k.address);
    if (record?.amount !== k.amount)
      d.add(
        `richestAddresses: ${toHex0x(k.address)} is listed with ${k.amount}, its balance is ${record?.amount ?? 0}`,
      );
  }
  if (richStored !== rich) d.add(`richestAddresses: ${richStored} entries, expected ${rich}`);
  for await (const [m, stored] of store.entries(AGGREGATE_TABLES.distribution)) {
    const want = buckets.get(m);
    buckets.delete(m);
    if (want?.addresses !== stored.addresses || want.total !== stored.total)
      d.add(
        `tokenDistribution: bucket ${m} holds ${stored.addresses} addresses and ${stored.total}, ` +
          `expected ${want?.addresses ?? 0} and ${want?.total ?? 0}`,
      );
  }
  for (const [m, want] of buckets) d.add(`tokenDistribution: bucket ${m} is missing (${want.addresses} addresses)`);
}

const show = (b: AddressBalance): string =>
  `amount ${b.amount}, ${b.outputs} outputs (${b.special} with conditions), ${b.returns} returns`;

/** The second half of 2, and 3. */
async function verifyUpdates(
  store: NodeStore,
  start: number,
  floor: number,
  ledgerIndex: number,
  d: Differences,
  result: HistoryVerification,
): Promise<void> {
  // each milestone with a diff: its updates are exactly the diff's outputs
  for await (const [index, diff] of store.entries(LEDGER_TABLES.milestoneDiffs, { gte: Math.max(start, floor) })) {
    if (index > ledgerIndex) break;
    const want = new Map<string, Uint8Array>();
    const add = (outputId: Uint8Array, spent: boolean, address: Uint8Array): void => {
      want.set(`${toHex(outputId)}.${spent}`, address);
    };
    const records = await store.getMany(LEDGER_TABLES.outputs, [...diff.created, ...diff.consumed]);
    const spentRecords = await store.getMany(LEDGER_TABLES.spent, diff.consumed);
    diff.created.forEach((id, i) => {
      const r = records[i];
      if (r !== undefined) add(id, false, ownerOf(r.output));
    });
    diff.consumed.forEach((id, i) => {
      const r = records[diff.created.length + i];
      const s = spentRecords[i];
      if (r !== undefined && s !== undefined) add(id, true, ownerOf(r.output, s.milestoneTimestampSpent));
    });
    for (const u of await allMilestoneUpdates(store, index)) {
      const key = `${toHex(u.outputId)}.${u.spent}`;
      const expected = want.get(key);
      want.delete(key);
      const kind = u.spent ? 'spent' : 'booked';
      const what = `historyByMilestone: milestone ${index} output ${toHex0x(u.outputId)} (${kind})`;
      if (expected === undefined) d.add(`${what} is not in the milestone's diff`);
      else if (!equalBytes(expected, u.address))
        d.add(`${what} names ${toHex0x(u.address)}, expected ${toHex0x(expected)}`);
    }
    for (const key of want.keys()) d.add(`historyByMilestone: milestone ${index} misses the update of ${key}`);
  }
  // mirrors, both ways: each update of a milestone is in its address's parts (with the milestone's timestamp) ...
  const milestones = new Set<number>();
  let index = -1;
  let updates: MilestoneUpdate[] = [];
  const check = async (): Promise<void> => {
    if (updates.length === 0) return;
    milestones.add(index);
    result.updates += updates.length;
    const timestamp = (await store.get(HISTORY_TABLES.milestones, index))?.timestamp;
    const byAddress = new Map<string, { address: Uint8Array; want: Set<string> }>();
    for (const u of updates) {
      const key = toHex(u.address);
      const a = byAddress.get(key) ?? { address: u.address, want: new Set<string>() };
      byAddress.set(key, a);
      a.want.add(`${toHex(u.outputId)}.${u.spent}`);
    }
    for (const { address, want } of byAddress.values()) {
      const parts = await addressParts(store, address, index);
      const what = `historyByAddress: the updates of ${toHex0x(address)} at milestone ${index}`;
      const got = parts.flatMap(([, g]) => g.entries.map((e) => `${toHex(e.outputId)}.${e.spent}`));
      if (got.length !== want.size || got.some((e) => !want.has(e))) d.add(`${what} are not those of the milestone`);
      if (timestamp !== undefined && parts.some(([, g]) => g.timestamp !== timestamp))
        d.add(`${what} do not have the milestone's timestamp ${timestamp}`);
    }
    updates = [];
  };
  for await (const [key, part] of store.entries(HISTORY_TABLES.byMilestone)) {
    if (key.milestoneIndex < floor) {
      result.pending++;
      continue;
    }
    if (key.milestoneIndex !== index) await check();
    index = key.milestoneIndex;
    updates.push(...part);
  }
  await check();
  // ... and each part of an address is of a milestone that has updates
  for await (const k of store.keys(HISTORY_TABLES.byAddress)) {
    if (k.milestoneIndex < floor) result.pending++;
    else if (!milestones.has(k.milestoneIndex))
      d.add(`historyByAddress: ${toHex0x(k.address)} has updates at milestone ${k.milestoneIndex}, which has none`);
  }
}
