/**
 * Parts: a milestone's updates, an address's updates in one milestone and a milestone's blocks are kept in parts of
 * at most PART_SIZE, whole (a confirmation, a genesis) or one update each (a snapshot's chunks). Pages in both orders
 * and every page size read the same items once whichever way they were written, cursors inside and across parts.
 */
import { expect } from 'chai';
import { toHex } from '../../../../src/core/bytes.ts';
import { encodeAddress } from '../../../../src/core/codec/index.ts';
import {
  addressUpdates,
  HISTORY_META,
  HISTORY_TABLES,
  HISTORY_VERSION,
  milestoneBlocks,
  milestoneUpdates,
  PART_SIZE,
  putHistoryMilestone,
  putMilestoneBlocks,
  putUnspentHistory,
  type Page,
  type UpdatesWrite,
} from '../../../../src/core/ledger/index.ts';
import type { Ed25519Address } from '../../../../src/core/model/index.ts';
import { META, MemoryKeyValueStore, NodeStore } from '../../../../src/core/store/index.ts';
import { basicOutput } from '../../../../harness/fixtures/ledger.ts';
import { bytes32, ed, oid } from '../indexer/support.ts';
import { allPages } from './support.ts';

const WHALE = ed('whale') as Ed25519Address;
const N = PART_SIZE + 90;
const OTHERS = Math.floor(N / 3);

/** A store whose history holds N outputs of the whale (and N/3 of another) booked at milestone 5, and 600 blocks. */
async function storeWith(write: UpdatesWrite, chunks: number): Promise<NodeStore> {
  const store = await NodeStore.open(new MemoryKeyValueStore());
  const outputs = Array.from({ length: N + OTHERS }, (_, i) => ({
    outputId: oid(`part ${i}`, i % 128),
    milestoneIndexBooked: 5,
    milestoneTimestampBooked: 1005,
    output: basicOutput(1_000n + BigInt(i), i < N ? WHALE : (ed('other') as Ed25519Address)),
  }));
  const size = Math.ceil(outputs.length / chunks);
  for (let i = 0; i < outputs.length; i += size) {
    const batch = store.batch();
    await putUnspentHistory(store, batch, outputs.slice(i, i + size), write);
    await batch.commit();
  }
  const blocks = Array.from({ length: 600 }, (_, i) => ({
    blockId: bytes32(`block ${i}`),
    payloadType: i % 2 === 0 ? 5 : undefined,
    parents: [bytes32(`parent ${i}`)],
  }));
  const batch = store.batch();
  putMilestoneBlocks(batch, 5, blocks);
  putHistoryMilestone(batch, 5, bytes32('milestone 5'), 1005);
  batch.putMeta(META.ledgerIndex, 5).putMeta(HISTORY_META.start, 5).putMeta(HISTORY_META.version, HISTORY_VERSION);
  await batch.commit();
  return store;
}

const R = { start: 5, ledgerIndex: 5 };
const show = (p: Page<{ outputId: Uint8Array; spent: boolean }>): string[] => p.items.map((u) => toHex(u.outputId));

function follow<T>(read: (cursor: string | undefined) => Promise<Page<T>>, pageSize: number): Promise<T[]> {
  return allPages(read, pageSize).then((r) => r.items);
}

describe('history: parts', () => {
  it('whole writes cut a milestone and an address into parts of PART_SIZE; one-each: one per update', async () => {
    const whole = await storeWith('whole', 1);
    const parts: number[] = [];
    for await (const [, g] of whole.entries(HISTORY_TABLES.byAddress)) parts.push(g.entries.length);
    expect(parts.sort((a, b) => b - a)).to.deep.equal([PART_SIZE, OTHERS, N - PART_SIZE]);
    let blockParts = 0;
    for await (const _ of whole.keys(HISTORY_TABLES.milestoneBlocks)) blockParts++;
    expect(blockParts).to.equal(Math.ceil(600 / PART_SIZE));
    const single = await storeWith('one each', 7);
    let rows = 0;
    for await (const _ of single.keys(HISTORY_TABLES.byAddress)) rows++;
    expect(rows).to.equal(N + OTHERS);
  });

  it('pages of every size, both orders, read every update once, whichever way they were written', async () => {
    const whale = encodeAddress(WHALE);
    const reference = await storeWith('one each', 7);
    const everything = show(await addressUpdates(reference, R, whale, { pageSize: 1000, sort: 'oldest' }));
    expect(everything).to.have.length(N);
    expect([...everything].sort()).to.deep.equal(everything);
    for (const store of [await storeWith('whole', 1), reference])
      for (const pageSize of [1, 7, PART_SIZE, PART_SIZE + 1])
        for (const sort of ['oldest', 'newest'] as const) {
          const items = await follow(async (cursor) => {
            if (cursor === undefined) return addressUpdates(store, R, whale, { pageSize, sort });
            const [m, o, spent] = cursor.split('.');
            const c = { milestoneIndex: Number(m), outputId: Buffer.from(o!.slice(2), 'hex'), spent: spent === 'true' };
            return addressUpdates(store, R, whale, { pageSize, sort, cursor: c });
          }, pageSize);
          const got = items.map((u) => toHex(u.outputId));
          expect(got, `${pageSize} ${sort}`).to.deep.equal(sort === 'oldest' ? everything : [...everything].reverse());
          const updates = await follow(async (cursor) => {
            if (cursor === undefined) return milestoneUpdates(store, R, 5, { pageSize });
            const [o, spent] = cursor.split('.');
            return milestoneUpdates(store, R, 5, {
              pageSize,
              cursor: { outputId: Buffer.from(o!.slice(2), 'hex'), spent: spent === 'true' },
            });
          }, pageSize);
          expect(updates.length).to.equal(N + OTHERS);
          expect(new Set(updates.map((u) => toHex(u.outputId))).size).to.equal(N + OTHERS);
        }
  });

  it("a milestone's blocks page by white-flag index across parts, both orders", async () => {
    const store = await storeWith('whole', 1);
    for (const pageSize of [1, 100, PART_SIZE, 1000])
      for (const sort of ['oldest', 'newest'] as const) {
        const items = await follow(async (cursor) => {
          const c = cursor === undefined ? {} : { cursor: Number(cursor.split('.')[0]) };
          return milestoneBlocks(store, R, 5, { pageSize, sort, ...c });
        }, pageSize);
        const ids = Array.from({ length: 600 }, (_, i) => toHex(bytes32(`block ${i}`)));
        expect(items.map((b) => toHex(b.blockId))).to.deep.equal(sort === 'oldest' ? ids : ids.reverse());
        expect(items[0]!.payloadType).to.equal(sort === 'oldest' ? 5 : undefined);
      }
  });
});
