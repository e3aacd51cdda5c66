/** White-Flag over synthetic cones with real keys: walk order, input resolution codes 1/2/3, re-attachments. */
import { expect } from 'chai';
import { toHex, toHex0x } from '../../../src/core/bytes.ts';
import { outputId, transactionIdOf } from '../../../src/core/ids/index.ts';
import {
  CONFLICT,
  confirmMilestone,
  LedgerState,
  walkCone,
  type ConeBlockSource,
  type MilestoneConfirmation,
} from '../../../src/core/ledger/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import {
  basicOutput,
  bytes32,
  makeBlock,
  outputsOf,
  TestNetwork,
  transfer,
  Wallet,
  type BuiltBlock,
} from '../../../harness/fixtures/ledger.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');
const carol = new Wallet('carol');

async function network(): Promise<TestNetwork> {
  return TestNetwork.create(new MemoryKeyValueStore(), [
    { wallet: alice, amount: 1_000_000n },
    { wallet: alice, amount: 2_000_000n },
  ]);
}

/** Signs, confirms and commits the next milestone over the current tip. */
async function confirmNext(net: TestNetwork): Promise<{ c: MilestoneConfirmation; ms: BuiltBlock }> {
  const ms = await net.milestone();
  const c = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
  await c.batch.commit();
  net.accept(ms);
  return { c, ms };
}

function verdictsOf(c: MilestoneConfirmation): [string, string, number][] {
  return c.verdicts.map((v) => [toHex(v.blockId), v.ledgerInclusionState, v.conflictReason]);
}

describe('ledger: White-Flag walk', () => {
  /** A source over a fixed set of blocks; `referenced` lists blocks an earlier milestone referenced. */
  function source(blocks: BuiltBlock[], referenced: Uint8Array[] = []): ConeBlockSource & { reads: string[] } {
    const byId = new Map(blocks.map((b) => [toHex(b.id), b.block]));
    const refs = new Set(referenced.map(toHex));
    const reads: string[] = [];
    return {
      reads,
      async block(id: Uint8Array): Promise<Block | undefined> {
        reads.push(toHex(id));
        return byId.get(toHex(id));
      },
      async isReferenced(id: Uint8Array): Promise<boolean> {
        return refs.has(toHex(id));
      },
    };
  }

  it('is post-order DFS over parents in stored order, each block once, never entering referenced blocks', async () => {
    const root = bytes32('old referenced block');
    const a = makeBlock([root], undefined, 1n);
    const b = makeBlock([a.id], undefined, 2n);
    const c = makeBlock([a.id], undefined, 3n);
    const d = makeBlock([b.id, c.id], undefined, 4n); // parents sorted by ID: the walk follows that order
    const e = makeBlock([c.id, root], undefined, 5n);
    const src = source([a, b, c, d, e], [root]);
    const cone = await walkCone(
      [d.id, e.id].sort((x, y) => (toHex(x) < toHex(y) ? -1 : 1)),
      src,
      11,
    );
    // Expected order, computed by hand from the stored parent order.
    const order: string[] = [];
    const seen = new Set<string>();
    const visit = (blk: BuiltBlock): void => {
      if (seen.has(toHex(blk.id))) return;
      seen.add(toHex(blk.id));
      for (const p of blk.block.parents) {
        const child = [a, b, c, d, e].find((x) => toHex(x.id) === toHex(p));
        if (child) visit(child);
      }
      order.push(toHex(blk.id));
    };
    for (const p of [d, e].sort((x, y) => (toHex(x.id) < toHex(y.id) ? -1 : 1))) visit(p);
    expect(cone.map((x) => toHex(x.blockId))).to.deep.equal(order);
    expect(order[0]).to.equal(toHex(a.id)); // a is the only block whose parents are all referenced
    expect(new Set(src.reads).size).to.equal(src.reads.length); // each block read once
    expect(src.reads).to.not.include(toHex(root));
  });

  it('walks a chain of 20 000 blocks without exhausting the stack', async () => {
    const blocks: BuiltBlock[] = [];
    let parent = bytes32('deep root');
    for (let i = 0; i < 20_000; i++) {
      const blk = makeBlock([parent], undefined, BigInt(i));
      blocks.push(blk);
      parent = blk.id;
    }
    const cone = await walkCone([parent], source(blocks, [bytes32('deep root')]), 11);
    expect(cone).to.have.length(20_000);
    expect(toHex(cone[0]!.blockId)).to.equal(toHex(blocks[0]!.id));
  });

  it('refuses a cone with an unknown block (MISSING_FIELD, naming the block)', async () => {
    const missing = bytes32('never seen');
    const a = makeBlock([missing], undefined, 1n);
    const error = await walkCone([a.id], source([a]), 11).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.have.property('code', 'MISSING_FIELD');
    expect((error as Error).message).to.include(toHex0x(missing));
  });
});

describe('ledger: White-Flag application', () => {
  it('applies a transfer: inputs spent, outputs booked under txId ‖ index, included block recorded', async () => {
    const net = await network();
    const tx = transfer(
      alice,
      [net.genesisOutputs[0]!],
      [basicOutput(600_000n, bob.address), basicOutput(400_000n, alice.address)],
    );
    const blk = await net.add(tx);
    const { c } = await confirmNext(net);
    expect(verdictsOf(c)).to.deep.equal([[toHex(blk.id), 'included', 0]]);
    const ledger = new LedgerState(net.store);
    const txId = transactionIdOf(tx);
    const out = await ledger.output(outputId(txId, 1));
    expect(out?.output.amount).to.equal(400_000n);
    expect(toHex(out!.blockId)).to.equal(toHex(blk.id));
    expect(out!.milestoneIndexBooked).to.equal(11);
    expect(await ledger.isUnspent(outputId(txId, 0))).to.equal(true);
    const spent = await ledger.output(net.genesisOutputs[0]!.outputId);
    expect(spent?.spent).to.deep.equal({
      transactionIdSpent: txId,
      milestoneIndexSpent: 11,
      milestoneTimestampSpent: net.lastTimestamp,
    });
    expect(await ledger.isUnspent(net.genesisOutputs[0]!.outputId)).to.equal(false);
    expect(toHex((await net.store.includedBlock(txId))!)).to.equal(toHex(blk.id));
    const msMeta = await net.store.getBlockMetadata(net.tip);
    expect(msMeta).to.deep.equal({ protocolVersion: 2, solid: true, arrivalTime: 1, milestoneIndex: 11 });
    const diff = await ledger.milestoneDiff(11);
    expect(diff?.created.map(toHex)).to.deep.equal([outputId(txId, 0), outputId(txId, 1)].map(toHex));
    expect(diff?.consumed.map(toHex)).to.deep.equal([toHex(net.genesisOutputs[0]!.outputId)]);
  });

  it('a double spend inside one milestone: the first applies, the second conflicts with code 2', async () => {
    const net = await network();
    const first = await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(1_000_000n, bob.address)]));
    const secondTx = transfer(alice, [net.genesisOutputs[0]!], [basicOutput(1_000_000n, carol.address)]);
    const second = await net.add(secondTx);
    const { c } = await confirmNext(net);
    expect(verdictsOf(c)).to.deep.equal([
      [toHex(first.id), 'included', 0],
      [toHex(second.id), 'conflicting', CONFLICT.inputSpentInThisMilestone],
    ]);
    expect(await net.store.includedBlock(transactionIdOf(secondTx))).to.equal(undefined);
    const meta = await net.store.getBlockMetadata(second.id);
    expect(meta?.referenced).to.deep.equal({
      milestoneIndex: 11,
      whiteFlagIndex: 1,
      ledgerInclusionState: 'conflicting',
      conflictReason: 2,
    });
    // Nothing of the conflicting transaction was booked.
    expect(await new LedgerState(net.store).output(outputId(transactionIdOf(secondTx), 0))).to.equal(undefined);
  });

  it('spending an output an earlier milestone spent conflicts with code 1', async () => {
    const net = await network();
    await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(1_000_000n, bob.address)]));
    await confirmNext(net);
    const previousMilestoneBlock = net.tip;
    const again = await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(1_000_000n, carol.address)]));
    const { c } = await confirmNext(net);
    expect(verdictsOf(c)).to.deep.equal([
      [toHex(previousMilestoneBlock), 'noTransaction', 0],
      [toHex(again.id), 'conflicting', CONFLICT.inputAlreadySpent],
    ]);
    // MTH([])
    expect(toHex(c.appliedMerkleRoot)).to.equal('0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  });

  it('an unknown input conflicts with code 3, even before a known input', async () => {
    const net = await network();
    const ghost = {
      outputId: outputId(bytes32('no such transaction'), 0),
      output: basicOutput(1_000_000n, alice.address),
    };
    const blk = await net.add(transfer(alice, [ghost, net.genesisOutputs[1]!], [basicOutput(3_000_000n, bob.address)]));
    const { c } = await confirmNext(net);
    expect(verdictsOf(c)).to.deep.equal([[toHex(blk.id), 'conflicting', CONFLICT.inputNotFound]]);
    expect(await new LedgerState(net.store).isUnspent(net.genesisOutputs[1]!.outputId)).to.equal(true);
  });

  it('an output created earlier in the same milestone can be spent later in it', async () => {
    const net = await network();
    const tx1 = transfer(alice, [net.genesisOutputs[0]!], [basicOutput(1_000_000n, bob.address)]);
    const b1 = await net.add(tx1);
    const tx2 = transfer(bob, outputsOf(tx1), [basicOutput(1_000_000n, carol.address)]);
    const b2 = await net.add(tx2);
    const { c } = await confirmNext(net);
    expect(verdictsOf(c)).to.deep.equal([
      [toHex(b1.id), 'included', 0],
      [toHex(b2.id), 'included', 0],
    ]);
    const ledger = new LedgerState(net.store);
    const mid = outputsOf(tx1)[0]!.outputId;
    expect(await ledger.isUnspent(mid)).to.equal(false);
    expect((await ledger.output(mid))?.spent?.milestoneIndexSpent).to.equal(11);
    expect(await ledger.isUnspent(outputsOf(tx2)[0]!.outputId)).to.equal(true);
  });

  it('semantic failures after input resolution come from the semantic validator (amount mismatch = 4)', async () => {
    const net = await network();
    const blk = await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(900_000n, bob.address)]));
    const { c } = await confirmNext(net);
    expect(verdictsOf(c)).to.deep.equal([[toHex(blk.id), 'conflicting', CONFLICT.amountMismatch]]);
  });

  it('included-block never returns a conflicting re-attachment (same milestone or a later one)', async () => {
    const net = await network();
    const tx = transfer(alice, [net.genesisOutputs[0]!], [basicOutput(1_000_000n, bob.address)]);
    const txId = transactionIdOf(tx);
    const original = await net.add(tx);
    const reattached = await net.add(tx, [original.id, net.tip]); // another block, same transaction
    expect(toHex(reattached.id)).to.not.equal(toHex(original.id));
    const { c } = await confirmNext(net);
    expect(verdictsOf(c)).to.deep.equal([
      [toHex(original.id), 'included', 0],
      [toHex(reattached.id), 'conflicting', CONFLICT.inputSpentInThisMilestone],
    ]);
    const previousMilestoneBlock = net.tip;
    const later = await net.add(tx); // re-attached once more, after the transaction was confirmed
    const next = await confirmNext(net);
    // The cone: the previous milestone's block, then the re-attachment.
    expect(verdictsOf(next.c)).to.deep.equal([
      [toHex(previousMilestoneBlock), 'noTransaction', 0],
      [toHex(later.id), 'conflicting', CONFLICT.inputAlreadySpent],
    ]);
    expect(toHex((await net.store.includedBlock(txId))!)).to.equal(toHex(original.id));
    expect((await net.store.transactionBlocks(txId)).map(toHex).sort()).to.deep.equal(
      [original.id, reattached.id, later.id].map(toHex).sort(),
    );
  });
});
