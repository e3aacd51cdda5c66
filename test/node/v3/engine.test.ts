/**
 * The v3 engine over a memory store: submission checks, committee confirmation, the v3 ledger, the included-block
 * rule, persistence across a restart.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { blockIdV3, type SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import { genesisV3FromJson, genesisV3ToJson, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
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
import { rejection } from './support.ts';

const NOW_MS = (GENESIS_TIME + 1000) * 1000;

async function open(g: GenesisV3, kv = new MemoryKeyValueStore()) {
  const store = await NodeStore.open(kv);
  await V3Engine.create(store, g);
  const engine = (await V3Engine.open(store, { now: () => NOW_MS, commitLagSlots: 0 }))!;
  return { store, engine, kv };
}

describe('v3 engine', () => {
  let g: GenesisV3;
  let store: NodeStore;
  let engine: V3Engine;
  const params = () => engine.params;
  const block = (o: {
    parents?: Uint8Array[];
    time: bigint;
    payload?: SignedTransactionPayloadV3;
    issuer?: ReturnType<typeof key>;
    maxBurnedMana?: bigint;
  }) =>
    basicBlock(params(), {
      issuer: o.issuer ?? USER,
      parents: o.parents ?? [engine.genesisBlockId],
      issuingTime: o.time,
      commitmentId: engine.latestCommitmentId,
      ...(o.payload ? { payload: o.payload } : {}),
      ...(o.maxBurnedMana !== undefined ? { maxBurnedMana: o.maxBurnedMana } : {}),
    });
  const spend = (
    slot: number,
    outputIndex = 0,
    outputs = [basic(1_000_000_000n, key(70))],
    extra: Partial<SignedTransactionPayloadV3['transaction']> = {},
    bad = false,
  ) =>
    signedTx(
      { creationSlot: slot, inputs: [inputOf(genesisOutputId(g, outputIndex))], outputs, ...extra },
      WALLET,
      params(),
      bad,
    );
  const state = async (id: Uint8Array) => (await engine.blockMetadata(id)).blockState;

  beforeEach(async () => {
    g = testGenesisV3();
    ({ store, engine } = await open(g));
  });
  afterEach(async () => {
    await engine.idle();
    await store.close();
  });

  it('the genesis section round-trips through its JSON', () => {
    const back = genesisV3FromJson(JSON.parse(JSON.stringify(genesisV3ToJson(g))));
    expect(genesisV3ToJson(back)).to.deep.equal(genesisV3ToJson(g));
    expect(() => genesisV3FromJson({ accounts: [] })).to.throw(/1\.\.64 seats/);
    expect(() => genesisV3FromJson({ ...genesisV3ToJson(g), extra: 1 })).to.throw(/unknown key/);
    const wrongSeed = genesisV3ToJson(g) as { accounts: { validatorSeed?: string }[] };
    wrongSeed.accounts[0]!.validatorSeed = toHex0x(new Uint8Array(32).fill(9));
    expect(() => genesisV3FromJson(wrongSeed)).to.throw(/not one of the account's blockIssuerKeys/);
  });

  it('one seat: a transaction block is accepted by the first validation round, confirmed by the second', async () => {
    const tx = spend(1001);
    const id = await engine.submit({ raw: block({ time: slotStartNs(params(), 1001), payload: tx }) });
    expect(await state(id)).to.equal('pending');
    expect((await engine.blockMetadata(id)).transaction?.state).to.equal('pending');
    expect(() => engine.includedBlockId(txIdOf(tx))).to.throw(/transaction not included/);
    expect(engine.hasUnconfirmedBlocks).to.equal(true);
    await engine.issueValidationBlocks();
    expect(await state(id)).to.equal('accepted');
    expect(() => engine.includedBlockId(txIdOf(tx))).to.throw(/transaction not included/);
    await engine.issueValidationBlocks();
    expect(await state(id)).to.equal('confirmed');
    expect(engine.hasUnconfirmedBlocks).to.equal(false);
    expect(toHex0x(engine.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(id));
    expect(engine.output(genesisOutputId(g, 0))?.spent).to.equal(true);
    const created = engine.output(new Uint8Array([...txIdOf(tx), 0, 0]));
    expect(created?.output.amount).to.equal(1_000_000_000n);
    expect(created?.creationSlot).to.equal(1001);
  });

  it('resubmitting a block answers its ID; state survives a restart', async () => {
    const tx = spend(1001);
    const bytes = block({ time: slotStartNs(params(), 1001), payload: tx });
    const id = await engine.submit({ raw: bytes });
    expect(toHex0x(await engine.submit({ raw: bytes }))).to.equal(toHex0x(id));
    expect(toHex0x(blockIdV3(bytes, params()))).to.equal(toHex0x(id));
    await engine.issueValidationBlocks();
    await engine.issueValidationBlocks();
    await engine.idle();
    const again = (await V3Engine.open(store, { now: () => NOW_MS, commitLagSlots: 0 }))!;
    expect((await again.blockMetadata(id)).blockState).to.equal('confirmed');
    expect(toHex0x(again.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(id));
    expect(again.output(genesisOutputId(g, 0))?.spent).to.equal(true);
    expect(again.hasUnconfirmedBlocks).to.equal(false);
    expect(toHex0x(await again.blockBytes(id))).to.equal(toHex0x(bytes));
  });

  it('two attachments in different slots confirmed together: the lower slot wins, in any order', async () => {
    const tx = spend(1001);
    const late = await engine.submit({ raw: block({ time: slotStartNs(params(), 1003), payload: tx }) });
    const early = await engine.submit({ raw: block({ time: slotStartNs(params(), 1002), payload: tx }) });
    await engine.issueValidationBlocks();
    await engine.issueValidationBlocks();
    expect([await state(early), await state(late)]).to.deep.equal(['confirmed', 'confirmed']);
    expect(toHex0x(engine.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(early));
  });

  it('the answer never changes: a lower-slot attachment confirmed later does not replace it', async () => {
    const tx = spend(1001);
    const first = await engine.submit({ raw: block({ time: slotStartNs(params(), 1005), payload: tx }) });
    await engine.issueValidationBlocks();
    await engine.issueValidationBlocks();
    expect(toHex0x(engine.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(first));
    // a re-attachment in an earlier slot (parents: the genesis) is accepted as a block and confirmed ...
    const lower = await engine.submit({ raw: block({ time: slotStartNs(params(), 1002), payload: tx }) });
    await engine.issueValidationBlocks();
    await engine.issueValidationBlocks();
    expect(await state(lower)).to.equal('confirmed');
    expect((await engine.blockMetadata(lower)).transaction?.state).to.equal('accepted');
    // ... but the included block stays the first confirmed attachment
    expect(toHex0x(engine.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(first));
  });

  it('a double spend: the later conflicting one fails and is never included; a third fails at once', async () => {
    const a = spend(1001, 0, [basic(1_000_000_000n, key(71))]);
    const b = spend(1001, 0, [basic(1_000_000_000n, key(72))]);
    const idA = await engine.submit({ raw: block({ time: slotStartNs(params(), 1001), payload: a }) });
    const idB = await engine.submit({ raw: block({ time: slotStartNs(params(), 1002), payload: b }) });
    await engine.issueValidationBlocks();
    await engine.issueValidationBlocks();
    expect([await state(idA), await state(idB)]).to.deep.equal(['confirmed', 'confirmed']);
    expect(toHex0x(engine.includedBlockId(txIdOf(a)))).to.equal(toHex0x(idA));
    expect(() => engine.includedBlockId(txIdOf(b))).to.throw(/transaction not included/);
    const md = (await engine.blockMetadata(idB)).transaction!;
    expect(md.state).to.equal('failed');
    expect(md.failureReason).to.equal(1); // iota.go TxFailureConflictRejected
    expect(md.failureDetails).to.match(/already spent by transaction/);
    const c = spend(1001, 0, [basic(1_000_000_000n, key(73))]);
    // attached, its transaction failed at once (the winner is applied, not committed: 1; double-spend.test.ts)
    const idC = await engine.submit({ raw: block({ time: slotStartNs(params(), 1003), payload: c }) });
    expect((await engine.blockMetadata(idC)).transaction).to.deep.include({ state: 'failed', failureReason: 1 });
    // re-attaching the failed transaction is refused too
    const e2 = await rejection(engine.submit({ raw: block({ time: slotStartNs(params(), 1004), payload: b }) }));
    expect(e2.message).to.match(/failed before/);
  });

  it('refuses invalid blocks and transactions, storing nothing', async () => {
    const t = slotStartNs(params(), 1001);
    const cases: [string, Promise<unknown>, RegExp][] = [
      [
        'bad unlock signature',
        engine.submit({ raw: block({ time: t, payload: spend(1001, 0, undefined, {}, true) }) }),
        /UNLOCK_INVALID: unlock 0: the Ed25519 signature does not verify/,
      ],
      [
        'wrong owner',
        engine.submit({
          raw: block({
            time: t,
            payload: signedTx(
              {
                creationSlot: 1001,
                inputs: [inputOf(genesisOutputId(g, 0))],
                outputs: [basic(1_000_000_000n, key(70))],
              },
              key(61),
              params(),
            ),
          }),
        }),
        /public key does not belong/,
      ],
      [
        'balance',
        engine.submit({ raw: block({ time: t, payload: spend(1001, 0, [basic(999_999_999n, key(70))]) }) }),
        /BASE_TOKEN_MISMATCH/,
      ],
      [
        'mana',
        engine.submit({
          raw: block({ time: t, payload: spend(1001, 0, [basic(1_000_000_000n, key(70), 10n ** 12n)]) }),
        }),
        /MANA_INSUFFICIENT/,
      ],
      [
        'allotment without commitment input',
        engine.submit({
          raw: block({
            time: t,
            payload: spend(1001, 0, undefined, { allotments: [{ accountId: USER.accountId, mana: 5n }] }),
          }),
        }),
        /needs a commitment input/,
      ],
      [
        'unknown input',
        engine.submit({
          raw: block({
            time: t,
            payload: signedTx(
              {
                creationSlot: 1001,
                inputs: [inputOf(new Uint8Array([...new Uint8Array(36).fill(3), 0, 0]))],
                outputs: [basic(1_000_000_000n, key(70))],
              },
              WALLET,
              params(),
            ),
          }),
        }),
        /not an output of the confirmed ledger/,
      ],
      [
        'creation slot after block slot',
        engine.submit({ raw: block({ time: t, payload: spend(1002) }) }),
        /creation slot 1002 is after the block slot 1001/,
      ],
      ['unknown issuer', engine.submit({ raw: block({ time: t, issuer: key(99) }) }), /is not a known account/],
      [
        'unknown parent',
        engine.submit({ raw: block({ time: t, parents: [new Uint8Array(36).fill(7)] }) }),
        /parent 0x0707.* is unknown/,
      ],
      [
        'in a committed slot (its slot commitment after its slot)',
        engine.submit({ raw: block({ time: BigInt(GENESIS_TIME) * NS }) }),
        /slot commitment slot 991 is after the block slot 1$/,
      ],
      [
        'too little maxBurnedMana',
        engine.submit({ raw: block({ time: t, maxBurnedMana: 0n }) }),
        /maxBurnedMana 0 is below/,
      ],
      ['malformed JSON', engine.submit({ json: '{"header":1}' }), /./],
      ['empty body', engine.submit({ raw: new Uint8Array(0) }), /request body missing/],
    ];
    for (const [name, p, re] of cases) {
      const e = await rejection(p);
      expect(e.message, name).to.match(re);
      expect(['ProtocolError', 'NodeError'], name).to.include(e.name);
    }
    // a block signed with a key that is not the issuer's
    const forged = block({ time: t });
    forged[forged.length - 1]! ^= 1;
    expect((await rejection(engine.submit({ raw: forged }))).message).to.match(/signature/);
    expect(engine.hasUnconfirmedBlocks).to.equal(false);
    expect(engine.selectTips().map(toHex0x)).to.deep.equal([toHex0x(engine.genesisBlockId)]);
    // not after the parent (a block of a slot not committed yet, on a parent issued at the same time)
    const parent = await engine.submit({ raw: block({ time: t }) });
    const e = await rejection(engine.submit({ raw: block({ time: t, parents: [parent] }) }));
    expect(e.message).to.match(/is not after parent/);
  });

  it('allotments with a commitment input credit the account; Mana decays and is generated per TIP-39', async () => {
    const tx = spend(1001, 0, [basic(1_000_000_000n, key(70), 1000n)], {
      contextInputs: [{ type: 0, commitmentId: engine.latestCommitmentId }],
      allotments: [{ accountId: USER.accountId, mana: 25n }],
    });
    await engine.submit({ raw: block({ time: slotStartNs(params(), 1001), payload: tx }) });
    await engine.issueValidationBlocks();
    await engine.issueValidationBlocks();
    expect(engine.transactionState(txIdOf(tx))?.state).to.equal('confirmed');
    expect(engine.allottedMana(USER.accountId)).to.equal(25n);
    const unknown = spend(1001, 1, undefined, {
      contextInputs: [{ type: 0, commitmentId: engine.latestCommitmentId }],
      allotments: [{ accountId: new Uint8Array(32).fill(4), mana: 1n }],
    });
    expect(
      (await rejection(engine.submit({ raw: block({ time: slotStartNs(params(), 1002), payload: unknown }) }))).message,
    ).to.match(/UNKNOWN_ACCOUNT/);
  });

  it('a failed store write stops the engine instead of serving state the store does not have', async () => {
    class FailingKv extends MemoryKeyValueStore {
      failWrites = false;
      override async write(...args: Parameters<MemoryKeyValueStore['write']>): Promise<void> {
        if (this.failWrites) throw new Error('disk full');
        return super.write(...args);
      }
    }
    const kv = new FailingKv();
    const n = await open(g, kv);
    try {
      kv.failWrites = true;
      const tx = spend(1001);
      expect(
        (await rejection(n.engine.submit({ raw: block({ time: slotStartNs(params(), 1001), payload: tx }) }))).message,
      ).to.equal('disk full');
      kv.failWrites = false;
      const e = await rejection(n.engine.submit({ raw: block({ time: slotStartNs(params(), 1002) }) }));
      expect(e.message).to.match(/stopped after a store failure: disk full/);
      // a restart serves what the store holds: nothing of the failed block
      const again = (await V3Engine.open(n.store, { now: () => NOW_MS, commitLagSlots: 0 }))!;
      expect(again.hasUnconfirmedBlocks).to.equal(false);
      expect(again.transactionState(txIdOf(tx))).to.equal(undefined);
    } finally {
      await n.store.close();
    }
  });

  it('three seats: acceptance and confirmation need over 2/3; without seeds the node does not validate', async () => {
    const g3 = testGenesisV3({ seats: 3 });
    const n = await open(g3);
    try {
      const tx = signedTx(
        { creationSlot: 1001, inputs: [inputOf(genesisOutputId(g3, 0))], outputs: [basic(1_000_000_000n, key(70))] },
        WALLET,
        n.engine.params,
      );
      const id = await n.engine.submit({
        raw: basicBlock(n.engine.params, {
          issuer: USER,
          parents: [n.engine.genesisBlockId],
          issuingTime: slotStartNs(n.engine.params, 1001),
          commitmentId: n.engine.latestCommitmentId,
          payload: tx,
        }),
      });
      const ids = await n.engine.issueValidationBlocks();
      expect(ids).to.have.length(3);
      expect((await n.engine.blockMetadata(id)).blockState).to.equal('accepted');
      await n.engine.issueValidationBlocks();
      expect((await n.engine.blockMetadata(id)).blockState).to.equal('confirmed');
      expect(n.engine.info({ name: 'x', version: 'y', baseToken: {} })['committee']).to.deep.include({ threshold: 3 });
    } finally {
      await n.store.close();
    }
    const none = await open(testGenesisV3({ seats: 3, holdSeeds: false }));
    expect(await none.engine.issueValidationBlocks()).to.deep.equal([]);
    await none.store.close();
  });
});
