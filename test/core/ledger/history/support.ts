/**
 * Helpers of the history tests: milestones confirmed on a TestNetwork (harness/fixtures/ledger.ts) with their batch
 * committed, the history's range, every page of a paged read, and outputs booked straight into a store with their
 * TIP-26 entries and history (for the balance rules).
 */
import { expect } from 'chai';
import { encodeAddress } from '../../../../src/core/codec/index.ts';
import {
  confirmMilestone,
  historyRange,
  indexLedgerChanges,
  LEDGER_TABLES,
  putUnspentHistory,
  type HistoryRange,
  type MilestoneConfirmation,
  type Page,
} from '../../../../src/core/ledger/index.ts';
import type { Address, CommonOutput } from '../../../../src/core/model/index.ts';
import type { NodeStore } from '../../../../src/core/store/index.ts';
import type { BuiltBlock, TestNetwork } from '../../../../harness/fixtures/ledger.ts';

export const addressKey = (a: Address): Uint8Array => encodeAddress(a);

/** Signs and confirms the next milestone over the current tip (or `parents`), commits it and accepts it. */
export async function confirmNext(
  net: TestNetwork,
  options: { parents?: Uint8Array[]; timestamp?: number; history?: boolean } = {},
): Promise<{ c: MilestoneConfirmation; ms: BuiltBlock }> {
  const draft = net.draft(options.parents);
  if (options.timestamp !== undefined) draft.timestamp = options.timestamp;
  const ms = await net.milestone(draft);
  const c = await confirmMilestone({
    store: net.store,
    milestoneBlockId: ms.id,
    milestoneBlock: ms.block,
    ...(options.history === false ? { history: false } : {}),
  });
  await c.batch.commit();
  net.accept(ms);
  return { c, ms };
}

export async function rangeOf(store: NodeStore): Promise<HistoryRange> {
  const r = await historyRange(store);
  if (r === undefined) throw new Error('no history range');
  return r;
}

/** Every item of a paged read, following cursors; checks that a cursor comes only with a full page. */
export async function allPages<T>(
  read: (cursor: string | undefined) => Promise<Page<T>>,
  pageSize: number,
): Promise<{ items: T[]; cursors: string[] }> {
  const items: T[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    expect(page.items.length).to.be.at.most(pageSize);
    if (page.cursor !== undefined) {
      expect(page.items.length).to.equal(pageSize);
      cursors.push(page.cursor);
    }
    items.push(...page.items);
    cursor = page.cursor;
    if (cursors.length > 10_000) throw new Error('too many pages');
  } while (cursor !== undefined);
  return { items, cursors };
}

/** Books `outputs` as unspent at milestone 1 (timestamp `at`): ledger records, TIP-26 entries and history. */
export async function bookStraight(
  store: NodeStore,
  outputs: { outputId: Uint8Array; output: CommonOutput }[],
  at = 1000,
): Promise<void> {
  const batch = store.batch();
  const booked = outputs.map((o) => ({ ...o, milestoneIndexBooked: 1, milestoneTimestampBooked: at }));
  for (const o of booked) {
    batch.put(LEDGER_TABLES.outputs, o.outputId, { blockId: new Uint8Array(32), ...o });
    batch.put(LEDGER_TABLES.unspent, o.outputId, null);
  }
  indexLedgerChanges(batch, booked, []);
  await putUnspentHistory(store, batch, booked, 'one each');
  await batch.commit();
}
