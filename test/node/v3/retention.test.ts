/**
 * The v3 retention (src/node/v3/retention.ts, docs/decisions.md §46): the engine over a memory store with a clock the
 * test moves and 32-slot epochs, its validator's rounds driven by hand and the retention's checks by a test timer.
 * It keeps the blocks of the latest commitment's epoch and the N epochs before it and prunes the older ones whether
 * the v2 pruning runs or not: what pruning removes goes (leftovers), every commitment stays, a read of a pruned block
 * answers 404 naming the retention, a pruned parent is refused naming it; the v2-driven pruning still moves the
 * boundary further, never back.
 */
import { expect } from 'chai';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { outputIdV3 } from '../../../src/core/v3/index.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import { devProtocolParametersV3 } from '../../../src/node/v3/genesis-v3.ts';
import { retentionTargetV3, startV3Retention } from '../../../src/node/v3/retention.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import type { ValidatorTimer } from '../../../src/node/v3/validator.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import {
  basic,
  basicBlock,
  genesisOutputId,
  GENESIS_TIME,
  inputOf,
  key,
  signedTx,
  testGenesisV3,
  txIdOf,
  USER,
  WALLET,
} from '../../../harness/fixtures/v3.ts';
import { collect, leftovers, rejection } from './support.ts';

/** 32-slot epochs (2^5) of one-second slots, so a test spans several epochs in a few hundred rounds. */
const params = { ...devProtocolParametersV3(GENESIS_TIME), slotsPerEpochExponent: 5 };
const MS = 1_000_000n;

describe('v3 retention: the blocks of the last epochs, pruned in the background', function () {
  this.timeout(60_000);
  const g = testGenesisV3({ params });
  let nowMs = (GENESIS_TIME + 30) * 1000;
  let store: NodeStore;
  let engine: V3Engine;
  const logger = new CollectingLogger();
  let check: (() => Promise<void>) | undefined;
  const timer: ValidatorTimer = (fn) => {
    check = fn;
    return () => {
      check = undefined;
    };
  };
  const rounds = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      nowMs += 2000;
      await engine.issueValidationBlocks();
    }
  };
  const latest = (): number => engine.latestCommitment.commitment.slot;

  before(async () => {
    store = await NodeStore.open(new MemoryKeyValueStore());
    await V3Engine.create(store, g);
    engine = (await V3Engine.open(store, { now: () => nowMs }))!;
  });
  after(async () => {
    await engine.idle();
    await store.close();
  });

  it("the boundary: the first slot of the epoch N before the latest commitment's, once an epoch", () => {
    expect(retentionTargetV3(63, 2, params)).to.equal(undefined); // epoch 1: nothing two epochs older
    expect(retentionTargetV3(95, 2, params)).to.equal(undefined); // epoch 2: epoch 0 is the genesis epoch
    expect(retentionTargetV3(96, 2, params)).to.deep.equal({ slot: 32, keptEpochs: 2 });
    expect(retentionTargetV3(127, 2, params)).to.deep.equal({ slot: 32, keptEpochs: 2 });
    expect(retentionTargetV3(128, 2, params)).to.deep.equal({ slot: 64, keptEpochs: 2 });
    expect(retentionTargetV3(128, 2, params, { slot: 64, keptEpochs: 2 })).to.equal(undefined);
    expect(retentionTargetV3(128, 2, params, { slot: 80, milestoneIndex: 9 })).to.equal(undefined);
    expect(retentionTargetV3(128, 2, params, { slot: 40, milestoneIndex: 9 })).to.deep.equal({
      slot: 64,
      keptEpochs: 2,
    });
  });

  it('prunes what is older than its epochs without the v2 pruning; keeps every commitment', async () => {
    // an early transaction (slot ~31) confirmed by two rounds; its output stays, its block goes
    nowMs += 10;
    const tx = signedTx(
      { creationSlot: 30, inputs: [inputOf(genesisOutputId(g, 0))], outputs: [basic(1_000_000_000n, key(70))] },
      WALLET,
      params,
    );
    const raw = await engine.read(() =>
      basicBlock(params, {
        issuer: USER,
        parents: engine.selectTips(),
        issuingTime: BigInt(nowMs) * MS,
        commitmentId: engine.latestCommitmentId,
        payload: tx,
      }),
    );
    const early = await engine.submit({ raw });
    await rounds(2);
    expect((await engine.blockMetadata(early)).blockState).to.equal('confirmed');
    const retention = startV3Retention(engine, { epochs: 2, logger, timer });
    try {
      await check!(); // the check at start found nothing to prune, as this one
      expect(engine.pruned).to.equal(undefined);
      // the latest commitment into epoch 5 (slots 160-191): the blocks before epoch 3's first slot (96) go
      while (latest() < 165) await rounds(1);
      await check!();
      expect(engine.pruned).to.deep.equal({ slot: 96, keptEpochs: 2 });
      expect(await leftovers(store, 96, engine.genesisBlockId)).to.deep.equal([]);
      const kept = (await collect(store.entries(V3_TABLES.blockState))).map(([, r]) => r.slot);
      expect(Math.min(...kept)).to.be.within(96, 98); // one validation block every two slots
      expect(kept.length).to.be.above(30);
      // every commitment stays; the roots go with the blocks
      for (const slot of [1, 31, 95, 96, latest()])
        expect((await engine.commitment(slot))?.commitment.slot).to.equal(slot);
      expect(await collect(store.keys(V3_TABLES.roots, { lt: 96 }))).to.deep.equal([]);
      expect(await collect(store.keys(V3_TABLES.roots, { gte: 96 }))).to.have.length(latest() - 95);
      // reads of what went say why; the unspent output stays
      const miss = await rejection(engine.blockMetadata(early));
      expect(miss.message).to.match(/block not found: .*or pruned: .*before 96, the start of its v3 retention: the 2 /);
      expect(miss.message).to.include('--prune-v3-epochs');
      expect(() => engine.includedBlockId(txIdOf(tx))).to.throw(/transaction not included: .*--prune-v3-epochs/);
      expect(engine.output(outputIdV3(txIdOf(tx), 0))).to.deep.include({ spent: false });
      const refused = await rejection(
        engine.submit({
          raw: basicBlock(params, {
            issuer: USER,
            parents: [early],
            issuingTime: BigInt(nowMs + 1) * MS,
            commitmentId: engine.latestCommitmentId,
          }),
        }),
      );
      expect(refused.message).to.match(/parent .* is not kept: .*\(its v3 retention: the 2 epochs/);
      // a check within the same epoch starts no run; the next epoch's moves the boundary by one epoch
      const runs = (): number => logger.lines.filter((l) => l.startsWith('INFO v3 retention: blocks')).length;
      expect(runs()).to.equal(1);
      await check!();
      expect(runs()).to.equal(1);
      while (latest() < 192) await rounds(1);
      await check!();
      expect(engine.pruned).to.deep.equal({ slot: 128, keptEpochs: 2 });
      expect(await leftovers(store, 128, engine.genesisBlockId)).to.deep.equal([]);
      expect(logger.lines.filter((l) => l.startsWith('ERROR'))).to.deep.equal([]);
    } finally {
      await retention.stop();
    }
    expect(check).to.equal(undefined);
  });

  it('the v2-driven pruning moves the boundary further, never back, and names its milestone', async () => {
    const before = engine.pruned!;
    // milestone 5's timestamp in slot 100: before the retention's boundary, which stays
    await engine.prune({ milestoneIndex: 5, timestamp: GENESIS_TIME + 99 });
    expect(engine.pruned).to.deep.equal(before);
    // milestone 9's in slot 150: beyond it
    await engine.prune({ milestoneIndex: 9, timestamp: GENESIS_TIME + 149 });
    expect(engine.pruned).to.deep.equal({ slot: 150, milestoneIndex: 9 });
    expect(await leftovers(store, 150, engine.genesisBlockId)).to.deep.equal([]);
    const [first] = await collect(store.keys(V3_TABLES.slotBlocks, { limit: 1 }));
    expect(first!.slot).to.be.within(150, 152);
    const miss = await rejection(engine.blockBytes(new Uint8Array(36).fill(7, 0, 32))); // unknown, of slot 0
    expect(miss.message).to.match(/before 150, the slot of milestone 9, its pruning index/);
    // the retention's next boundaries below 150 start nothing
    expect(retentionTargetV3(latest(), 2, params, engine.pruned)).to.equal(undefined);
  });

  it('0 epochs is off: nothing is looked at', async () => {
    let armed = false;
    const handle = startV3Retention(engine, {
      epochs: 0,
      logger,
      timer: () => {
        armed = true;
        return () => undefined;
      },
    });
    expect(armed).to.equal(false);
    await handle.stop();
  });
});
