/**
 * Milestone checks before and after White-Flag: every rejection writes nothing. Receipts and protocol parameter
 * options.
 */
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { encodeProtocolParameters } from '../../../src/core/codec/index.ts';
import { outputId } from '../../../src/core/ids/index.ts';
import { confirmMilestone, LedgerState } from '../../../src/core/ledger/index.ts';
import type { MilestonePayload } from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore, META } from '../../../src/core/store/index.ts';
import {
  basicOutput,
  bytes32,
  type Coordinator,
  dump,
  makeBlock,
  TestNetwork,
  transfer,
  Wallet,
  type BuiltBlock,
  type MilestoneDraft,
} from '../../../harness/fixtures/ledger.ts';
import { migrationReceipt } from './support.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');

/** A network with one pending transfer in its tip. */
async function pending(
  opts: { coordinator?: Coordinator; treasury?: bigint } = {},
): Promise<{ net: TestNetwork; kv: MemoryKeyValueStore }> {
  const kv = new MemoryKeyValueStore();
  const net = await TestNetwork.create(kv, [{ wallet: alice, amount: 5_000_000n }], opts);
  await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(5_000_000n, bob.address)]));
  return { net, kv };
}

/** Confirming `ms` must fail with `code` on `field`, and leave every key of the store as it was. */
async function expectRejected(
  net: TestNetwork,
  kv: MemoryKeyValueStore,
  ms: BuiltBlock,
  code: string,
  field?: string,
): Promise<void> {
  const before = await dump(kv);
  const error = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'confirmation must fail').to.not.equal(undefined);
  expect(error).to.have.property('name', 'ProtocolError');
  expect(error).to.have.property('code', code);
  if (field !== undefined) expect(error).to.have.property('field', field);
  expect(await dump(kv)).to.deep.equal(before);
  expect(await net.ledgerIndex()).to.equal(10);
}

describe('ledger: milestone checks', () => {
  it('a correct milestone confirms (the baseline of the negative cases below)', async () => {
    const { net } = await pending();
    const ms = await net.milestone();
    const c = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
    await c.batch.commit();
    expect(await net.ledgerIndex()).to.equal(11);
    expect(await net.store.getMeta(META.confirmedMilestoneIndex)).to.equal(11);
    expect((await net.store.milestone(11))?.blockId).to.deep.equal(ms.id);
    expect(await net.store.milestoneIndexById(c.milestoneId)).to.equal(11);
  });

  it('outputAtLedgerIndex: an output with the ledger index of one read, unspent before and spent after', async () => {
    const { net } = await pending();
    const ledger = new LedgerState(net.store);
    const genesisOutput = net.genesisOutputs[0]!.outputId;
    const before = await ledger.outputAtLedgerIndex(genesisOutput);
    expect([before.ledgerIndex, before.output?.milestoneIndexBooked, before.output?.spent]).to.deep.equal([
      10,
      10,
      undefined,
    ]);
    const ms = await net.milestone();
    const c = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
    await c.batch.commit();
    const after = await ledger.outputAtLedgerIndex(genesisOutput);
    expect([after.ledgerIndex, after.output?.spent?.milestoneIndexSpent]).to.deep.equal([11, 11]);
    expect(after.output).to.deep.equal(await ledger.output(genesisOutput));
    expect(await ledger.outputAtLedgerIndex(outputId(bytes32('unknown'), 0))).to.deep.equal({
      ledgerIndex: 11,
      output: undefined,
    });
  });

  for (const root of ['inclusionMerkleRoot', 'appliedMerkleRoot'] as const) {
    it(`a tampered ${root} (validly signed) is rejected after White-Flag and nothing is written`, async () => {
      const { net, kv } = await pending();
      const draft = net.draft();
      const roots = await net.roots(draft);
      const bad = roots[root].slice();
      bad[0]! ^= 1;
      const ms = await net.milestone(draft, { roots: { ...roots, [root]: bad } });
      await expectRejected(net, kv, ms, 'INVALID_FIELD', `payload.${root}`);
    });
  }

  it('a wrong previous milestone ID is rejected', async () => {
    const { net, kv } = await pending();
    const ms = await net.milestone({ ...net.draft(), previousMilestoneId: bytes32('not the last milestone') });
    await expectRejected(net, kv, ms, 'INVALID_FIELD', 'payload.previousMilestoneId');
  });

  it('a timestamp that does not increase is rejected (equal and lower)', async () => {
    const { net, kv } = await pending();
    await expectRejected(
      net,
      kv,
      await net.milestone({ ...net.draft(), timestamp: net.lastTimestamp }),
      'VALUE_OUT_OF_RANGE',
      'payload.timestamp',
    );
    await expectRejected(
      net,
      kv,
      await net.milestone({ ...net.draft(), timestamp: net.lastTimestamp - 100 }),
      'VALUE_OUT_OF_RANGE',
      'payload.timestamp',
    );
  });

  it('an index other than ledger index + 1 is rejected', async () => {
    const { net, kv } = await pending();
    await expectRejected(
      net,
      kv,
      await net.milestone({ ...net.draft(), index: 12 }),
      'VALUE_OUT_OF_RANGE',
      'payload.index',
    );
    await expectRejected(
      net,
      kv,
      await net.milestone({ ...net.draft(), index: 10 }),
      'VALUE_OUT_OF_RANGE',
      'payload.index',
    );
  });

  it('too few signatures are rejected (2 needed, 1 given)', async () => {
    const { net, kv } = await pending();
    await expectRejected(net, kv, await net.milestone(net.draft(), { signers: 1 }), 'INVALID_SIGNATURE');
  });

  it('a signature by a key outside the configured ranges is rejected', async () => {
    const { net, kv } = await pending();
    const strangers = [bytes32('stranger 1'), bytes32('stranger 2'), bytes32('stranger 3')];
    await expectRejected(net, kv, await net.milestone(net.draft(), { seeds: strangers }), 'INVALID_SIGNATURE');
  });

  it('a signature that does not verify is rejected', async () => {
    const { net, kv } = await pending();
    const ms = await net.milestone();
    const payload = ms.block.payload as MilestonePayload;
    const sigs = payload.signatures.map((s, i) =>
      i === 1 ? { ...s, signature: s.signature.map((b, j) => (j === 0 ? b ^ 1 : b)) } : s,
    );
    const forged = makeBlock(ms.block.parents, { ...payload, signatures: sigs }, 0n);
    await expectRejected(net, kv, forged, 'INVALID_SIGNATURE');
  });

  it("milestone parents that differ from the block's parents are rejected", async () => {
    const { net, kv } = await pending();
    const ms = await net.milestone();
    const other = makeBlock([...ms.block.parents, bytes32('extra parent')], ms.block.payload, 0n);
    await expectRejected(net, kv, other, 'INVALID_FIELD', 'payload.parents');
  });

  it('a milestone block with a nonce is rejected; a block without milestone payload is refused', async () => {
    const { net, kv } = await pending();
    const ms = await net.milestone();
    await expectRejected(net, kv, makeBlock(ms.block.parents, ms.block.payload, 5n), 'INVALID_NONCE', 'nonce');
    await expectRejected(net, kv, makeBlock(ms.block.parents, undefined, 0n), 'MISSING_FIELD', 'payload');
  });

  it('a protocol parameters target outside (index, index + 30] is rejected', async () => {
    const { net, kv } = await pending();
    const draft: MilestoneDraft = {
      ...net.draft(),
      options: [
        {
          type: 1,
          targetMilestoneIndex: 11 + 31,
          protocolVersion: 2,
          params: encodeProtocolParameters((await new LedgerState(net.store).protocolParameters(11))!),
        },
      ],
    };
    await expectRejected(
      net,
      kv,
      await net.milestone(draft),
      'VALUE_OUT_OF_RANGE',
      'payload.options[0].targetMilestoneIndex',
    );
  });

  it('a cone with an unknown block is refused and nothing is written', async () => {
    const { net, kv } = await pending();
    await expectRejected(
      net,
      kv,
      await net.milestone(
        { ...net.draft([bytes32('unknown block')]) },
        { roots: { inclusionMerkleRoot: bytes32('a'), appliedMerkleRoot: bytes32('b') } },
      ),
      'MISSING_FIELD',
      'parents',
    );
  });
});

describe('ledger: milestone options', () => {
  it('stores a protocol parameters change and applies it from its target index', async () => {
    const { net } = await pending();
    const ledger = new LedgerState(net.store);
    const current = (await ledger.protocolParameters(11))!;
    const next = { ...current, minPowScore: 3000 };
    const draft: MilestoneDraft = {
      ...net.draft(),
      options: [{ type: 1, targetMilestoneIndex: 15, protocolVersion: 2, params: encodeProtocolParameters(next) }],
    };
    const ms = await net.milestone(draft);
    await (
      await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block })
    ).batch.commit();
    expect(await ledger.protocolParametersChanges()).to.have.length(1);
    expect((await ledger.protocolParametersChanges())[0]).to.include({ targetMilestoneIndex: 15, announcedAt: 11 });
    expect((await ledger.pendingProtocolParametersChanges()).map((c) => c.targetMilestoneIndex)).to.deep.equal([15]);
    expect((await ledger.protocolParameters(14))!.minPowScore).to.equal(current.minPowScore);
    expect((await ledger.protocolParameters(15))!.minPowScore).to.equal(3000);
  });

  it('applies a receipt: a basic output per migrated entry (ID: milestone ID ‖ index), treasury replaced', async () => {
    const { net } = await pending({ treasury: 10_000_000n });
    const funds = [
      { tailTransactionHash: new Uint8Array(49).fill(1), address: bob.address, deposit: 1_000_000n },
      { tailTransactionHash: new Uint8Array(49).fill(2), address: alice.address, deposit: 2_000_000n },
    ];
    const ledger = new LedgerState(net.store);
    const treasury = (await ledger.treasury())!;
    const receipt = migrationReceipt(funds, treasury.milestoneId);
    const ms = await net.milestone({ ...net.draft(), options: [receipt] });
    const c = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
    await c.batch.commit();
    const migrated = await ledger.output(outputId(c.milestoneId, 1));
    expect(migrated?.output).to.deep.equal(basicOutput(2_000_000n, alice.address));
    expect(migrated?.milestoneIndexBooked).to.equal(11);
    expect(migrated?.blockId).to.deep.equal(c.milestoneId);
    expect(await ledger.isUnspent(outputId(c.milestoneId, 0))).to.equal(true);
    expect(await ledger.treasury()).to.deep.equal({ milestoneId: c.milestoneId, amount: 7_000_000n });
    const stored = await ledger.receipts(7);
    expect(stored.map((r) => r.milestoneIndex)).to.deep.equal([11]);
    expect(stored[0]!.receipt.funds).to.have.length(2);
    const diff = (await ledger.milestoneDiff(11))!;
    expect(diff.treasury).to.deep.equal({
      spent: treasury,
      created: { milestoneId: c.milestoneId, amount: 7_000_000n },
    });
    expect(diff.created.map(toHex)).to.include(toHex(outputId(c.milestoneId, 0)));
  });

  it('a receipt that does not balance with the treasury is rejected and nothing is written', async () => {
    const { net, kv } = await pending({ treasury: 10_000_000n });
    const treasury = (await new LedgerState(net.store).treasury())!;
    const receipt = {
      type: 0 as const,
      migratedAt: 7,
      final: false,
      funds: [{ tailTransactionHash: new Uint8Array(49).fill(1), address: bob.address, deposit: 1_000_000n }],
      transaction: {
        type: 4 as const,
        input: { type: 1 as const, milestoneId: treasury.milestoneId },
        output: { type: 2 as const, amount: 9_500_000n },
      },
    };
    await expectRejected(
      net,
      kv,
      await net.milestone({ ...net.draft(), options: [receipt] }),
      'INVALID_FIELD',
      'payload.options.receipt.transaction.output.amount',
    );
  });
});
