/**
 * Issue 15: the v3 engine's memory stays bounded while blocks flow. Only what the votes still work on stays in memory
 * (unconfirmed blocks, tips, the latest `maxConfirmed` confirmed blocks); older confirmed blocks are read from the
 * store, still answer reads and can still be parents; basic blocks wait while `maxPending` are unconfirmed; a restart
 * loads no more than the bound.
 */
import { expect } from 'chai';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import { basicBlock, GENESIS_TIME, testGenesisV3, USER } from '../../../harness/fixtures/v3.ts';

const LIMITS = { maxConfirmed: 100, maxPending: 40 };

describe('v3 engine: bounded memory', function () {
  this.timeout(60_000);
  let nowMs = (GENESIS_TIME + 5000) * 1000;
  const kv = new MemoryKeyValueStore();
  let store: NodeStore;
  let engine: V3Engine;

  const submitOn = (parents: Uint8Array[]): Promise<Uint8Array> => {
    nowMs += 1;
    const raw = basicBlock(engine.params, {
      issuer: USER,
      parents,
      issuingTime: BigInt(nowMs) * 1_000_000n,
      commitmentId: engine.latestCommitmentId,
    });
    return engine.submit({ raw });
  };

  before(async () => {
    store = await NodeStore.open(kv);
    await V3Engine.create(store, testGenesisV3());
    engine = (await V3Engine.open(store, { now: () => nowMs, limits: LIMITS }))!;
    await engine.catchUp.done(); // the 5,000 slots since the genesis are committed in chunks (catch-up.ts)
  });
  after(async () => {
    await engine.idle();
    await store.close();
  });

  let first: Uint8Array;

  it('keeps at most the unconfirmed blocks, the tips and the latest confirmed ones while 660 blocks flow', async () => {
    let attached = 0;
    let most = 0;
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 20; i++) {
        const id = await submitOn(engine.selectTips());
        first ??= id;
        attached++;
        most = Math.max(most, engine.blocksInMemory);
      }
      while (engine.hasUnconfirmedBlocks) {
        attached += (await engine.issueValidationBlocks()).length;
        most = Math.max(most, engine.blocksInMemory);
      }
    }
    expect(attached).to.be.greaterThan(600);
    // the confirmed window, plus a round's unconfirmed basic blocks and validation blocks, plus the tips
    expect(most).to.be.at.most(LIMITS.maxConfirmed + 20 + 8 + 8);
    expect(engine.blocksInMemory).to.be.at.most(LIMITS.maxConfirmed + 8);
  });

  it('answers reads of a confirmed block that left memory, and takes it as a parent', async () => {
    expect((await engine.blockMetadata(first)).blockState).to.equal('confirmed');
    expect((await engine.blockBytes(first)).length).to.be.greaterThan(0);
    const child = await submitOn([first]);
    while (engine.hasUnconfirmedBlocks) await engine.issueValidationBlocks();
    expect((await engine.blockMetadata(child)).blockState).to.equal('confirmed');
    expect(engine.blocksInMemory).to.be.at.most(LIMITS.maxConfirmed + 8);
  });

  it('refuses basic blocks while maxPending wait for confirmation, and takes them again once confirmed', async () => {
    for (let i = 0; i < LIMITS.maxPending; i++) await submitOn(engine.selectTips());
    const refused = await submitOn(engine.selectTips()).catch((e: Error & { code?: string }) => e);
    expect(refused).to.be.instanceOf(Error);
    expect((refused as Error & { code?: string }).code).to.equal('UNAVAILABLE');
    expect((refused as Error).message).to.contain('wait for confirmation');
    while (engine.hasUnconfirmedBlocks) await engine.issueValidationBlocks();
    await submitOn(engine.selectTips());
  });

  it('a restart loads no more than the bound', async () => {
    await engine.idle();
    const again = (await V3Engine.open(store, { now: () => nowMs, limits: LIMITS }))!;
    expect(again.blocksInMemory).to.be.at.most(LIMITS.maxConfirmed + 1 + 8);
    expect((await again.blockMetadata(first)).blockState).to.equal('confirmed');
  });
});
