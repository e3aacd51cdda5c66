/**
 * Pruning of the v3 data by time (src/node/v3/pruning.ts, docs/decisions.md §27), the engine over a memory store
 * (support.ts): confirmed blocks of the slots before the boundary go with their attachments, the records of the
 * transactions they included and the outputs those spent; newer and unconfirmed blocks, unspent outputs and Mana stay;
 * reads of pruned data answer NOT_FOUND saying so; a block naming a pruned parent is refused naming the pruning; new
 * blocks attach and confirm afterwards; a store of the older layout gets its slot index on open; a run interrupted
 * after k batches is finished by the next one. The node's part is pruning-node.test.ts.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import { TABLES } from '../../../src/core/store/index.ts';
import { idWithSlot, outputIdV3, type SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { V3Parking, type ParkingRequests } from '../../../src/node/peering/v3-parking.ts';
import type { PeeringContext } from '../../../src/node/peering/context.ts';
import type { Peer } from '../../../src/node/peering/peers.ts';
import { ensureSlotIndex, readPruningV3, V3_META_SLOT_INDEX } from '../../../src/node/v3/pruning.ts';
import { V3_TABLES, type SlotBlockKey } from '../../../src/node/v3/tables.ts';
import { genesisOutputId, GENESIS_TIME, key, txIdOf, WALLET } from '../../../harness/fixtures/v3.ts';
import { collect, EngineHarness, rejection, S, TARGET } from './support.ts';

describe('v3 pruning by time (engine)', function () {
  this.timeout(60_000);

  describe('a prune past old confirmed blocks', () => {
    const h = new EngineHarness();
    let tx1: SignedTransactionPayloadV3;
    let tx2: SignedTransactionPayloadV3;
    let old: Uint8Array[];
    let b1: Uint8Array;
    let reattached: Uint8Array;
    let n1: Uint8Array;
    let kept: Uint8Array[];
    let pending: Uint8Array;
    let x: Uint8Array;

    before(async () => {
      await h.open();
      const { engine, g } = h;
      // old: slots 1001-1003 (tx1 twice, the slot-1001 attachment is its included block), confirmed by rounds in 1010
      h.at(1010);
      tx1 = h.spend(genesisOutputId(g, 0), WALLET, 1001);
      x = outputIdV3(txIdOf(tx1), 0);
      b1 = await h.submit({ slot: 1001, parents: [engine.genesisBlockId], payload: tx1 });
      const b2 = await h.submit({ slot: 1002, parents: [b1] });
      const b3 = await h.submit({ slot: 1003, parents: [b2], payload: tx1 });
      const rounds = await h.confirm();
      old = [b1, b2, b3, ...rounds];
      expect(toHex0x(engine.includedBlockId(txIdOf(tx1)))).to.equal(toHex0x(b1));
      // an old block the committee never accepts: orphaned once its slot is committed, then final like the confirmed
      pending = await h.submit({ slot: 1005, parents: [b2] });
      // newer: slots 1099-1100, tx1 attached once more (kept), tx2 spends the other genesis output
      h.at(1100);
      reattached = await h.submit({ slot: 1099, payload: tx1 });
      tx2 = h.spend(genesisOutputId(g, 1), WALLET, 1100);
      n1 = await h.submit({ slot: 1100, payload: tx2 });
      kept = [reattached, n1, ...(await h.confirm())];
      // the rounds of slot 1100 name the commitment of slot 1090: finalized up to there
      for (const id of old) expect(await h.state(id), toHex0x(id)).to.equal('finalized');
      expect(await h.state(n1)).to.equal('confirmed');
      expect(await h.state(pending)).to.equal('orphaned');
    });
    after(() => h.engine.idle());

    it('deletes the confirmed blocks of the old slots and what goes with them, nothing else', async () => {
      const { engine, store, g } = h;
      expect(await h.leftovers()).to.have.length.above(0);
      const p = await engine.prune(TARGET);
      expect(p).to.deep.include({ slot: S, blocks: old.length + 1, transactions: 1, outputs: 1 }); // + the orphan
      expect(await readPruningV3(store)).to.deep.equal({ slot: S, milestoneIndex: 7 });
      expect(await h.leftovers()).to.deep.equal([]);
      for (const id of old) {
        expect(await store.getBlock(id), toHex0x(id)).to.equal(undefined);
        expect(await store.get(V3_TABLES.blockState, id)).to.equal(undefined);
        expect(await store.has(V3_TABLES.tips, id)).to.equal(false);
      }
      expect(await store.get(V3_TABLES.transactions, txIdOf(tx1))).to.equal(undefined);
      expect(
        (await collect(store.keys(TABLES.transactionBlocks, { prefix: Uint8Array.of(36, ...txIdOf(tx1)) }))).map(
          ([, b]) => toHex0x(b),
        ),
      ).to.deep.equal([toHex0x(reattached)]);
      // the output tx1 spent goes; every unspent output stays, and so does the one tx2 spent (its block is kept)
      expect(await store.get(V3_TABLES.outputs, genesisOutputId(g, 0))).to.equal(undefined);
      expect(engine.output(genesisOutputId(g, 0))).to.equal(undefined);
      expect(engine.output(x)).to.deep.include({ spent: false });
      expect(engine.output(genesisOutputId(g, 1))).to.deep.include({ spent: true });
      expect(engine.output(outputIdV3(txIdOf(tx2), 0))).to.deep.include({ spent: false });
      for (const id of kept) expect(await store.getBlock(id), toHex0x(id)).to.not.equal(undefined);
      expect(await store.getBlock(pending)).to.equal(undefined);
    });

    it('reads of pruned data answer NOT_FOUND saying they may be pruned; kept data answers as before', async () => {
      const { engine } = h;
      const note = new RegExp(
        String.raw`\(unknown, or pruned: this node keeps no confirmed v3 block of a slot before 1050, ` +
          String.raw`the slot of milestone 7, its pruning index\)$`,
      );
      for (const read of [
        engine.blockBytes(b1),
        engine.blockMetadata(b1),
        engine.read(() => engine.includedBlockId(txIdOf(tx1))),
      ]) {
        const e = await rejection(read);
        expect(e).to.be.instanceOf(NodeError);
        expect(e.code).to.equal('NOT_FOUND');
        expect(e.message).to.match(note);
      }
      expect((await rejection(engine.blockBytes(idWithSlot(new Uint8Array(32).fill(9), 1200)))).message).to.equal(
        `block not found: ${toHex0x(idWithSlot(new Uint8Array(32).fill(9), 1200))}`,
      );
      expect(engine.transactionState(txIdOf(tx1))).to.equal(undefined);
      expect(toHex0x(engine.includedBlockId(txIdOf(tx2)))).to.equal(toHex0x(n1));
      // a kept attachment of a transaction whose included block was pruned: the transaction was confirmed
      expect(await engine.blockMetadata(reattached)).to.deep.include({
        blockState: 'confirmed',
        transaction: { transactionId: txIdOf(tx1), state: 'committed', earliestAttachmentSlot: 1099 },
      });
    });

    it('forgets pruned blocks in memory: never parents; a block naming one is refused naming the pruning', async () => {
      const { engine } = h;
      expect(engine.blocksInMemory).to.equal(kept.length);
      const tips = engine.selectTips().map(toHex0x);
      for (const id of [...old, pending]) expect(tips).to.not.include(toHex0x(id));
      h.at(1101);
      const e = await rejection(h.submit({ slot: 1101, parents: [b1] }));
      expect(e).to.be.instanceOf(ProtocolError);
      expect(e.code).to.equal('INVALID_FIELD');
      expect(e.message).to.equal(
        `Cannot accept block: parent ${toHex0x(b1)} is not kept: its slot 1001 is before slot 1050, ` +
          'up to which this node pruned its confirmed v3 blocks (milestone 7, its pruning index)',
      );
      // a transaction spending an output pruned with its spender is refused by the ledger, not a crash
      const again = await rejection(
        h.submit({ slot: 1101, payload: h.spend(genesisOutputId(h.g, 0), WALLET, 1101, key(72)) }),
      );
      expect(again.message).to.match(/is not an output of the confirmed ledger/);
    });

    it("attaches, confirms new blocks spending a pruned transaction's output; none joins old slots", async () => {
      const { engine } = h;
      h.at(1102);
      const tx3 = h.spend(x, key(70), 1102, key(71));
      const n2 = await h.submit({ slot: 1102, payload: tx3 });
      await h.confirm();
      expect(await h.state(n2)).to.equal('confirmed');
      expect(toHex0x(engine.includedBlockId(txIdOf(tx3)))).to.equal(toHex0x(n2));
      expect(engine.output(x)).to.deep.include({ spent: true });
      // a block of a committed slot is refused: nothing can join the slots before the boundary
      expect((await rejection(h.submit({ slot: 1040, parents: [n2] }))).message).to.match(
        /slot 1040 is already committed/,
      );
      expect(await h.leftovers()).to.deep.equal([]);
      expect(await engine.prune(TARGET)).to.deep.include({ blocks: 0, transactions: 0 });
    });

    it('a restart loads the pruned store and answers the same', async () => {
      await h.open();
      const { engine } = h;
      expect((await rejection(engine.blockMetadata(b1))).message).to.match(/or pruned: .* before 1050/);
      expect(await h.state(n1)).to.equal('confirmed');
      expect(engine.output(x)).to.deep.include({ spent: true });
      expect((await rejection(h.submit({ slot: 1103, parents: [b1] }))).message).to.match(
        /is not kept: its slot 1001 is before slot 1050/,
      );
      h.at(1103);
      const n3 = await h.submit({ slot: 1103 });
      await h.confirm();
      expect(await h.state(n3)).to.equal('confirmed');
    });

    it("a peer's block naming a pruned parent is dropped: parent not requested, sender not blamed", async () => {
      const { engine, store } = h;
      const requested: Uint8Array[] = [];
      let failed = 0;
      const ctx = { settings: { maxParked: 16 } } as unknown as PeeringContext;
      const requests: ParkingRequests = {
        arrival: () => 'new',
        request: (id) => {
          requested.push(id);
          return true;
        },
      };
      const parking = new V3Parking(
        ctx,
        { store, v3: engine },
        requests,
        { get: () => undefined },
        () => undefined,
        () => failed++,
      );
      h.at(1104);
      const bytes = h.bytes({ slot: 1104, parents: [b1] });
      await parking.receive({ key: 1 } as unknown as Peer, bytes);
      expect(requested).to.deep.equal([]);
      expect(failed).to.equal(0);
      // a missing parent of a kept slot is still requested
      const unknown = idWithSlot(new Uint8Array(32).fill(5), 1103);
      await parking.receive({ key: 1 } as unknown as Peer, h.bytes({ slot: 1104, parents: [unknown] }));
      expect(requested.map(toHex0x)).to.deep.equal([toHex0x(unknown)]);
    });
  });

  describe('a store of the older layout (no slot index)', () => {
    it('gets its slot index on open, in bounded batches, then prunes', async () => {
      const h = await new EngineHarness().open();
      h.at(1010);
      let parent = h.engine.genesisBlockId;
      for (let slot = 1001; slot <= 1005; slot++) parent = await h.submit({ slot, parents: [parent] });
      await h.confirm();
      const built = await collect(h.store.keys(V3_TABLES.slotBlocks));
      expect(built).to.have.length(7);
      const drop = async (): Promise<void> => {
        const batch = h.store.batch();
        for (const k of built) batch.del(V3_TABLES.slotBlocks, k);
        batch.del(V3_TABLES.meta, V3_META_SLOT_INDEX);
        await batch.commit();
      };
      const asText = (keys: SlotBlockKey[]): string[] => keys.map((k) => `${k.slot}:${toHex0x(k.blockId)}`);
      await drop();
      expect(await ensureSlotIndex(h.store, 2)).to.equal(7);
      expect(asText(await collect(h.store.keys(V3_TABLES.slotBlocks)))).to.deep.equal(asText(built));
      expect(await ensureSlotIndex(h.store, 2)).to.equal(0);

      await drop();
      await h.open();
      expect(await h.store.get(V3_TABLES.meta, V3_META_SLOT_INDEX)).to.equal('built');
      expect(asText(await collect(h.store.keys(V3_TABLES.slotBlocks)))).to.deep.equal(asText(built));
      h.at(1100);
      await h.submit({ slot: 1100 });
      await h.confirm();
      expect(await h.engine.prune(TARGET)).to.deep.include({ blocks: 7 });
      expect(await h.leftovers()).to.deep.equal([]);
    });
  });

  describe('a prune interrupted after k batches', () => {
    it('leaves a consistent store, and the next run finishes it with nothing left behind', async () => {
      const h = await new EngineHarness().open();
      h.at(1010); // slot 1001 not committed yet; blocks up to slot 1012 are at most 2 s ahead
      const tx1 = h.spend(genesisOutputId(h.g, 0), WALLET, 1001);
      let parent = await h.submit({ slot: 1001, parents: [h.engine.genesisBlockId], payload: tx1 });
      const first = parent;
      for (let slot = 1002; slot <= 1012; slot++) parent = await h.submit({ slot, parents: [parent] });
      await h.confirm();
      h.at(1100);
      const n1 = await h.submit({ slot: 1100 });
      await h.confirm();
      expect(await h.state(n1)).to.equal('confirmed');

      const crash = new Error('simulated crash');
      const seen: number[] = [];
      const e = await rejection(
        h.engine.prune(TARGET, {
          batch: 3,
          afterBatch: (p) => {
            seen.push(p.blocks);
            if (p.batches === 2) throw crash;
          },
        }),
      );
      expect(e).to.equal(crash);
      expect(seen).to.deep.equal([3, 6]);
      expect(await readPruningV3(h.store)).to.deep.equal({ slot: S, milestoneIndex: 7 });
      // the slots' UTXO changes go after the blocks, by the run's last step
      const left = (await h.leftovers()).filter((l) => !l.startsWith('utxoChanges:'));
      expect(left).to.have.length(14 - 6);
      expect(left.every((l) => l.startsWith('blockState: confirmed block'))).to.equal(true);
      expect((await rejection(h.engine.blockBytes(first))).message).to.match(/or pruned/);

      // the next run, after a restart and asked for an earlier milestone, finishes the recorded one
      await h.open();
      const p = await h.engine.prune({ milestoneIndex: 3, timestamp: GENESIS_TIME + 10 });
      expect(p).to.deep.include({ slot: S, blocks: 8 });
      expect(await h.leftovers()).to.deep.equal([]);
      expect(await readPruningV3(h.store)).to.deep.equal({ slot: S, milestoneIndex: 7 });
      expect((await rejection(h.engine.read(() => h.engine.includedBlockId(txIdOf(tx1))))).message).to.match(
        /or pruned/,
      );
      h.at(1101);
      const n2 = await h.submit({ slot: 1101 });
      await h.confirm();
      expect(await h.state(n2)).to.equal('confirmed');
    });
  });
});
