/**
 * Pruning of the v3 data by time (src/node/v3/pruning.ts, docs/decisions.md §27). The engine over a memory store:
 * confirmed blocks of the slots before the boundary go with their attachments, the records of the transactions they
 * included and the outputs those spent; newer and unconfirmed blocks, unspent outputs and Mana stay; reads of pruned
 * data answer NOT_FOUND saying so; a block naming a pruned parent is refused naming the pruning; new blocks attach and
 * confirm afterwards; a store of the older layout gets its slot index on open; a run interrupted after k batches is
 * finished by the next one. Then a composed node: a v2 prune prunes the v3 data older than the pruning index's
 * milestone, `tool check` accepts the store, and a start finishes an interrupted v3 run.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import { MemoryKeyValueStore, NodeStore, TABLES } from '../../../src/core/store/index.ts';
import { idWithSlot, outputIdV3, type SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { checkStore } from '../../../src/node/check/consistency.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { V3Parking, type ParkingRequests } from '../../../src/node/peering/v3-parking.ts';
import type { PeeringContext } from '../../../src/node/peering/context.ts';
import type { Peer } from '../../../src/node/peering/peers.ts';
import { V3Engine, type V3PruneTarget } from '../../../src/node/v3/engine.ts';
import { devProtocolParametersV3, genesisBlockIdV3, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { ensureSlotIndex, readPruningV3, V3_META_SLOT_INDEX } from '../../../src/node/v3/pruning.ts';
import { V3_TABLES, type BlockStateRecord, type SlotBlockKey } from '../../../src/node/v3/tables.ts';
import type { TestNode } from '../../../harness/node.ts';
import { milestones, openNode, testGenesis } from '../pruning/support.ts';
import {
  basic,
  basicBlock,
  genesisOutputId,
  GENESIS_TIME,
  inputOf,
  key,
  NS,
  signedTx,
  slotStartNs,
  testGenesisV3,
  txIdOf,
  USER,
  WALLET,
} from '../../../harness/fixtures/v3.ts';

/** The boundary of the engine tests: milestone 7's timestamp lies in slot 1050. */
const S = 1050;
const TARGET: V3PruneTarget = { milestoneIndex: 7, timestamp: GENESIS_TIME + S - 1 };

async function failure(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string };
  }
  return expect.fail('expected a rejection');
}

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** What a finished prune to `slot` must not leave behind; also the consistency of what it kept. */
async function leftovers(store: NodeStore, slot: number, genesisBlockId: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  const states = new Map<string, BlockStateRecord>();
  for await (const [id, r] of store.entries(V3_TABLES.blockState)) {
    states.set(toHex0x(id), r);
    if (r.confirmed && r.slot < slot) out.push(`blockState: confirmed block ${toHex0x(id)} of slot ${r.slot} is kept`);
  }
  let indexed = 0;
  for await (const k of store.keys(V3_TABLES.slotBlocks)) {
    indexed++;
    const r = states.get(toHex0x(k.blockId));
    if (r?.slot !== k.slot)
      out.push(`slotBlocks: ${toHex0x(k.blockId)} at slot ${k.slot}, its state ${r ? `at ${r.slot}` : 'is gone'}`);
  }
  if (indexed !== states.size) out.push(`slotBlocks: ${indexed} entries for ${states.size} block states`);
  for await (const id of store.keys(TABLES.blocks))
    if (id.length === 36 && !states.has(toHex0x(id))) out.push(`blocks: v3 block ${toHex0x(id)} without a state`);
  for await (const id of store.keys(V3_TABLES.tips))
    if (!states.has(toHex0x(id)) && toHex0x(id) !== toHex0x(genesisBlockId))
      out.push(`tips: ${toHex0x(id)} without a state`);
  for await (const [tx, b] of store.keys(TABLES.transactionBlocks))
    if (b.length === 36 && !states.has(toHex0x(b)))
      out.push(`transactionBlocks: ${toHex0x(tx)} -> pruned block ${toHex0x(b)}`);
  const txs = new Set<string>();
  for await (const [id, r] of store.entries(V3_TABLES.transactions)) {
    txs.add(toHex0x(id));
    if (r.includedBlockId !== undefined && !states.has(r.includedBlockId))
      out.push(`transactions: ${toHex0x(id)} names pruned included block ${r.includedBlockId}`);
  }
  for await (const [id, r] of store.entries(V3_TABLES.outputs))
    if (r.spentBy !== undefined && !txs.has(r.spentBy))
      out.push(`outputs: ${toHex0x(id)} spent by pruned transaction ${r.spentBy} is kept`);
  return out;
}

/** An engine over a memory store with a clock the test sets, reopened over the same store as after a restart. */
class Harness {
  readonly g: GenesisV3 = testGenesisV3();
  readonly kv = new MemoryKeyValueStore();
  store!: NodeStore;
  engine!: V3Engine;
  nowMs = 0;

  async open(): Promise<this> {
    if (this.engine) await this.engine.idle();
    this.store ??= await NodeStore.open(this.kv);
    await V3Engine.create(this.store, this.g);
    this.engine = (await V3Engine.open(this.store, { now: () => this.nowMs }))!;
    return this;
  }

  /** The clock in slot `slot`. */
  at(slot: number): void {
    this.nowMs = Number(slotStartNs(this.engine.params, slot) / 1_000_000n) + 100;
  }

  bytes(o: { slot: number; parents?: Uint8Array[]; payload?: SignedTransactionPayloadV3 }): Uint8Array {
    const e = this.engine;
    return basicBlock(e.params, {
      issuer: USER,
      parents: o.parents ?? e.selectTips(),
      issuingTime: slotStartNs(e.params, o.slot),
      commitmentId: e.genesisCommitmentId,
      ...(o.payload ? { payload: o.payload } : {}),
    });
  }

  submit(o: { slot: number; parents?: Uint8Array[]; payload?: SignedTransactionPayloadV3 }): Promise<Uint8Array> {
    return this.engine.submit({ raw: this.bytes(o) });
  }

  /** Two validation rounds: everything submitted before is confirmed. */
  async confirm(): Promise<Uint8Array[]> {
    return [...(await this.engine.issueValidationBlocks()), ...(await this.engine.issueValidationBlocks())];
  }

  spend(outputId: Uint8Array, owner: ReturnType<typeof key>, slot: number, to = key(70)): SignedTransactionPayloadV3 {
    return signedTx(
      { creationSlot: slot, inputs: [inputOf(outputId)], outputs: [basic(1_000_000_000n, to)] },
      owner,
      this.engine.params,
    );
  }

  async state(id: Uint8Array): Promise<string> {
    return (await this.engine.blockMetadata(id)).blockState;
  }

  leftovers(slot = S): Promise<string[]> {
    return leftovers(this.store, slot, this.engine.genesisBlockId);
  }
}

describe('v3 pruning by time (engine)', function () {
  this.timeout(60_000);

  describe('a prune past old confirmed blocks', () => {
    const h = new Harness();
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
      // newer: slots 1099-1100, tx1 attached once more (kept), tx2 spends the other genesis output
      h.at(1100);
      reattached = await h.submit({ slot: 1099, payload: tx1 });
      tx2 = h.spend(genesisOutputId(g, 1), WALLET, 1100);
      n1 = await h.submit({ slot: 1100, payload: tx2 });
      kept = [reattached, n1, ...(await h.confirm())];
      // an old block that is not confirmed yet
      pending = await h.submit({ slot: 1005, parents: [b2] });
      for (const id of old) expect(await h.state(id), toHex0x(id)).to.equal('confirmed');
      expect(await h.state(n1)).to.equal('confirmed');
      expect(await h.state(pending)).to.equal('pending');
    });
    after(() => h.engine.idle());

    it('deletes the confirmed blocks of the old slots and what goes with them, nothing else', async () => {
      const { engine, store, g } = h;
      expect(await h.leftovers()).to.have.length.above(0);
      const p = await engine.prune(TARGET);
      expect(p).to.deep.include({ slot: S, blocks: old.length, transactions: 1, outputs: 1 });
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
      for (const id of [...kept, pending]) expect(await store.getBlock(id), toHex0x(id)).to.not.equal(undefined);
      expect(await h.state(pending)).to.equal('pending');
    });

    it('reads of pruned data answer NOT_FOUND saying they may have been pruned; kept data answers as before', async () => {
      const { engine } = h;
      const note =
        /\(unknown, or pruned: this node keeps no confirmed v3 block of a slot before 1050, the slot of milestone 7, its pruning index\)$/;
      for (const read of [
        engine.blockBytes(b1),
        engine.blockMetadata(b1),
        engine.read(() => engine.includedBlockId(txIdOf(tx1))),
      ]) {
        const e = await failure(read);
        expect(e).to.be.instanceOf(NodeError);
        expect(e.code).to.equal('NOT_FOUND');
        expect(e.message).to.match(note);
      }
      expect((await failure(engine.blockBytes(idWithSlot(new Uint8Array(32).fill(9), 1200)))).message).to.equal(
        `block not found: ${toHex0x(idWithSlot(new Uint8Array(32).fill(9), 1200))}`,
      );
      expect(engine.transactionState(txIdOf(tx1))).to.equal(undefined);
      expect(toHex0x(engine.includedBlockId(txIdOf(tx2)))).to.equal(toHex0x(n1));
      // a kept attachment of a transaction whose included block was pruned: the transaction was confirmed
      expect(await engine.blockMetadata(reattached)).to.deep.include({
        blockState: 'confirmed',
        transaction: { transactionId: txIdOf(tx1), state: 'confirmed' },
      });
    });

    it('forgets the pruned blocks in memory: never offered as parents; a block naming one is refused naming the pruning', async () => {
      const { engine } = h;
      expect(engine.blocksInMemory).to.equal(kept.length + 1);
      const tips = engine.selectTips().map(toHex0x);
      for (const id of old) expect(tips).to.not.include(toHex0x(id));
      expect(tips).to.include(toHex0x(pending));
      h.at(1101);
      const e = await failure(h.submit({ slot: 1101, parents: [b1] }));
      expect(e).to.be.instanceOf(ProtocolError);
      expect(e.code).to.equal('INVALID_FIELD');
      expect(e.message).to.equal(
        `Cannot accept block: parent ${toHex0x(b1)} is not kept: its slot 1001 is before slot 1050, up to which this node pruned its confirmed v3 blocks (milestone 7, its pruning index)`,
      );
      // a transaction spending an output pruned with its spender is refused by the ledger, not a crash
      const again = await failure(
        h.submit({ slot: 1101, payload: h.spend(genesisOutputId(h.g, 0), WALLET, 1101, key(72)) }),
      );
      expect(again.message).to.match(/is not an output of the confirmed ledger/);
    });

    it('attaches and confirms new blocks afterwards, spending an output of a pruned transaction; the next run takes what got confirmed since', async () => {
      const { engine } = h;
      h.at(1102);
      const tx3 = h.spend(x, key(70), 1102, key(71));
      const n2 = await h.submit({ slot: 1102, payload: tx3 });
      await h.confirm();
      expect(await h.state(n2)).to.equal('confirmed');
      expect(toHex0x(engine.includedBlockId(txIdOf(tx3)))).to.equal(toHex0x(n2));
      expect(engine.output(x)).to.deep.include({ spent: true });
      expect(await h.state(pending)).to.equal('confirmed');
      expect(await h.leftovers()).to.deep.equal([
        `blockState: confirmed block ${toHex0x(pending)} of slot 1005 is kept`,
      ]);
      expect(await engine.prune(TARGET)).to.deep.include({ blocks: 1, transactions: 0 });
      expect(await h.leftovers()).to.deep.equal([]);
    });

    it('a restart loads the pruned store and answers the same', async () => {
      await h.open();
      const { engine } = h;
      expect((await failure(engine.blockMetadata(b1))).message).to.match(/or pruned: .* before 1050/);
      expect(await h.state(n1)).to.equal('confirmed');
      expect(engine.output(x)).to.deep.include({ spent: true });
      expect((await failure(h.submit({ slot: 1103, parents: [b1] }))).message).to.match(
        /is not kept: its slot 1001 is before slot 1050/,
      );
      h.at(1103);
      const n3 = await h.submit({ slot: 1103 });
      await h.confirm();
      expect(await h.state(n3)).to.equal('confirmed');
    });

    it("a peer's block naming a pruned parent is dropped: the parent is not requested, the sender not blamed", async () => {
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
      const h = await new Harness().open();
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
      const h = await new Harness().open();
      h.at(1020);
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
      const e = await failure(
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
      const left = await h.leftovers();
      expect(left).to.have.length(14 - 6);
      expect(left.every((l) => l.startsWith('blockState: confirmed block'))).to.equal(true);
      expect((await failure(h.engine.blockBytes(first))).message).to.match(/or pruned/);

      // the next run, after a restart and asked for an earlier milestone, finishes the recorded one
      await h.open();
      const p = await h.engine.prune({ milestoneIndex: 3, timestamp: GENESIS_TIME + 10 });
      expect(p).to.deep.include({ slot: S, blocks: 8 });
      expect(await h.leftovers()).to.deep.equal([]);
      expect(await readPruningV3(h.store)).to.deep.equal({ slot: S, milestoneIndex: 7 });
      expect((await failure(h.engine.read(() => h.engine.includedBlockId(txIdOf(tx1))))).message).to.match(/or pruned/);
      h.at(1101);
      const n2 = await h.submit({ slot: 1101 });
      await h.confirm();
      expect(await h.state(n2)).to.equal('confirmed');
    });
  });
});

describe('v3 pruning by time (node)', function () {
  this.timeout(60_000);

  it('a v2 prune prunes the v3 data older than its milestone; tool check accepts the store; a start finishes an interrupted v3 run', async () => {
    const kv = new MemoryKeyValueStore();
    const g = testGenesis();
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    g.v3 = testGenesisV3({ params: devProtocolParametersV3(t0) });
    let node = await openNode(kv, g, { validationInterval: 0 });
    const params = g.v3.protocolParameters;
    const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;
    const slotTime = (slot: number): bigint => slotStartNs(params, slot);
    const submit = async (
      p: TestNode,
      o: { time: bigint; parents?: Uint8Array[]; payload?: SignedTransactionPayloadV3 },
    ): Promise<Uint8Array> => {
      const raw = basicBlock(params, {
        issuer: USER,
        parents: o.parents ?? p.parts.v3!.selectTips(),
        issuingTime: o.time,
        commitmentId: p.parts.v3!.genesisCommitmentId,
        ...(o.payload ? { payload: o.payload } : {}),
      });
      return (await p.testing.service.submitBlockV3({ block: { $case: 'raw', value: raw } })).blockId;
    };
    const confirm = async (p: TestNode): Promise<void> => {
      await p.parts.v3!.issueValidationBlocks();
      await p.parts.v3!.issueValidationBlocks();
    };
    const state = async (p: TestNode, id: Uint8Array): Promise<string> =>
      JSON.parse((await p.testing.service.getBlockMetadataV3({ blockId: id, view: 0 })).json).blockState;
    const genesisId = genesisBlockIdV3(params);
    try {
      // old v3 blocks (an hour ago), confirmed; milestones; newer v3 blocks (issued ahead of the milestones), confirmed
      const tx1 = signedTx(
        { creationSlot: 100, inputs: [inputOf(genesisOutputId(g.v3, 0))], outputs: [basic(1_000_000_000n, key(70))] },
        WALLET,
        params,
      );
      const b1 = await submit(node, { time: slotTime(100), parents: [genesisId], payload: tx1 });
      const b2 = await submit(node, { time: slotTime(101), parents: [b1] });
      await confirm(node);
      await milestones(node.testing, 25, 1);
      const P = node.testing.pruner.maxIndex()!;
      const milestoneP = (await node.testing.store.milestone(P))!;
      const boundary = milestoneP.timestamp - t0 + 1; // genesis slot 0, one-second slots
      const ahead = nowNs() + 120n * NS;
      const tx2 = signedTx(
        { creationSlot: 100, inputs: [inputOf(genesisOutputId(g.v3, 1))], outputs: [basic(1_000_000_000n, key(70))] },
        WALLET,
        params,
      );
      const n1 = await submit(node, { time: ahead, payload: tx2 });
      await confirm(node);
      expect(await state(node, n1)).to.equal('confirmed');
      expect(await leftovers(node.testing.store, boundary, genesisId)).to.have.length.above(0);

      // a v3 run interrupted after its first batch; the v2 prune after it finishes it
      const crash = new Error('simulated crash');
      expect(
        await failure(
          node.parts.v3!.prune(
            { milestoneIndex: P, timestamp: milestoneP.timestamp },
            {
              batch: 1,
              afterBatch: () => {
                throw crash;
              },
            },
          ),
        ),
      ).to.equal(crash);
      expect(await node.testing.pruner.prune({ index: P })).to.equal(P);
      expect(node.parts.v3!.pruned).to.deep.equal({ slot: boundary, milestoneIndex: P });
      expect(await leftovers(node.testing.store, boundary, genesisId)).to.deep.equal([]);
      expect(await node.testing.store.getBlock(b2)).to.equal(undefined);
      expect(await state(node, n1)).to.equal('confirmed');
      const included = await failure(
        node.testing.service.getIncludedBlockV3({ transactionId: txIdOf(tx1), view: BlockView.BLOCK_VIEW_RAW }),
      );
      expect(included).to.include({ code: 'NOT_FOUND' });
      expect(included.message).to.match(
        new RegExp(
          `transaction not included: .* \\(unknown, or pruned: this node keeps no confirmed v3 block of a slot before ${boundary}, the slot of milestone ${P}, its pruning index\\)`,
        ),
      );
      expect(
        (await failure(node.testing.service.getBlockV3({ blockId: b1, view: BlockView.BLOCK_VIEW_RAW }))).message,
      ).to.match(/block not found: .*or pruned/);
      expect(
        toHex0x(
          (
            await node.testing.service.getIncludedBlockV3({
              transactionId: txIdOf(tx2),
              view: BlockView.BLOCK_VIEW_RAW,
            })
          ).blockId,
        ),
      ).to.equal(toHex0x(n1));
      const refused = await failure(submit(node, { time: ahead + 10n * NS, parents: [b2] }));
      expect(refused).to.be.instanceOf(ProtocolError);
      expect(refused.message).to.match(/is not kept: .*pruned its confirmed v3 blocks/);
      const report = await checkStore(node.testing.store);
      expect(report.differences).to.deep.equal([]);
      expect(report.summary.pruningIndex).to.equal(P);

      // new blocks attach and confirm, one spending an output tx1 (pruned) created
      const tx3 = signedTx(
        { creationSlot: 100, inputs: [inputOf(outputIdV3(txIdOf(tx1), 0))], outputs: [basic(1_000_000_000n, key(71))] },
        key(70),
        params,
      );
      const n2 = await submit(node, { time: ahead + 20n * NS, payload: tx3 });
      // and blocks of old slots (on the genesis block), confirmed after the prune: the next run takes them
      const c1 = await submit(node, { time: slotTime(200), parents: [genesisId] });
      const c2 = await submit(node, { time: slotTime(201), parents: [c1] });
      await confirm(node);
      expect(await state(node, n2)).to.equal('confirmed');
      expect(await state(node, c2)).to.equal('confirmed');
      expect(
        await failure(
          node.parts.v3!.prune(
            { milestoneIndex: P, timestamp: milestoneP.timestamp },
            {
              batch: 1,
              afterBatch: () => {
                throw crash;
              },
            },
          ),
        ),
      ).to.equal(crash);
      expect(await leftovers(node.testing.store, boundary, genesisId)).to.have.length(1);
      await node.close();

      node = await openNode(kv, g, { validationInterval: 0 });
      await node.testing.pruner.idle();
      expect(await leftovers(node.testing.store, boundary, genesisId)).to.deep.equal([]);
      expect((await checkStore(node.testing.store)).differences).to.deep.equal([]);
      expect(await state(node, n2)).to.equal('confirmed');
    } finally {
      await node.close();
    }
  });
});
