/**
 * The lag of the node's commitments (commitments.ts COMMIT_LAG_SLOTS): the latest commitment trails the clock by
 * minCommittableAge + 2 slots, so a client whose clock is a little behind the node's, issuing a block on the latest
 * commitment as the SDK does (its time is max(now, parent + 1)), names a commitment old enough for its block's slot
 * (TIP-46: block slot - minCommittableAge >= commitment slot). Without the lag that block is refused.
 */
import { expect } from 'chai';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { COMMIT_LAG_SLOTS } from '../../../src/node/v3/commitments.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import { basicBlock, slotStartNs, testGenesisV3, USER } from '../../../harness/fixtures/v3.ts';
import { rejection } from './support.ts';

async function engineAt(slot: number, commitLagSlots?: number): Promise<V3Engine> {
  const g = testGenesisV3();
  const store = await NodeStore.open(new MemoryKeyValueStore());
  await V3Engine.create(store, g);
  const nowMs = Number(slotStartNs(g.protocolParameters, slot) / 1_000_000n) + 100; // 100 ms into the slot
  const engine = (await V3Engine.open(store, {
    now: () => nowMs,
    ...(commitLagSlots !== undefined ? { commitLagSlots } : {}),
  }))!;
  await engine.read(() => undefined); // commits up to the clock
  return engine;
}

/** A block of a client whose clock is 150 ms behind the node's (in the slot before), on the latest commitment. */
function lateClientBlock(engine: V3Engine, slot: number): Uint8Array {
  return basicBlock(engine.params, {
    issuer: USER,
    parents: engine.selectTips(),
    issuingTime: slotStartNs(engine.params, slot) - 50_000_000n,
    commitmentId: engine.latestCommitmentId,
  });
}

describe('v3 commitments trail the clock by a lag', () => {
  it(`by minCommittableAge + ${COMMIT_LAG_SLOTS} slots: a client 150 ms behind is served`, async () => {
    const engine = await engineAt(200);
    const min = engine.params.minCommittableAge;
    expect(engine.commitments.latestSlot).to.equal(200 - min - COMMIT_LAG_SLOTS);
    const id = await engine.submit({ raw: lateClientBlock(engine, 200) });
    expect((await engine.blockMetadata(id)).blockState).to.equal('pending');
    await engine.idle();
  });

  it('on accepted blocks a client on the tips needs no lag: its block comes after the accepted one', async () => {
    for (const lag of [COMMIT_LAG_SLOTS, 0]) {
      const engine = await engineAt(200, lag);
      await engine.issueValidationBlocks(); // at 200.1 s
      await engine.issueValidationBlocks(); // 1 ns later: the first round's block, of slot 200, is accepted
      await engine.read(() => undefined);
      expect(engine.commitments.latestSlot).to.equal(200 - engine.params.minCommittableAge - lag);
      // the client 150 ms behind issues at max(its clock, latest parent + 1 ns), as the SDK does: slot 200 too
      const raw = basicBlock(engine.params, {
        issuer: USER,
        parents: engine.selectTips(),
        issuingTime: slotStartNs(engine.params, 200) + 100_000_002n,
        commitmentId: engine.latestCommitmentId,
      });
      const id = await engine.submit({ raw });
      expect((await engine.blockMetadata(id)).blockState).to.equal('pending');
      await engine.idle();
    }
  });

  it('without the lag the same block names a commitment too recent for its slot', async () => {
    const engine = await engineAt(200, 0);
    expect(engine.commitments.latestSlot).to.equal(200 - engine.params.minCommittableAge);
    expect((await rejection(engine.submit({ raw: lateClientBlock(engine, 200) }))).message).to.match(/too recent/);
    await engine.idle();
  });
});
