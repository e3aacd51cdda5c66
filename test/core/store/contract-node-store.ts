/** The storage contract, second part: NodeStore on top of the KeyValueStore under test (see contract.ts). */
import { expect } from 'chai';
import { fromHex } from '../../../src/core/bytes.ts';
import {
  NodeStore,
  PREFIX,
  META,
  SCHEMA_VERSION,
  TABLES,
  StoreError,
  defineTable,
  idPrefix,
  u32KeyCodec,
  utf8Codec,
} from '../../../src/core/store/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import {
  indexLedgerChanges,
  LEDGER_TABLES,
  positionOf,
  queryOutputs,
  verifyOutputIndex,
} from '../../../src/core/ledger/index.ts';
import type { Address } from '../../../src/core/model/index.ts';
import { all, b, h, id, metadata, rejects, type StoreUnderTest } from './contract-support.ts';

export function nodeStoreContract(ctx: StoreUnderTest): void {
  describe('NodeStore', () => {
    let store: NodeStore;
    beforeEach(async () => {
      store = await NodeStore.open(ctx.kv, { networkName: 'testnet' });
    });

    it('records schema version and network on a new store, and checks them on open', async () => {
      expect(await store.getMeta(META.schemaVersion)).to.equal(SCHEMA_VERSION);
      expect(await store.getMeta(META.networkName)).to.equal('testnet');
      await NodeStore.open(ctx.kv, { networkName: 'testnet' });
      await NodeStore.open(ctx.kv);
      const e = (await rejects(NodeStore.open(ctx.kv, { networkName: 'shimmer' }))) as StoreError;
      expect(e.code).to.equal('NETWORK_MISMATCH');
      expect(e.message).to.contain('"testnet"').and.contain('"shimmer"');
      await store
        .batch()
        .putMeta(META.schemaVersion, SCHEMA_VERSION + 1)
        .commit();
      expect(((await rejects(NodeStore.open(ctx.kv))) as StoreError).code).to.equal('SCHEMA_MISMATCH');
    });

    it('refuses a non-empty store without a schema version', async () => {
      await ctx.kv.del(Uint8Array.of(PREFIX.meta, ...utf8Codec.encode('schemaVersion')));
      await ctx.kv.put(b(PREFIX.blocks, 1, 1), b(1));
      expect(((await rejects(NodeStore.open(ctx.kv))) as StoreError).code).to.equal('SCHEMA_MISMATCH');
    });

    it('stores a block with metadata, children and tips in one batch, visible only after commit', async () => {
      const [p1, p2] = [id(1), id(2)];
      await store.batch().addTip(p1).addTip(p2).commit();
      const blockId = id(3);
      const bytes = Uint8Array.from({ length: 150 }, (_, i) => i);
      const md = metadata({ solid: true });
      const batch = store
        .batch()
        .addBlock({ blockId, bytes, parents: [p1, p2], metadata: md })
        .removeTip(p1)
        .removeTip(p2)
        .addTip(blockId);
      expect(batch.length).to.equal(7);
      expect(await store.hasBlock(blockId)).to.equal(false);
      expect(await store.children(p1)).to.deep.equal([]);
      await batch.commit();
      expect(await store.getBlock(blockId)).to.deep.equal(bytes);
      expect(await store.getBlockMetadata(blockId)).to.deep.equal(md);
      expect(await store.children(p1)).to.deep.equal([blockId]);
      expect(await store.children(p2)).to.deep.equal([blockId]);
      expect(await store.tips()).to.deep.equal([blockId]);
      expect(await store.isTip(p1)).to.equal(false);
      const e = (await rejects(batch.commit())) as StoreError;
      expect(e.code).to.equal('BATCH_COMMITTED');
      expect(() => batch.addTip(p1)).to.throw(StoreError);
    });

    it('writes nothing of a batch whose value cannot be encoded', async () => {
      const batch = store.batch().addBlock({ blockId: id(4), bytes: b(1), parents: [id(1)], metadata: metadata() });
      expect(() => batch.putBlockMetadata(id(5), metadata({ protocolVersion: 4 as never }))).to.throw(RangeError);
      expect(() => batch.put(TABLES.milestones, -1, { milestoneId: id(1), blockId: id(2), timestamp: 1 })).to.throw(
        RangeError,
      );
      expect(await store.hasBlock(id(4))).to.equal(false);
      expect(await store.children(id(1))).to.deep.equal([]);
    });

    it('stores real blocks byte for byte under their IDs', async () => {
      const vectors = (
        loadVectors('stardust/blocks.json').vectors as {
          bytes: string;
          json: { parents: string[] };
          derived?: { blockId?: string };
        }[]
      ).filter((v) => v.derived?.blockId && v.json?.parents);
      expect(vectors.length).to.be.greaterThan(0);
      const batch = store.batch();
      for (const v of vectors) {
        batch.addBlock({
          blockId: fromHex(v.derived!.blockId!),
          bytes: fromHex(v.bytes),
          parents: v.json.parents.map((p) => fromHex(p)),
          metadata: metadata(),
        });
      }
      await batch.commit();
      for (const v of vectors) {
        expect(h((await store.getBlock(fromHex(v.derived!.blockId!)))!)).to.equal(v.bytes.replace(/^0x/, ''));
        for (const p of v.json.parents)
          expect((await store.children(fromHex(p))).map(h)).to.include(v.derived!.blockId!.slice(2));
      }
    });

    it('lists children by prefix scan without bleeding into neighbouring or longer IDs', async () => {
      const parent = id(7);
      const neighbour = parent.slice();
      neighbour[31] = (neighbour[31]! + 1) & 0xff;
      const longer = Uint8Array.of(...parent, 0, 0, 0, 9); // a 36-byte (v3-sized) ID starting with the parent
      const ffParent = new Uint8Array(32).fill(0xff);
      const kids = [id(20), id(21), id(22, 36)];
      const batch = store.batch();
      for (const k of kids) batch.addChild(parent, k);
      batch.addChild(neighbour, id(30)).addChild(longer, id(31)).addChild(ffParent, id(32)).addChild(ffParent, id(33));
      await batch.commit();
      expect((await store.children(parent)).map(h).sort()).to.deep.equal(kids.map(h).sort());
      expect(await store.children(neighbour)).to.deep.equal([id(30)]);
      expect(await store.children(longer)).to.deep.equal([id(31)]);
      expect((await store.children(ffParent)).map(h)).to.deep.equal([id(32), id(33)].map(h).sort());
      expect(await store.children(id(99))).to.deep.equal([]);
    });

    it('indexes transactions: every carrying block, and the included one', async () => {
      const tx = id(40);
      const otherTx = id(41, 36);
      await store
        .batch()
        .addBlock({ blockId: id(42), bytes: b(1), parents: [id(1)], metadata: metadata(), transactionId: tx })
        .addBlock({ blockId: id(43), bytes: b(2), parents: [id(1)], metadata: metadata(), transactionId: tx })
        .addTransactionBlock(otherTx, id(44, 36))
        .commit();
      expect((await store.transactionBlocks(tx)).map(h)).to.deep.equal([id(42), id(43)].map(h).sort());
      expect(await store.transactionBlocks(otherTx)).to.deep.equal([id(44, 36)]);
      expect(await store.includedBlock(tx)).to.equal(undefined);
      await store.batch().setIncludedBlock(tx, id(43)).commit();
      expect(await store.includedBlock(tx)).to.deep.equal(id(43));
    });

    it('keeps milestones by index (numeric order) and by milestone ID', async () => {
      expect(await store.lastMilestoneIndex()).to.equal(undefined);
      const batch = store.batch();
      for (const i of [1, 255, 256, 65536, 2])
        batch.putMilestone(i, { milestoneId: id(i), blockId: id(i + 1000), timestamp: 1_690_000_000 + i });
      batch
        .putMeta(META.latestMilestoneIndex, 65536)
        .putMeta(META.confirmedMilestoneIndex, 256)
        .putMeta(META.ledgerIndex, 255);
      await batch.commit();
      expect(await store.lastMilestoneIndex()).to.equal(65536);
      expect(await store.milestone(256)).to.deep.equal({
        milestoneId: id(256),
        blockId: id(1256),
        timestamp: 1_690_000_256,
      });
      expect(await store.milestone(3)).to.equal(undefined);
      expect(await store.milestoneIndexById(id(255))).to.equal(255);
      expect(await all(store.keys(TABLES.milestones, { gte: 2, lt: 65536 }))).to.deep.equal([2, 255, 256]);
      expect(await store.getMeta(META.latestMilestoneIndex)).to.equal(65536);
      expect(await store.getMeta(META.confirmedMilestoneIndex)).to.equal(256);
      expect(await store.getMeta(META.ledgerIndex)).to.equal(255);
    });

    it('serves generic typed tables, including one at prefix 0xff', async () => {
      const notes = defineTable('notes', PREFIX.scratch, u32KeyCodec, utf8Codec);
      const batch = store.batch();
      for (const i of [5, 1, 300, 70000]) batch.put(notes, i, `note ${i}`);
      batch.addTip(id(1));
      await batch.commit();
      expect(await store.get(notes, 300)).to.equal('note 300');
      expect(await store.get(notes, 4)).to.equal(undefined);
      expect(await store.getMany(notes, [1, 2, 5])).to.deep.equal(['note 1', undefined, 'note 5']);
      expect(await all(store.entries(notes))).to.deep.equal([
        [1, 'note 1'],
        [5, 'note 5'],
        [300, 'note 300'],
        [70000, 'note 70000'],
      ]);
      expect(await all(store.keys(notes, { gt: 1, lte: 300, reverse: true }))).to.deep.equal([300, 5]);
      expect(await all(store.keys(notes, { limit: 2 }))).to.deep.equal([1, 5]);
      await store.batch().del(notes, 5).commit();
      expect(await store.has(notes, 5)).to.equal(false);
      expect(await store.tips()).to.deep.equal([id(1)]); // other tables untouched
      expect(await all(store.keys(TABLES.tips, { prefix: idPrefix(id(1)) }))).to.deep.equal([id(1)]);
    });

    it('updates block metadata in place', async () => {
      const blockId = id(50);
      await store
        .batch()
        .addBlock({ blockId, bytes: b(7), parents: [id(1)], metadata: metadata() })
        .commit();
      const referenced = metadata({
        solid: true,
        referenced: { milestoneIndex: 9, whiteFlagIndex: 3, ledgerInclusionState: 'conflicting', conflictReason: 2 },
      });
      await store.batch().putBlockMetadata(blockId, referenced).commit();
      expect(await store.getBlockMetadata(blockId)).to.deep.equal(referenced);
      expect(await store.getBlock(blockId)).to.deep.equal(b(7));
    });

    it('finds every table again after close and re-open', async function () {
      if (!ctx.harness.persistent) this.skip();
      const blockId = id(60);
      const md = metadata({
        solid: true,
        milestoneIndex: 12,
        referenced: {
          milestoneIndex: 13,
          whiteFlagIndex: 0,
          ledgerInclusionState: 'noTransaction',
          conflictReason: 0,
        },
      });
      await store
        .batch()
        .addBlock({ blockId, bytes: b(1, 2, 3), parents: [id(61), id(62)], metadata: md, transactionId: id(63) })
        .addTip(blockId)
        .setIncludedBlock(id(63), blockId)
        .putMilestone(12, { milestoneId: id(64), blockId, timestamp: 5 })
        .putMeta(META.latestMilestoneIndex, 12)
        .commit();
      store = await NodeStore.open(await ctx.reopen(), { networkName: 'testnet' });
      expect(await store.getBlock(blockId)).to.deep.equal(b(1, 2, 3));
      expect(await store.getBlockMetadata(blockId)).to.deep.equal(md);
      expect(await store.children(id(62))).to.deep.equal([blockId]);
      expect(await store.tips()).to.deep.equal([blockId]);
      expect(await store.transactionBlocks(id(63))).to.deep.equal([blockId]);
      expect(await store.includedBlock(id(63))).to.deep.equal(blockId);
      expect(await store.milestone(12)).to.deep.equal({ milestoneId: id(64), blockId, timestamp: 5 });
      expect(await store.milestoneIndexById(id(64))).to.equal(12);
      expect(await store.getMeta(META.latestMilestoneIndex)).to.equal(12);
    });

    it(
      'serves the output index: ordered range scans of a group from a cursor, deletes in the same batch, ' +
        'after re-open',
      async () => {
        // 40 outputs of one address over 4 timestamps, booked with their index entries in one batch.
        const owner: Address = { type: 0, pubKeyHash: id(70) };
        const outputs = Array.from({ length: 40 }, (_, i) => ({
          outputId: Uint8Array.of(...id(71 + (i % 5)), i, 0),
          milestoneTimestampBooked: 1_700_000_000 + (i % 4) * 255,
          output: {
            type: 3 as const,
            amount: 1_000_000n,
            nativeTokens: [],
            unlockConditions: [{ type: 0 as const, address: owner }],
            features: [],
          },
        }));
        const batch = store.batch();
        for (const o of outputs) {
          batch.put(LEDGER_TABLES.outputs, o.outputId, {
            blockId: id(76),
            milestoneIndexBooked: 1,
            milestoneTimestampBooked: o.milestoneTimestampBooked,
            output: o.output,
          });
          batch.put(LEDGER_TABLES.unspent, o.outputId, null);
        }
        indexLedgerChanges(batch, outputs, []);
        await batch.commit();
        const ordered = outputs
          .map((o) => h(positionOf(o.milestoneTimestampBooked, o.outputId)))
          .sort()
          .map((p) => `0x${p.slice(8)}`);
        const pages = async (params: Record<string, string>): Promise<string[]> => {
          const items: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await queryOutputs(
              store,
              'basic',
              { ...params, ...(cursor ? { cursor } : { pageSize: '6' }) },
              1,
              'smr',
            );
            items.push(...page.items);
            cursor = page.cursor;
          } while (cursor !== undefined);
          return items;
        };
        const address = bech32EncodeAddress('smr', owner);
        expect(await pages({ address })).to.deep.equal(ordered);
        expect(
          await pages({ address, createdAfter: String(1_700_000_000), createdBefore: String(1_700_000_000 + 3 * 255) }),
        ).to.have.length(20);
        // Spending deletes the entries in the spending batch.
        const spent = outputs.slice(0, 10);
        const spend = store.batch();
        for (const o of spent) spend.del(LEDGER_TABLES.unspent, o.outputId);
        indexLedgerChanges(spend, [], spent);
        await spend.commit();
        const left = ordered.filter((x) => !spent.some((o) => `0x${h(o.outputId)}` === x));
        expect(await pages({ address })).to.deep.equal(left);
        if (ctx.harness.persistent) {
          store = await NodeStore.open(await ctx.reopen(), { networkName: 'testnet' });
          expect(await pages({ unlockableByAddress: address })).to.deep.equal(left);
        }
        expect((await verifyOutputIndex(store)).differences).to.deep.equal([]);
      },
    );
  });
}
