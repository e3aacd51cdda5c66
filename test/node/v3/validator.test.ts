/**
 * The built-in v3 validator (src/node/v3/validator.ts, issue 24) on a test clock: a test timer runs the rounds one by
 * one and moves the engine's clock by one interval before each, so ten minutes of an idle network take a second.
 * - Idle: with no user block at all, a round every interval; the newest tip is never older than one interval, so
 *   iota-sdk 2.0's block builder (it refuses tips issued 5 minutes or more from its clock: `timeNotSynced`) keeps
 *   working. Without rounds (what the validator did before on an idle network) the one tip is the genesis block.
 * - Bounded cost: one block per seat per round, about 615 bytes each in the store; memory stays within the
 *   engine's limits, and v3 pruning removes the idle rounds' blocks like any confirmed block. An idle round waits for
 *   one disk sync (its commitment), not two; its blocks' signatures are sound though not checked again at intake.
 * - User blocks: still confirmed by two rounds; rounds never pile up; stop() ends them.
 */
import { expect } from 'chai';
import { MemoryKeyValueStore, NodeStore, type BatchOp, type WriteOptions } from '../../../src/core/store/index.ts';
import { decodeBlockV3, encodeBlockV3, verifyBlockSignatureV3 } from '../../../src/core/v3/index.ts';
import { DEFAULT_VALIDATION_INTERVAL_MS } from '../../../src/node/settings.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import { startValidator, type ValidatorHandle, type ValidatorTimer } from '../../../src/node/v3/validator.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import { basicBlock, GENESIS_TIME, testGenesisV3, USER } from '../../../harness/fixtures/v3.ts';

/** iota-sdk 2.0 `build_basic_block`: the issuing time must lie within 5 minutes of the latest parent's. */
const SDK_TOLERANCE_MS = 300_000;
const MS = 1_000_000n;

/** A memory store counting the batches written with `sync` (acknowledged once on disk). */
class SyncCounting extends MemoryKeyValueStore {
  synced = 0;
  override write(ops: readonly BatchOp[], options?: WriteOptions): Promise<void> {
    if (options?.sync !== false) this.synced++;
    return super.write(ops, options);
  }
}

/** A V3Engine over a memory store whose clock only moves when the test moves it, and a validator on a test timer. */
class Idle {
  readonly kv = new SyncCounting();
  store!: NodeStore;
  engine!: V3Engine;
  nowMs = (GENESIS_TIME + 10) * 1000;
  round: (() => Promise<void>) | undefined;
  intervalMs = 0;
  cancelled = false;
  validator!: ValidatorHandle;
  readonly logger = new CollectingLogger();

  async open(seats: number, intervalMs: number, maxConfirmed?: number): Promise<this> {
    this.store = await NodeStore.open(this.kv);
    await V3Engine.create(this.store, testGenesisV3({ seats }));
    this.engine = (await V3Engine.open(this.store, {
      now: () => this.nowMs,
      ...(maxConfirmed ? { limits: { maxConfirmed } } : {}),
    }))!;
    const timer: ValidatorTimer = (round, ms) => {
      this.round = round;
      this.intervalMs = ms;
      return () => {
        this.cancelled = true;
      };
    };
    this.validator = startValidator(this.engine, { intervalMs, logger: this.logger, timer });
    return this;
  }

  /** `n` intervals pass, each ending with the round the timer calls then (none when the validator is off). */
  async pass(n: number, intervalMs = this.intervalMs || DEFAULT_VALIDATION_INTERVAL_MS): Promise<void> {
    for (let i = 0; i < n; i++) {
      this.nowMs += intervalMs;
      await this.round?.();
    }
  }

  /** How long ago (ms, on the engine's clock) the newest parent `/blocks/issuance` offers was issued. */
  tipAgeMs(): number {
    const iss = this.engine.issuance() as { latestParentBlockIssuingTime: string };
    return Number(BigInt(this.nowMs) * MS - BigInt(iss.latestParentBlockIssuingTime)) / 1e6;
  }

  /** Block states in the store: one per attached block. */
  async blocks(): Promise<number> {
    let n = 0;
    for await (const _ of this.store.keys(V3_TABLES.blockState)) n++;
    return n;
  }

  /** Bytes of every key and value in the store. */
  async bytes(): Promise<number> {
    let n = 0;
    for await (const [k, v] of this.kv.entries()) n += k.length + v.length;
    return n;
  }

  async close(): Promise<void> {
    await this.validator.stop();
    await this.engine.idle();
    await this.store.close();
  }
}

describe('v3 built-in validator: a steady cadence, also on an idle network', function () {
  this.timeout(60_000);

  it('over 11 idle minutes at the default interval the newest tip stays at most one interval old', async () => {
    const n = await new Idle().open(1, DEFAULT_VALIDATION_INTERVAL_MS);
    try {
      expect(n.intervalMs).to.equal(DEFAULT_VALIDATION_INTERVAL_MS);
      const rounds = (11 * 60 * 1000) / DEFAULT_VALIDATION_INTERVAL_MS;
      let oldest = 0;
      for (let i = 0; i < rounds; i++) {
        await n.pass(1);
        // the tips are oldest just before the next round, 1 ms before the interval ends
        oldest = Math.max(oldest, n.tipAgeMs() + DEFAULT_VALIDATION_INTERVAL_MS - 1);
      }
      expect(n.nowMs - (GENESIS_TIME + 10) * 1000).to.equal(11 * 60 * 1000);
      expect(await n.blocks()).to.equal(rounds);
      expect(oldest).to.equal(DEFAULT_VALIDATION_INTERVAL_MS - 1);
      expect(oldest).to.be.below(SDK_TOLERANCE_MS);
      expect(n.engine.hasUnconfirmedBlocks).to.equal(false);
      expect(n.logger.lines.filter((l) => l.startsWith('ERROR'))).to.deep.equal([]);
    } finally {
      await n.close();
    }
  });

  it('without rounds the one tip is the genesis block: after 11 idle minutes too old for the SDK', async () => {
    const n = await new Idle().open(1, 0);
    try {
      expect(n.round).to.equal(undefined);
      await n.pass(330, DEFAULT_VALIDATION_INTERVAL_MS);
      expect(n.engine.selectTips()).to.deep.equal([n.engine.genesisBlockId]);
      expect(n.tipAgeMs()).to.be.at.least(SDK_TOLERANCE_MS);
    } finally {
      await n.close();
    }
  });

  it('costs a block per seat per round (615 bytes) and each slot its commitment; memory stays bounded', async () => {
    const n = await new Idle().open(3, DEFAULT_VALIDATION_INTERVAL_MS, 50);
    try {
      await n.pass(10);
      const before = await n.bytes();
      await n.pass(200);
      const perRound = ((await n.bytes()) - before) / 200;
      expect(await n.blocks()).to.equal(210 * 3);
      // the figures in docs/architecture.md: about 615 bytes a block (259 of them the block itself) and about 390 a
      // slot for its commitment, roots and empty UTXO changes; a 2 s round spans two 1-second slots
      expect(perRound).to.be.within(3 * 580 + 2 * 360, 3 * 650 + 2 * 410);
      // the latest 50 confirmed, the 2 rounds not confirmed yet and the tips
      expect(n.engine.blocksInMemory).to.be.at.most(50 + 2 * 3 + 3);
    } finally {
      await n.close();
    }
  });

  it('v3 pruning removes the blocks of idle rounds as it removes other confirmed blocks', async () => {
    const n = await new Idle().open(1, DEFAULT_VALIDATION_INTERVAL_MS);
    try {
      await n.pass(300);
      const full = await n.bytes();
      // prune everything issued more than a minute ago
      const progress = await n.engine.prune({ milestoneIndex: 9, timestamp: Math.floor(n.nowMs / 1000) - 60 });
      const kept = await n.blocks();
      expect(progress.blocks + kept).to.equal(300);
      // those issued in the last 60 s, one every 2 s, both ends included
      expect(kept).to.equal(31);
      // what stays: the last minute's blocks and roots, and every slot's commitment (kept for ever: 94 bytes a slot)
      expect(await n.bytes()).to.be.below(full / 5 + 600 * 100);
      // the rounds go on over the pruned past
      await n.pass(5);
      expect(n.tipAgeMs()).to.equal(0);
      expect(n.logger.lines.filter((l) => l.startsWith('ERROR'))).to.deep.equal([]);
    } finally {
      await n.close();
    }
  });

  it('an idle round waits for one disk sync, its commitment; a round confirming a user block for two', async () => {
    const n = await new Idle().open(1, DEFAULT_VALIDATION_INTERVAL_MS);
    try {
      await n.pass(20);
      let synced = n.kv.synced;
      await n.pass(100);
      // each round commits its two slots (one synced batch); its block confirms the round before's, not synced
      expect(n.kv.synced - synced).to.equal(100);
      n.nowMs += 10;
      const raw = basicBlock(n.engine.params, {
        issuer: USER,
        parents: n.engine.selectTips(),
        issuingTime: BigInt(n.nowMs) * MS,
        commitmentId: n.engine.latestCommitmentId,
      });
      const id = await n.engine.submit({ raw });
      synced = n.kv.synced;
      await n.pass(2);
      expect((await n.engine.blockMetadata(id)).blockState).to.equal('confirmed');
      // the user block's confirmation is synced too
      expect(n.kv.synced - synced).to.equal(3);
    } finally {
      await n.close();
    }
  });

  it('a user block is accepted by the next round and confirmed by the one after', async () => {
    const n = await new Idle().open(3, 500);
    try {
      await n.pass(4);
      n.nowMs += 10;
      const raw = basicBlock(n.engine.params, {
        issuer: USER,
        parents: n.engine.selectTips(),
        issuingTime: BigInt(n.nowMs) * MS,
        commitmentId: n.engine.genesisCommitmentId,
      });
      const id = await n.engine.submit({ raw });
      const state = async () => (await n.engine.blockMetadata(id)).blockState;
      expect(await state()).to.equal('pending');
      expect(n.engine.hasUnconfirmedBlocks).to.equal(true);
      await n.pass(1);
      expect(await state()).to.equal('accepted');
      await n.pass(1);
      expect(await state()).to.equal('confirmed');
      expect(n.engine.hasUnconfirmedBlocks).to.equal(false);
    } finally {
      await n.close();
    }
  });

  it("its blocks' signatures are sound though not checked again at intake; a forged one is refused", async () => {
    const n = await new Idle().open(2, 1000);
    try {
      await n.pass(3);
      const seats = n.engine.seats.map((s) => s.blockIssuerKeys[0]!);
      let raw: Uint8Array | undefined;
      for await (const [id] of n.store.entries(V3_TABLES.blockState)) {
        raw = (await n.store.getBlock(id))!;
        expect(verifyBlockSignatureV3(raw, seats)).to.equal(true);
      }
      // a validation block whose signature is not its seat's is refused (only the blocks built here skip the check)
      const forged = decodeBlockV3(raw!, n.engine.params);
      forged.header.issuingTime = BigInt(n.nowMs) * MS + 1n;
      forged.body = { ...forged.body, strongParents: n.engine.selectTips() } as typeof forged.body;
      const refused = await n.engine.submit({ raw: encodeBlockV3(forged) }).catch((e: Error) => e);
      expect(refused).to.be.instanceOf(Error);
      expect((refused as Error).message).to.match(/signature/);
    } finally {
      await n.close();
    }
  });

  it('a round due while one runs is skipped, and stop() ends the rounds', async () => {
    const n = await new Idle().open(2, 1000);
    try {
      n.nowMs += 1000;
      const a = n.round!();
      const b = n.round!();
      expect(b).to.equal(a);
      await Promise.all([a, b]);
      expect(await n.blocks()).to.equal(2);
      await n.validator.stop();
      expect(n.cancelled).to.equal(true);
      await n.pass(3);
      expect(await n.blocks()).to.equal(2);
    } finally {
      await n.close();
    }
  });
});
