/**
 * The slots of a long stop committed in chunks (src/node/v3/catch-up.ts, docs/decisions.md §46): the engine over a
 * memory store opened again with its clock 3 hours later. The open commits at most CATCH_UP_SLOTS slots and turns of
 * the catch-up's own commit the rest in the background; meanwhile reads are answered, submissions are refused with
 * UNAVAILABLE (503), the validator skips its rounds and the info says the node is not healthy. The commitments made
 * in chunks are those made in one go (the engine's parts over a copy of the same store), and stop() ends the turns.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { slotFromTime } from '../../../src/core/v3/index.ts';
import { CATCH_UP_SLOTS } from '../../../src/node/v3/catch-up.ts';
import { V3Commitments } from '../../../src/node/v3/commitments.ts';
import { V3Dag } from '../../../src/node/v3/dag.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import { V3Ledger } from '../../../src/node/v3/ledger.ts';
import { V3Network } from '../../../src/node/v3/network.ts';
import { basicBlock, GENESIS_TIME, testGenesisV3, USER } from '../../../harness/fixtures/v3.ts';
import { waitFor } from '../../../harness/wait.ts';
import { rejection } from './support.ts';

const MS = 1_000_000n;
const GAP_MS = 3 * 3600 * 1000;

/** A store after a few validator rounds and a confirmed user block, as a node left it when it stopped. */
async function stoppedStore(
  g = testGenesisV3(),
): Promise<{ kv: MemoryKeyValueStore; nowMs: number; user: Uint8Array; latest: number }> {
  const kv = new MemoryKeyValueStore();
  const store = await NodeStore.open(kv);
  await V3Engine.create(store, g);
  let nowMs = (GENESIS_TIME + 30) * 1000;
  const engine = (await V3Engine.open(store, { now: () => nowMs }))!;
  for (let i = 0; i < 10; i++) {
    nowMs += 2000;
    await engine.issueValidationBlocks();
  }
  nowMs += 10;
  const user = await engine.submit({
    raw: basicBlock(engine.params, {
      issuer: USER,
      parents: engine.selectTips(),
      issuingTime: BigInt(nowMs) * MS,
      commitmentId: engine.latestCommitmentId,
    }),
  });
  for (let i = 0; i < 2; i++) {
    nowMs += 2000;
    await engine.issueValidationBlocks();
  }
  await engine.idle();
  return { kv, nowMs, user, latest: engine.latestCommitment.commitment.slot };
}

async function copyOf(kv: MemoryKeyValueStore): Promise<MemoryKeyValueStore> {
  const copy = new MemoryKeyValueStore();
  const ops = [];
  for await (const [key, value] of kv.entries()) ops.push({ type: 'put' as const, key, value });
  await copy.write(ops);
  return copy;
}

describe('v3 catch-up after a long stop: in chunks, the node answering meanwhile', function () {
  this.timeout(60_000);

  it('reads answered, submissions 503, no validator round, not healthy; then the same commitments', async () => {
    const g = testGenesisV3();
    const stopped = await stoppedStore(g);
    const reference = await copyOf(stopped.kv);
    const nowMs = stopped.nowMs + GAP_MS;
    const store = await NodeStore.open(stopped.kv);
    const before = stopped.latest;
    const engine = (await V3Engine.open(store, { now: () => nowMs }))!;
    try {
      const opened = engine.latestCommitment.commitment.slot;
      expect(opened - before).to.be.within(1, CATCH_UP_SLOTS);
      expect(engine.catchUp.behind).to.be.above(GAP_MS / 1000 - 2 * CATCH_UP_SLOTS);
      // meanwhile: reads answer from what is committed, a block is refused with 503, no validator round
      expect((await engine.read(() => engine.blockMetadata(stopped.user))).blockState).to.equal('confirmed');
      const info = (): { isHealthy: boolean } =>
        (engine.info({ name: 'n', version: 'v', baseToken: {} }) as { status: { isHealthy: boolean } }).status;
      expect(info().isHealthy).to.equal(false);
      const refused = await rejection(
        engine.submit({
          raw: basicBlock(engine.params, {
            issuer: USER,
            parents: engine.selectTips(),
            issuingTime: BigInt(nowMs) * MS,
            commitmentId: engine.latestCommitmentId,
          }),
        }),
      );
      expect(refused).to.include({ code: 'UNAVAILABLE' });
      expect(refused.message).to.match(/committing the slots it was stopped for \([0-9]+ left\).*isHealthy/);
      expect(await engine.issueValidationBlocks()).to.deep.equal([]);
      expect(engine.latestCommitment.commitment.slot).to.be.below(before + GAP_MS / 1000 - CATCH_UP_SLOTS);
      // the turns of its own catch up with the clock (no read needed)
      await waitFor('the catch-up', async () => (engine.catchUp.behind === 0 ? true : undefined));
      const clockSlot = slotFromTime(BigInt(nowMs) * MS, engine.params);
      expect(engine.latestCommitment.commitment.slot).to.equal(clockSlot - 12); // minCommittableAge + the lag
      expect(info().isHealthy).to.equal(true);
      expect(await engine.issueValidationBlocks()).to.have.length(1);

      // in one go (the engine's parts, as before chunks): the same chain
      const refStore = await NodeStore.open(reference);
      const network = new V3Network(g);
      const dag = new V3Dag(network);
      await dag.load(refStore);
      const ledger = new V3Ledger(network, refStore);
      await ledger.load();
      const commitments = new V3Commitments(network, refStore);
      await commitments.load();
      await commitments.catchUp(BigInt(nowMs) * MS, dag, ledger);
      expect(commitments.latestSlot).to.equal(clockSlot - 12);
      for (const slot of [before + 1, before + 2, before + CATCH_UP_SLOTS + 1, clockSlot - 13, clockSlot - 12]) {
        const mine = await engine.commitment(slot);
        expect(toHex0x(mine!.id), `slot ${slot}`).to.equal(toHex0x((await commitments.bySlot(slot))!.id));
      }
    } finally {
      await engine.idle();
      await store.close();
    }
  });

  it('stop() ends the turns of its own; what is left is committed on the next start', async () => {
    const stopped = await stoppedStore();
    const nowMs = stopped.nowMs + GAP_MS;
    const store = await NodeStore.open(stopped.kv);
    let engine = (await V3Engine.open(store, { now: () => nowMs }))!;
    engine.catchUp.stop();
    const at = engine.latestCommitment.commitment.slot;
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    await engine.idle();
    expect(engine.latestCommitment.commitment.slot).to.equal(at);
    expect(engine.catchUp.behind).to.be.above(0);
    engine = (await V3Engine.open(store, { now: () => nowMs }))!;
    expect(engine.latestCommitment.commitment.slot).to.be.above(at);
    await engine.catchUp.done();
    expect(engine.catchUp.behind).to.equal(0);
    await engine.idle();
    await store.close();
  });
});
