/**
 * THE acceptance test of the ledger: replays the real Shimmer milestones 17339-17341 (test/vectors/stardust) on a fresh
 * ledger and compares every White-Flag index, inclusion state, conflict reason, both Merkle roots and the included
 * block of every transaction with what the real network recorded.
 */
import { expect } from 'chai';
import { equalBytes, fromHex0x, toHex, toHex0x } from '../../../src/core/bytes.ts';
import { encodeOutput } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf, milestoneIdOf, transactionIdOf } from '../../../src/core/ids/index.ts';
import {
  CONFLICT,
  confirmMilestone,
  initLedger,
  LedgerState,
  type LedgerGenesis,
} from '../../../src/core/ledger/index.ts';
import type { MilestonePayload } from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { shimmerReplay, type ShimmerReplay } from '../../support/shimmer-replay.ts';

const STATE: Record<string, string> = {
  no_transaction: 'noTransaction',
  included: 'included',
  conflicting: 'conflicting',
};
const REASON: Record<string, number> = { none: CONFLICT.none };

function genesisOf(d: ShimmerReplay): LedgerGenesis {
  const prevPayload = d.previous.block.payload as MilestonePayload;
  return {
    protocolParameters: d.protocol,
    milestone: {
      index: prevPayload.index,
      timestamp: prevPayload.timestamp,
      milestoneId: d.payloads[0]!.previousMilestoneId,
      blockId: d.previous.id,
    },
    milestoneKeyRanges: d.keyRanges,
    milestonePublicKeyCount: d.threshold,
    solidEntryPoints: d.solidEntryPoints,
    unspentOutputs: d.startingOutputs.map(({ outputId, output }) => ({
      outputId,
      blockId: new Uint8Array(32),
      milestoneIndexBooked: 0,
      milestoneTimestampBooked: 0,
      output,
    })),
  };
}

async function freshStore(d: ShimmerReplay): Promise<NodeStore> {
  const store = await NodeStore.open(new MemoryKeyValueStore(), { networkName: 'shimmer' });
  await initLedger(store, genesisOf(d));
  const batch = store.batch();
  const blocks = [...d.cones.flat(), ...d.milestoneBlocks.filter((m) => !m.real)];
  for (const b of blocks) {
    const p = b.block.payload;
    batch.addBlock({
      blockId: b.id,
      bytes: b.bytes,
      parents: b.block.parents,
      metadata: { protocolVersion: 2, solid: true, arrivalTime: 1 },
      ...(p?.type === 6 ? { transactionId: transactionIdOf(p) } : {}),
    });
  }
  await batch.commit();
  return store;
}

describe('ledger: replay of the real Shimmer milestones 17339-17341', function () {
  this.timeout(60000);
  const d = shimmerReplay();

  it('the file gives what the replay needs', () => {
    expect(d.cones.map((c) => c.length)).to.deep.equal([38, 43, 31]);
    expect(d.consumed).to.have.length(27);
    expect(d.milestoneBlocks.map((m) => m.real)).to.deep.equal([true, true, false]);
    d.payloads.forEach((p, i) => {
      expect(toHex0x(milestoneIdOf(p))).to.equal(d.milestones[i].milestoneIdInSource);
    });
    for (const c of d.cones.flat()) expect(toHex(blockIdOf(c.bytes))).to.equal(toHex(c.id));
  });

  it('confirms 17339, 17340, 17341 with the recorded White-Flag order, states, reasons and Merkle roots', async () => {
    const store = await freshStore(d);
    const ledger = new LedgerState(store);
    for (const [i, m] of d.milestones.entries()) {
      const ms = d.milestoneBlocks[i]!;
      const c = await confirmMilestone({ store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
      expect(c.milestoneIndex).to.equal(m.index);
      expect(toHex0x(c.milestoneId)).to.equal(m.milestoneIdInSource);
      expect(toHex0x(c.inclusionMerkleRoot)).to.equal(m.milestonePayloadJson.inclusionMerkleRoot);
      expect(toHex0x(c.appliedMerkleRoot)).to.equal(m.milestonePayloadJson.appliedMerkleRoot);
      const got = c.verdicts.map((v) => ({
        blockId: toHex0x(v.blockId),
        whiteFlagIndex: v.whiteFlagIndex,
        state: v.ledgerInclusionState,
        reason: v.conflictReason,
      }));
      const want = m.coneInWhiteFlagOrder.map(
        (b: { blockId: string; whiteFlagIndex: number; inclusionState: string; conflictReason: string }) => ({
          blockId: b.blockId,
          whiteFlagIndex: b.whiteFlagIndex,
          state: STATE[b.inclusionState],
          reason: REASON[b.conflictReason],
        }),
      );
      expect(got).to.deep.equal(want);
      // Transactions applied = the ones whose outputs the source says were created.
      const includedTx = c.verdicts
        .filter((v) => v.ledgerInclusionState === 'included')
        .map((v) => toHex0x(v.transactionId!));
      expect(includedTx.sort()).to.deep.equal([...m.createdOutputTransactionIdsInSource].sort());
      await c.batch.commit();
      expect(await ledger.ledgerIndex()).to.equal(m.index);
      for (const b of m.coneInWhiteFlagOrder) {
        const meta = await store.getBlockMetadata(fromHex0x(b.blockId));
        expect(meta?.referenced).to.deep.equal({
          milestoneIndex: m.index,
          whiteFlagIndex: b.whiteFlagIndex,
          ledgerInclusionState: STATE[b.inclusionState],
          conflictReason: REASON[b.conflictReason],
        });
      }
      expect((await store.getBlockMetadata(ms.id))?.milestoneIndex).to.equal(m.index);
      expect(await store.milestone(m.index)).to.deep.equal({
        milestoneId: c.milestoneId,
        blockId: ms.id,
        timestamp: m.milestonePayloadJson.timestamp,
      });
    }

    // Included-block answers for all 16 transactions.
    const txs: { transactionId: string; blockId: string }[] = d.milestones.flatMap((m) => m.derived.transactions);
    expect(txs).to.have.length(16);
    for (const t of txs) expect(toHex0x((await store.includedBlock(fromHex0x(t.transactionId)))!)).to.equal(t.blockId);

    // Every one of the 27 referenced outputs is spent now, by the transaction that consumed it in the file.
    for (const [id, o] of d.consumed) {
      const out = await ledger.output(fromHex0x(id));
      expect(out, id).to.not.equal(undefined);
      expect(out!.spent, id).to.not.equal(undefined);
      expect(await ledger.isUnspent(fromHex0x(id))).to.equal(false);
      // Outputs the replay created itself must carry exactly the bytes the file gives for them.
      expect(toHex(encodeOutput(out!.output))).to.equal(o.outputBytes);
    }
    const starting = new Set(d.startingOutputs.map((o) => toHex0x(o.outputId)));
    const createdByReplay = d.consumed.filter(([id]) => !starting.has(id));
    expect(createdByReplay).to.have.length(4);
    for (const [id] of createdByReplay)
      expect((await ledger.output(fromHex0x(id)))!.milestoneIndexBooked).to.be.within(17339, 17340);
  });

  it('a second confirmation of the same milestone is refused and leaves the ledger as it was', async () => {
    const store = await freshStore(d);
    const ms = d.milestoneBlocks[0]!;
    await (await confirmMilestone({ store, milestoneBlockId: ms.id, milestoneBlock: ms.block })).batch.commit();
    const error = await confirmMilestone({ store, milestoneBlockId: ms.id, milestoneBlock: ms.block }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.have.property('code', 'VALUE_OUT_OF_RANGE');
    expect(error).to.have.property('field', 'payload.index');
    expect(await new LedgerState(store).ledgerIndex()).to.equal(17339);
  });

  it('the milestone IDs chain: each previousMilestoneId is the milestone before', () => {
    for (let i = 1; i < d.payloads.length; i++)
      expect(equalBytes(d.payloads[i]!.previousMilestoneId, milestoneIdOf(d.payloads[i - 1]!))).to.equal(true);
  });
});
