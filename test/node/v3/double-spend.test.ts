/**
 * A double spend's loser as iota-core judges it (src/node/v3/failures.ts, docs/decisions.md §44): posted beside the
 * winner it fails at confirmation with 1 (conflict rejected); posted once the winner is applied, the block is
 * attached (not refused) and its transaction fails at once, 1 while the winner's slot is not committed, 3 (input
 * already spent) afterwards; it is never accepted and never has an included block. A double spend with any other
 * fault is still refused. The engine over a memory store with a clock the test sets (one-second slots,
 * minCommittableAge 10, no commitment lag).
 */
import { expect } from 'chai';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { slotFromTime, type SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { TX_FAILURE_V3 } from '../../../src/node/v3/failures.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import { basicBlock, genesisOutputId, key, testGenesisV3, txIdOf, USER, WALLET } from '../../../harness/fixtures/v3.ts';
import { EngineHarness, rejection } from './support.ts';

describe('v3 double spends: the loser fails as in iota-core', function () {
  this.timeout(30_000);

  const h = new EngineHarness(testGenesisV3({ funded: 4 }));
  const txState = async (block: Uint8Array) => (await h.engine.blockMetadata(block)).transaction!;
  const included = (tx: SignedTransactionPayloadV3) => () => h.engine.includedBlockId(txIdOf(tx));
  /** Spends genesis output `i` (WALLET's) to key(`to`), created in `slot`. */
  const spend = (i: number, to: number, slot: number, owner = WALLET) =>
    h.spend(genesisOutputId(h.g, i), owner, slot, key(to));
  /** Posts `payload` in a block on the issuance's tips, issued now or after its latest parent (as the SDK does). */
  const post = async (payload: SignedTransactionPayloadV3): Promise<Uint8Array> => {
    const e = h.engine;
    const raw = await e.read(() => {
      const iss = e.issuance() as { strongParents: string[]; latestParentBlockIssuingTime: string };
      const now = BigInt(h.nowMs) * 1_000_000n;
      const after = BigInt(iss.latestParentBlockIssuingTime) + 1n;
      const issuingTime = after > now ? after : now;
      const commitmentId = e.commitmentIdForSlot(slotFromTime(issuingTime, e.params));
      const parents = iss.strongParents.map((p) => fromHex0x(p));
      return basicBlock(e.params, { issuer: USER, parents, issuingTime, commitmentId, payload });
    });
    return e.submit({ raw });
  };

  before(async () => {
    await h.open();
    h.at(1010);
  });
  after(() => h.store.close());

  it('posted in the same round: the first attached wins, the other fails with 1 at confirmation', async () => {
    const a = spend(0, 71, 1010);
    const b = spend(0, 72, 1010);
    const idA = await post(a);
    const idB = await post(b);
    expect((await txState(idA)).state).to.equal('pending');
    expect((await txState(idB)).state).to.equal('pending');
    await h.confirm();
    expect([await h.state(idA), await h.state(idB)]).to.deep.equal(['confirmed', 'confirmed']);
    expect((await txState(idA)).state).to.equal('accepted');
    expect(await txState(idB)).to.deep.include({ state: 'failed', failureReason: TX_FAILURE_V3.conflictRejected });
    expect((await txState(idB)).failureDetails).to.match(/already spent by transaction .*conflict rejected/);
    expect(toHex0x(included(a)())).to.equal(toHex0x(idA));
    expect(included(b)).to.throw(/transaction not included/);
  });

  it('posted after the winner is applied: attached, failed with 1 at once, never accepted nor included', async () => {
    const a = spend(1, 73, 1010);
    const idA = await post(a);
    await h.confirm();
    expect((await txState(idA)).state).to.equal('accepted');
    const c = spend(1, 74, 1010);
    const idC = await post(c); // not refused: iota-core books it too
    expect(await h.state(idC)).to.equal('pending');
    const md = await txState(idC);
    expect(md).to.deep.include({ state: 'failed', failureReason: 1, earliestAttachmentSlot: 1010 });
    expect(md.failureDetails).to.match(/double spend: conflict rejected/);
    await h.confirm();
    expect(await h.state(idC)).to.equal('confirmed'); // the block is; its transaction stays failed
    expect((await txState(idC)).state).to.equal('failed');
    expect(included(c)).to.throw(/transaction not included/);
    expect(h.engine.output(genesisOutputId(h.g, 1))).to.deep.include({ spent: true });
    // its record is stored as failed, and a restart reads it so
    expect(await h.store.get(V3_TABLES.transactions, txIdOf(c))).to.deep.include({ state: 'failed', failureCode: 1 });
    await h.open();
    expect(h.engine.transactionState(txIdOf(c))).to.deep.include({ state: 'failed', failureCode: 1 });
    // the same transaction in another block is refused: it failed before
    const again = await rejection(post(c));
    expect(again.message).to.match(/failed before/);
  });

  it('posted once the winner is committed: failed with 3 (input already spent)', async () => {
    const a = spend(2, 75, 1010);
    const idA = await post(a);
    await h.confirm();
    h.at(1021); // rounds of slot 1021 accepted: slot 1011 committable, 1010 with the winner in it
    await h.confirm();
    await h.engine.read(() => undefined);
    expect(h.engine.commitments.latestSlot).to.be.at.least(1010);
    expect((await txState(idA)).state).to.be.oneOf(['committed', 'finalized']);
    const d = spend(2, 76, 1021);
    const idD = await post(d);
    const md = await txState(idD);
    expect(md).to.deep.include({ state: 'failed', failureReason: TX_FAILURE_V3.inputAlreadySpent });
    expect(md.failureDetails).to.match(/committed in slot 1010 \(double spend: input already spent\)/);
    await h.confirm();
    expect((await txState(idD)).state).to.equal('failed');
    expect(included(d)).to.throw(/transaction not included/);
  });

  it('a double spend with another fault is refused as before, storing nothing', async () => {
    const a = spend(3, 77, 1021);
    await post(a);
    await h.confirm();
    const forged = spend(3, 78, 1021, USER); // signed by a key that does not own the output
    const e = await rejection(post(forged));
    expect(e.message).to.match(/UNLOCK_INVALID/);
    expect(h.engine.transactionState(txIdOf(forged))).to.equal(undefined);
    expect(await h.store.transactionBlocks(txIdOf(forged))).to.deep.equal([]);
  });
});
