/**
 * The index travels with the ledger: initLedger writes the genesis outputs' entries and the index version in its one
 * batch; confirmMilestone's one batch carries the entries of booked (transactions and receipts) and spent outputs;
 * a store whose ledger has no index gets it built once; verifyOutputIndex finds missing, extra and wrong entries.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../../src/core/bytes.ts';
import { bech32EncodeAddress, nftIdFromOutputId, outputId } from '../../../../src/core/ids/index.ts';
import {
  clearOutputIndex,
  confirmMilestone,
  ensureOutputIndex,
  INDEX_VERSION,
  INDEXER_META,
  INDEXER_TABLES,
  LEDGER_TABLES,
  LedgerState,
  outputIdByNftId,
  positionOf,
  queryOutputs,
  verifyOutputIndex,
} from '../../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, NodeStore, TABLES, type BatchOp } from '../../../../src/core/store/index.ts';
import { basicOutput, TestNetwork, transfer, Wallet } from '../../../../harness/fixtures/ledger.ts';
import { nft } from './support.ts';
import { migrationReceipt } from '../support.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');
const HRP = 'smr';
const addr = (w: Wallet): string => bech32EncodeAddress(HRP, w.address);

/** A memory store that remembers the ops of every write. */
class RecordingStore extends MemoryKeyValueStore {
  readonly writes: BatchOp[][] = [];
  override async write(ops: readonly BatchOp[], options?: { sync?: boolean }): Promise<void> {
    this.writes.push([...ops]);
    return super.write(ops, options);
  }
}

const prefixes = (ops: readonly BatchOp[]): Set<number> => new Set(ops.map((o) => o.key[0]!));

async function owned(net: TestNetwork, w: Wallet): Promise<string[]> {
  return (await queryOutputs(net.store, 'outputs', { unlockableByAddress: addr(w) }, 0, HRP)).items;
}

describe('indexer: written with the ledger', () => {
  it('initLedger indexes the genesis outputs and records the index version in the same batch', async () => {
    const kv = new RecordingStore();
    const net = await TestNetwork.create(kv, [
      { wallet: alice, amount: 3_000_000n },
      { wallet: bob, amount: 2_000_000n },
    ]);
    const genesisWrite = kv.writes.find((ops) => prefixes(ops).has(TABLES.milestones.prefix))!;
    expect([...prefixes(genesisWrite)]).to.include.members([
      0x10,
      0x11,
      INDEXER_TABLES.byType.prefix,
      INDEXER_TABLES.byAddress.prefix,
    ]);
    expect(await net.store.getMeta(INDEXER_META.version)).to.equal(INDEX_VERSION);
    expect(await owned(net, alice)).to.deep.equal([toHex0x(net.genesisOutputs[0]!.outputId)]);
    expect(await owned(net, bob)).to.deep.equal([toHex0x(net.genesisOutputs[1]!.outputId)]);
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([]);
  });

  it(
    "confirmMilestone's one batch carries the index writes: " +
      'spent outputs leave, booked ones arrive, on commit only',
    async () => {
      const kv = new RecordingStore();
      const net = await TestNetwork.create(kv, [{ wallet: alice, amount: 5_000_000n }]);
      const minted = nft({ address: bob.address }, { tag: 'art' });
      minted.amount = 1_000_000n;
      const tx = transfer(alice, [net.genesisOutputs[0]!], [basicOutput(4_000_000n, bob.address), minted]);
      await net.add(tx);
      const ms = await net.milestone();
      const c = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
      expect(await owned(net, alice), 'nothing before commit').to.have.length(1);
      const before = kv.writes.length;
      await c.batch.commit();
      expect(kv.writes.length).to.equal(before + 1);
      const ops = kv.writes.at(-1)!;
      expect([...prefixes(ops)]).to.include.members([
        0x11,
        0x12,
        INDEXER_TABLES.byType.prefix,
        INDEXER_TABLES.byAddress.prefix,
        INDEXER_TABLES.byChainId.prefix,
      ]);
      const created = c.created.map((o) => toHex0x(o.outputId));
      expect(await owned(net, alice)).to.deep.equal([]);
      expect(await owned(net, bob)).to.deep.equal(created);
      expect((await queryOutputs(net.store, 'nft', { tag: '0x617274' }, 0, HRP)).items).to.deep.equal([created[1]]);
      const nftId = nftIdFromOutputId(c.created[1]!.outputId);
      expect(await outputIdByNftId(net.store, nftId)).to.deep.equal(c.created[1]!.outputId);
      // Ordered by the booking milestone's timestamp: the index keys carry it.
      expect(
        await net.store.has(INDEXER_TABLES.byType, {
          outputType: 3,
          position: positionOf(c.milestoneTimestamp, c.created[0]!.outputId),
        }),
      ).to.equal(true);
      expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([]);
    },
  );

  it('indexes the basic outputs a receipt migrates', async () => {
    const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 5_000_000n }], {
      treasury: 10_000_000n,
    });
    const treasury = (await new LedgerState(net.store).treasury())!;
    const funds = [{ tailTransactionHash: new Uint8Array(49).fill(1), address: bob.address, deposit: 3_000_000n }];
    const receipt = migrationReceipt(funds, treasury.milestoneId);
    const ms = await net.milestone({ ...net.draft(), options: [receipt] });
    const c = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
    await c.batch.commit();
    expect(await owned(net, bob)).to.deep.equal([toHex0x(outputId(c.milestoneId, 0))]);
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([]);
  });

  it('builds the index once for a ledger that has none, and rebuilds one of another version', async () => {
    const net = await TestNetwork.create(new MemoryKeyValueStore(), [
      { wallet: alice, amount: 3_000_000n },
      { wallet: bob, amount: 2_000_000n },
    ]);
    await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(3_000_000n, bob.address)]));
    const ms = await net.milestone();
    await (
      await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block })
    ).batch.commit();
    const full = await owned(net, bob);
    expect(full).to.have.length(2);
    expect(await ensureOutputIndex(net.store)).to.deep.equal({ built: false, outputs: 0 });

    // A store from before the indexer: no entries, no version.
    await clearOutputIndex(net.store);
    await net.store.batch().del(TABLES.meta, INDEXER_META.version.name).commit();
    expect(await owned(net, bob)).to.deep.equal([]);
    expect((await verifyOutputIndex(net.store)).differences[0]).to.match(/meta indexer.version is missing/);
    expect(await ensureOutputIndex(net.store)).to.deep.equal({ built: true, outputs: 2 });
    expect(await owned(net, bob)).to.deep.equal(full);
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([]);

    // An index of another version, with a stray entry: dropped and rebuilt.
    await net.store
      .batch()
      .putMeta(INDEXER_META.version, INDEX_VERSION + 1)
      .put(INDEXER_TABLES.byChainId, { outputType: 4, chainId: new Uint8Array(32).fill(1) }, new Uint8Array(34))
      .commit();
    expect(await ensureOutputIndex(net.store)).to.deep.equal({ built: true, outputs: 2 });
    expect(await net.store.getMeta(INDEXER_META.version)).to.equal(INDEX_VERSION);
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([]);
    // No ledger, nothing to index.
    expect(await ensureOutputIndex(await NodeStore.open(new MemoryKeyValueStore()))).to.deep.equal({
      built: false,
      outputs: 0,
    });
  });

  it('verifyOutputIndex reports missing, extra and wrong entries, naming table, key and output', async () => {
    const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 3_000_000n }]);
    const o = net.genesisOutputs[0]!;
    const record = (await net.store.get(LEDGER_TABLES.outputs, o.outputId))!;
    const typeKey = { outputType: 3 as const, position: positionOf(record.milestoneTimestampBooked, o.outputId) };
    const addressKey = {
      address: Uint8Array.of(0, ...alice.address.pubKeyHash),
      outputType: 3 as const,
      position: typeKey.position,
    };

    await net.store.batch().del(INDEXER_TABLES.byType, typeKey).commit();
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([
      `indexByType: entry 0x03${toHex0x(typeKey.position).slice(2)} ` +
        `of unspent output ${toHex0x(o.outputId)} is missing`,
    ]);
    await net.store
      .batch()
      .put(INDEXER_TABLES.byType, typeKey, null)
      .put(INDEXER_TABLES.byAddress, addressKey, 0x04)
      .commit();
    expect((await verifyOutputIndex(net.store)).differences)
      .to.have.length(2)
      .and.satisfy((d: string[]) =>
        d.every((l) => /^indexByAddress: entry 0x00.* holds 0x0400, expected 0x0100$/.test(l)),
      );
    await net.store.batch().put(INDEXER_TABLES.byAddress, addressKey, 0x01).commit();

    const ghost = outputId(new Uint8Array(32).fill(9), 0);
    await net.store
      .batch()
      .put(INDEXER_TABLES.byType, { outputType: 6, position: positionOf(5, ghost) }, null)
      .commit();
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([
      `indexByType: entry 0x06${toHex0x(positionOf(5, ghost)).slice(2)} ` +
        `for output ${toHex0x(ghost)}: the ledger has no such output`,
    ]);
    await net.store
      .batch()
      .del(INDEXER_TABLES.byType, { outputType: 6, position: positionOf(5, ghost) })
      .commit();

    const wrongTime = { ...typeKey, position: positionOf(record.milestoneTimestampBooked + 1, o.outputId) };
    await net.store.batch().put(INDEXER_TABLES.byType, wrongTime, null).commit();
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([
      `indexByType: entry 0x03${toHex0x(wrongTime.position).slice(2)} ` +
        `for output ${toHex0x(o.outputId)}: not an entry of that output`,
    ]);
    await net.store.batch().del(INDEXER_TABLES.byType, wrongTime).commit();

    await net.add(transfer(alice, [o], [basicOutput(3_000_000n, bob.address)]));
    const ms = await net.milestone();
    await (
      await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block })
    ).batch.commit();
    await net.store.batch().put(INDEXER_TABLES.byType, typeKey, null).commit();
    expect((await verifyOutputIndex(net.store)).differences).to.deep.equal([
      `indexByType: entry 0x03${toHex0x(typeKey.position).slice(2)} ` +
        `for output ${toHex0x(o.outputId)}: the output is spent`,
    ]);
    await net.store.kv.put(Uint8Array.of(INDEXER_TABLES.byAddress.prefix, 1, 2, 3), new Uint8Array(0));
    expect((await verifyOutputIndex(net.store)).differences.at(-1)).to.match(
      /^indexByAddress: entry 0x010203 does not decode: /,
    );
  });
});
