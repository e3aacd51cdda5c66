/**
 * Slot commitments in the v3 engine (src/node/v3/commitments.ts, issue 24): the chain the clock makes, what a
 * commitment commits to, the intake's commitment rules, orphans, finality, the TIP-48 / iota.go states, restarts
 * and pruning. The engine over a memory store with a clock the test sets (one-second slots, min/max committable age
 * 10/20).
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import {
  decodeSlotRootsV3,
  idSetRootV3,
  idWithSlot,
  slotCommitmentIdV3,
  type SignedTransactionPayloadV3,
} from '../../../src/core/v3/index.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import {
  basic,
  basicBlock,
  genesisOutputId,
  GENESIS_TIME,
  inputOf,
  key,
  signedTx,
  slotStartNs,
  testGenesisV3,
  txIdOf,
  USER,
  WALLET,
} from '../../../harness/fixtures/v3.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

class Node {
  readonly g = testGenesisV3();
  readonly kv = new MemoryKeyValueStore();
  store!: NodeStore;
  engine!: V3Engine;
  nowMs = (GENESIS_TIME + 1000) * 1000 + 100; // slot 1001

  async open(): Promise<this> {
    if (this.engine) await this.engine.idle();
    this.store ??= await NodeStore.open(this.kv);
    await V3Engine.create(this.store, this.g);
    // commitments at exactly minCommittableAge behind the clock (no lag), so the slots below read as the rules say
    this.engine = (await V3Engine.open(this.store, { now: () => this.nowMs, commitLagSlots: 0 }))!;
    return this;
  }

  at(slot: number): void {
    this.nowMs = Number(slotStartNs(this.engine.params, slot) / 1_000_000n) + 100;
  }

  bytes(o: { slot: number; parents?: Uint8Array[]; payload?: SignedTransactionPayloadV3; commitmentId?: Uint8Array }) {
    const e = this.engine;
    return basicBlock(e.params, {
      issuer: USER,
      parents: o.parents ?? e.selectTips(),
      issuingTime: slotStartNs(e.params, o.slot) + 1_000_000n,
      commitmentId: o.commitmentId ?? e.commitmentIdForSlot(o.slot),
      ...(o.payload ? { payload: o.payload } : {}),
    });
  }

  async submit(o: Parameters<Node['bytes']>[0]): Promise<Uint8Array> {
    return this.engine.submit({ raw: await this.engine.read(() => this.bytes(o)) });
  }

  spend(index: number, slot: number, extra: Partial<SignedTransactionPayloadV3['transaction']> = {}) {
    const inputs = [inputOf(genesisOutputId(this.g, index))];
    const outputs = [basic(1_000_000_000n, key(70))];
    return signedTx({ creationSlot: slot, inputs, outputs, ...extra }, WALLET, this.engine.params);
  }

  async confirm(): Promise<void> {
    await this.engine.issueValidationBlocks();
    await this.engine.issueValidationBlocks();
  }

  async metadata(id: Uint8Array) {
    return this.engine.read(() => this.engine.blockMetadata(id));
  }

  async roots(slot: number) {
    const bytes = await this.store.get(V3_TABLES.roots, slot);
    return bytes && decodeSlotRootsV3(bytes);
  }
}

async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string };
  }
  return expect.fail('expected a rejection');
}

describe('v3 slot commitments (engine)', function () {
  this.timeout(60_000);

  it('the clock makes the chain: each slot to the clock − minCommittableAge, naming the one before', async () => {
    const n = await new Node().open();
    const e = n.engine;
    expect(e.latestCommitment.commitment.slot).to.equal(991);
    const genesis = (await e.commitment(0))!;
    expect(toHex0x(genesis.id)).to.equal(toHex0x(e.genesisCommitmentId));
    let previous = genesis.id;
    for (let slot = 1; slot <= 991; slot++) {
      const c = (await e.commitment(slot))!;
      expect(toHex0x(c.commitment.previousCommitmentId), `slot ${slot}`).to.equal(toHex0x(previous));
      expect(toHex0x(c.id)).to.equal(toHex0x(slotCommitmentIdV3(c.commitment)));
      previous = c.id;
    }
    expect(toHex0x(previous)).to.equal(toHex0x(e.latestCommitmentId));
    expect(toHex0x((await e.commitment(e.latestCommitmentId))!.id)).to.equal(toHex0x(e.latestCommitmentId));
    expect(await e.commitment(992)).to.equal(undefined);
    expect(await e.commitment(idWithSlot(new Uint8Array(32).fill(1), 991))).to.equal(undefined);
    // info and issuance answer it
    const info = (await e.read(() => e.info({ name: 'n', version: 'v', baseToken: {} }))) as Json;
    expect(info.status.latestCommitmentId).to.equal(toHex0x(e.latestCommitmentId));
    const issuance = (await e.read(() => e.issuance())) as Json;
    expect(issuance.latestCommitment).to.deep.include({ slot: 991, protocolVersion: 3, referenceManaCost: '1' });
    // a second later nothing more without accepted blocks; once a block of slot 1002 is accepted, slot 992 is
    n.at(1002);
    await e.read(() => undefined);
    expect(e.latestCommitment.commitment.slot).to.equal(991);
    await e.issueValidationBlocks(); // a block of slot 1002
    await e.issueValidationBlocks(); // accepts it
    await e.read(() => undefined);
    expect(e.latestCommitment.commitment.slot).to.equal(992);
    expect(toHex0x(e.latestCommitment.commitment.previousCommitmentId)).to.equal(toHex0x(previous));
    await n.store.close();
  });

  it("a commitment covers its slot's accepted blocks, the transactions it covers, the attestations", async () => {
    const n = await new Node().open();
    const e = n.engine;
    const tx = n.spend(0, 1001);
    const b = await n.submit({ slot: 1001, parents: [e.genesisBlockId], payload: tx });
    await n.confirm();
    const votes = e.selectTips(); // the second round's validation block (slot 1001 too)
    expect((await n.metadata(b)).transaction).to.deep.include({ state: 'accepted', earliestAttachmentSlot: 1001 });
    n.at(1011);
    await e.read(() => undefined);
    expect(e.latestCommitment.commitment.slot).to.equal(991); // the latest accepted block is of slot 1001
    await n.confirm(); // a block of slot 1011 accepted
    await e.read(() => undefined);
    expect(e.latestCommitment.commitment.slot).to.equal(1001);
    const roots = (await n.roots(1001))!;
    const accepted: Uint8Array[] = [];
    for await (const k of n.store.keys(V3_TABLES.slotBlocks)) if (k.slot === 1001) accepted.push(k.blockId);
    expect(accepted).to.have.length(3); // the block and the two validation blocks
    expect(votes.map(toHex0x)).to.satisfy((v: string[]) => v.every((id) => accepted.map(toHex0x).includes(id)));
    expect(toHex0x(roots.tangleRoot)).to.equal(toHex0x(idSetRootV3(accepted)));
    expect(toHex0x(roots.stateMutationRoot)).to.equal(toHex0x(idSetRootV3([txIdOf(tx)])));
    expect(toHex0x((await n.roots(1000))!.tangleRoot)).to.equal(toHex0x(new Uint8Array(32)));
    // the seat attests from slot 1001 on: one more weight per commitment while its attestation is in the window
    expect((await e.commitment(1000))!.commitment.cumulativeWeight).to.equal(0n);
    expect((await e.commitment(1001))!.commitment.cumulativeWeight).to.equal(1n);
    const md = await n.metadata(b);
    expect(md.blockState).to.equal('confirmed');
    expect(md.transaction).to.deep.include({ state: 'committed', earliestAttachmentSlot: 1001 });
    expect(e.transactionState(txIdOf(tx))?.committedSlot).to.equal(1001);
    await n.store.close();
  });

  it('refuses an unknown commitment, one outside the age window, a block of a committed slot', async () => {
    const n = await new Node().open();
    const e = n.engine;
    const forged = idWithSlot(new Uint8Array(32).fill(7), 991);
    const cases: [string, Promise<unknown>, RegExp][] = [
      [
        'unknown',
        n.submit({ slot: 1001, commitmentId: forged }),
        /slot commitment 0x0707[0-9a-f]*df030000 is unknown: it is not this node's commitment of slot 991/,
      ],
      [
        'not made yet',
        n.submit({ slot: 1005, commitmentId: idWithSlot(new Uint8Array(32), 995) }),
        /is unknown: this node has committed slots up to 991 only/,
      ],
      ['too old', n.submit({ slot: 1001, commitmentId: e.genesisCommitmentId }), /commitment slot 0 is too old/],
      ['too recent', n.submit({ slot: 1000, commitmentId: e.latestCommitmentId }), /commitment slot 991 is too recent/],
      ['committed slot', n.submit({ slot: 991 }), /its slot 991 is already committed/],
      [
        'unknown commitment input',
        n.submit({ slot: 1001, payload: n.spend(0, 1001, { contextInputs: [{ type: 0, commitmentId: forged }] }) }),
        /slot commitment 0x0707.* is unknown/,
      ],
    ];
    for (const [name, p, re] of cases) {
      const err = await rejection(p);
      expect(err.name, name).to.equal('ProtocolError');
      expect(err.code, name).to.equal('INVALID_FIELD');
      expect(err.message, name).to.match(re);
    }
    expect(e.hasUnconfirmedBlocks).to.equal(false);
    // the latest commitment and one a little older are both fine
    await n.submit({ slot: 1001, commitmentId: e.latestCommitmentId });
    await n.submit({ slot: 1002, commitmentId: (await e.commitment(985))!.id });
    await n.store.close();
  });

  it('a block not accepted when its slot is committed is orphaned with its future cone', async () => {
    const n = await new Node().open();
    const e = n.engine;
    const tx = n.spend(0, 1001);
    const lost = await n.submit({ slot: 1001, parents: [e.genesisBlockId], payload: tx });
    const child = await n.submit({ slot: 1003, parents: [lost] });
    expect(e.hasUnconfirmedBlocks).to.equal(true);
    n.at(1012); // slot 1002 committable: 1001 is committed without them
    await e.read(() => undefined);
    expect((await n.metadata(lost)).blockState).to.equal('orphaned');
    expect((await n.metadata(child)).blockState).to.equal('pending'); // orphaned, its slot 1003 not committed yet
    expect(e.hasUnconfirmedBlocks).to.equal(false);
    expect(e.selectTips().map(toHex0x)).to.deep.equal([toHex0x(e.genesisBlockId)]);
    expect((await rejection(n.submit({ slot: 1012, parents: [lost] }))).message).to.match(/is orphaned/);
    // its one attachment orphaned: the transaction fails as orphaned (iota.go reason 2)
    expect((await n.metadata(lost)).transaction).to.deep.include({
      state: 'failed',
      failureReason: 2,
      earliestAttachmentSlot: 1001,
    });
    // validation rounds do not reach them; the transaction can be attached again (judged anew)
    await n.confirm();
    expect((await n.metadata(lost)).blockState).to.equal('orphaned');
    const again = await n.submit({ slot: 1013, payload: tx }); // after the rounds' blocks
    await n.confirm();
    expect(toHex0x(e.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(again));
    n.at(1014);
    await e.read(() => undefined);
    expect((await n.metadata(child)).blockState).to.equal('orphaned');
    // a restart keeps them orphaned
    await n.open();
    expect((await n.metadata(lost)).blockState).to.equal('orphaned');
    await n.store.close();
  });

  it('confirmed validation blocks finalize the slot of the commitment they name; a restart keeps it', async () => {
    const n = await new Node().open();
    const e = n.engine;
    const tx = n.spend(0, 1001);
    const b = await n.submit({ slot: 1001, parents: [e.genesisBlockId], payload: tx });
    await n.confirm();
    expect(e.latestFinalizedSlot).to.equal(991); // the first round named the commitment of slot 991
    n.at(1030);
    const later = await n.submit({ slot: 1030 });
    await n.confirm(); // names the commitment of slot 1020
    expect(e.latestFinalizedSlot).to.equal(1020);
    expect((await n.metadata(b)).blockState).to.equal('finalized');
    expect((await n.metadata(b)).transaction).to.deep.include({ state: 'finalized', earliestAttachmentSlot: 1001 });
    expect((await n.metadata(later)).blockState).to.equal('confirmed');
    const info = (await e.read(() => e.info({ name: 'n', version: 'v', baseToken: {} }))) as Json;
    expect(info.status.latestFinalizedSlot).to.equal(1020);
    expect(((await e.read(() => e.issuance())) as Json).latestFinalizedSlot).to.equal(1020);
    const latest = toHex0x(e.latestCommitmentId);
    await n.open();
    expect(n.engine.latestFinalizedSlot).to.equal(1020);
    expect(toHex0x(n.engine.latestCommitmentId)).to.equal(latest);
    expect((await n.metadata(b)).blockState).to.equal('finalized');
    await n.store.close();
  });

  it('a double spend: the loser fails with iota.go reason 1 (conflict rejected), never committed', async () => {
    const n = await new Node().open();
    const e = n.engine;
    const a = n.spend(0, 1001);
    const b = signedTx(
      { creationSlot: 1001, inputs: [inputOf(genesisOutputId(n.g, 0))], outputs: [basic(1_000_000_000n, key(72))] },
      WALLET,
      e.params,
    );
    await n.submit({ slot: 1001, parents: [e.genesisBlockId], payload: a });
    const idB = await n.submit({ slot: 1002, parents: [e.genesisBlockId], payload: b });
    await n.confirm();
    n.at(1013);
    const md = (await n.metadata(idB)).transaction!;
    expect(md).to.deep.include({ state: 'failed', failureReason: 1, earliestAttachmentSlot: 1002 });
    expect(md.failureDetails).to.match(/double spend/);
    expect(e.transactionState(txIdOf(a))?.committedSlot).to.equal(1001);
    await n.store.close();
  });

  it('a transaction confirmed after its slot was committed is covered by the next commitment', async () => {
    const n = await new Node().open();
    const e = n.engine;
    const tx = n.spend(0, 1001);
    const b = await n.submit({ slot: 1001, parents: [e.genesisBlockId], payload: tx });
    await e.issueValidationBlocks(); // accepted, not confirmed
    // no seat votes for 21 slots: the latest commitment (991) is too old for a block of slot 1022, so the node
    // commits up to the clock (1012) without accepted blocks, and slot 1001 with `b` accepted, not confirmed
    n.at(1022);
    await e.read(() => undefined);
    expect(e.latestCommitment.commitment.slot).to.equal(1012);
    expect(toHex0x((await n.roots(1001))!.stateMutationRoot)).to.equal(toHex0x(new Uint8Array(32)));
    expect((await n.metadata(b)).blockState).to.equal('accepted');
    await e.issueValidationBlocks(); // confirmed now: applied
    expect((await n.metadata(b)).transaction?.state).to.equal('accepted');
    n.at(1023);
    await n.confirm(); // a block of slot 1023 accepted
    await e.read(() => undefined);
    expect(e.latestCommitment.commitment.slot).to.equal(1013);
    expect(toHex0x((await n.roots(1013))!.stateMutationRoot)).to.equal(toHex0x(idSetRootV3([txIdOf(tx)])));
    expect((await n.metadata(b)).transaction).to.deep.include({ state: 'committed', earliestAttachmentSlot: 1001 });
    expect(e.transactionState(txIdOf(tx))?.committedSlot).to.equal(1013);
    await n.store.close();
  });

  it('pruning keeps every commitment and drops the roots of the pruned slots', async () => {
    const n = await new Node().open();
    const e = n.engine;
    await n.submit({ slot: 1001, parents: [e.genesisBlockId] });
    await n.confirm();
    n.at(1100);
    const p = await e.prune({ milestoneIndex: 3, timestamp: GENESIS_TIME + 1049 }); // slot 1050
    expect(p.blocks).to.equal(2); // the block and the first round; the second is accepted, not confirmed
    expect(await n.store.get(V3_TABLES.roots, 1049)).to.equal(undefined);
    expect(await n.store.get(V3_TABLES.roots, 1050)).to.not.equal(undefined);
    for (const slot of [0, 1, 1001, 1049, 1090])
      expect(await e.commitment(slot), `slot ${slot}`).to.not.equal(undefined);
    // a boundary past the latest commitment prunes only committed slots
    n.at(1101);
    const recent = await n.submit({ slot: 1101 });
    await n.confirm();
    const q = await e.prune({ milestoneIndex: 4, timestamp: GENESIS_TIME + 1200 });
    expect(q.slot).to.equal(1201);
    expect(await n.store.getBlock(recent)).to.not.equal(undefined); // its slot 1101 is not committed yet
    expect((await n.metadata(recent)).blockState).to.equal('confirmed');
    expect(await n.store.get(V3_TABLES.roots, 1091)).to.equal(undefined);
    expect(await e.commitment(1091)).to.not.equal(undefined);
    await n.store.close();
  });
});
