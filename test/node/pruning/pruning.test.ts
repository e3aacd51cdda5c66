/**
 * Pruning on a composed dev-network node over the memory store, LevelDB and RocksDB: transfers and tagged-data blocks
 * over 33 milestones, then a prune to milestone 12. Old blocks, milestones, spent outputs and included blocks answer
 * 404 naming the pruning index (PRUNED for milestone indexes); unspent outputs and indexer answers are unchanged;
 * nothing referenced at or below 12 is left; new blocks attach and milestones confirm on top of the new solid entry
 * points; the consistency checker passes (replaying from the pruning index); a restart works; automatic pruning by
 * milestones keeps the last 20; a run stopped after k batches (a simulated crash) leaves a store the checker accepts
 * and the next start finishes it.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex } from '../../../src/core/bytes.ts';
import { transactionIdOf } from '../../../src/core/ids/index.ts';
import { LEDGER_META, LEDGER_TABLES } from '../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, TABLES, type KeyValueStore } from '../../../src/core/store/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { checkStore } from '../../../src/node/check/consistency.ts';
import { ConfigError, parseRunArgs } from '../../../src/node/config.ts';
import { parseSize } from '../../../src/node/pruning/size.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { LevelKeyValueStore } from '../../../src/storage/level.ts';
import { RocksKeyValueStore } from '../../../src/storage/rocksdb.ts';
import type { TestNode } from '../../../harness/node.ts';
import { addressOf, type Coin, transfer } from '../support.ts';
import {
  genesisCoins,
  ledgerView,
  milestones,
  openNode,
  OTHER_SEED,
  submit,
  tagged,
  testGenesis,
  walletSeed,
} from './support.ts';

async function failure(p: Promise<unknown>): Promise<NodeError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof NodeError) return e;
    throw e;
  }
  throw new Error('expected a NodeError');
}

interface Engine {
  name: string;
  /** A store on the same data each time (a restart); `close` ends one. */
  open(): Promise<KeyValueStore>;
  close(kv: KeyValueStore): Promise<void>;
  cleanup(): void;
}

function memoryEngine(): Engine {
  const kv = new MemoryKeyValueStore();
  return { name: 'memory', open: async () => kv, close: async () => undefined, cleanup: () => undefined };
}

function diskEngine(name: 'leveldb' | 'rocksdb'): Engine {
  let dir: string | undefined; // made on the first open (a suite left out by --grep leaves nothing behind)
  return {
    name,
    open: () => {
      dir ??= mkdtempSync(join(tmpdir(), `prune-${name}-`));
      return name === 'leveldb' ? LevelKeyValueStore.open(join(dir, 'db')) : RocksKeyValueStore.open(join(dir, 'db'));
    },
    close: (kv) => kv.close(),
    cleanup: () => dir && rmSync(dir, { recursive: true, force: true }),
  };
}

for (const make of [memoryEngine, () => diskEngine('leveldb'), () => diskEngine('rocksdb')]) {
  const engine = make();
  describe(`pruning (${engine.name})`, function () {
    this.timeout(60000);
    const g = testGenesis();
    let kv: KeyValueStore;
    let node: TestNode;
    let early: Uint8Array;
    let spentCoin: Coin;
    let includedTx: Uint8Array;
    let paid: Coin;
    let unchanged: string[];

    before(async () => {
      kv = await engine.open();
      node = await openNode(kv, g);
      early = await submit(node.testing, tagged('early'));
      await node.testing.coordinator!.issue();
      const [coin] = genesisCoins(g);
      spentCoin = coin!;
      const t1 = transfer(g, walletSeed(g), coin!, addressOf(OTHER_SEED), 1_000_000n);
      await submit(node.testing, t1.tx);
      includedTx = transactionIdOf(t1.tx);
      await node.testing.coordinator!.issue();
      const t2 = transfer(g, walletSeed(g), t1.change, addressOf(OTHER_SEED), 500_000n);
      await submit(node.testing, t2.tx);
      await node.testing.coordinator!.issue();
      paid = t1.paid;
      await milestones(node.testing, 30);
      expect((await node.testing.status.info()).confirmedMilestone.index).to.equal(33);
      unchanged = await ledgerView(node.testing, g);
    });
    after(async () => {
      await node.close();
      await engine.close(kv);
      engine.cleanup();
    });

    it('prunes to an index (at most confirmed - belowMaxDepth - 5) and reports it in /info', async () => {
      expect(node.testing.pruner.maxIndex()).to.equal(33 - 20);
      expect(await node.testing.pruner.prune({ index: 12 })).to.equal(12);
      expect((await node.testing.status.info()).pruningIndex).to.equal(12);
      const state = await node.testing.store.getMeta(LEDGER_META.pruning);
      expect(state).to.include({ index: 12, done: 12 });
      expect(await failure(node.testing.pruner.prune({ index: 10 }))).to.include({ code: 'INVALID_REQUEST' });
    });

    it('answers old blocks, milestones, spent outputs, included blocks 404 naming the pruning index', async () => {
      const block = await failure(node.testing.service.getBlock({ blockId: early, view: BlockView.BLOCK_VIEW_RAW }));
      expect(block.code).to.equal('NOT_FOUND');
      expect(block.message).to.match(/pruned.*milestone 12, its pruning index/);
      expect((await failure(node.testing.service.getBlockMetadata({ blockId: early }))).message).to.match(/pruned/);
      const ms = await failure(
        node.testing.service.getMilestone({ milestone: { $case: 'index', value: 5 }, view: BlockView.BLOCK_VIEW_JSON }),
      );
      expect(ms).to.include({ code: 'PRUNED' });
      expect(ms.message).to.equal(
        'milestone 5 was pruned: this node keeps nothing at or below milestone 12, its pruning index',
      );
      expect(
        await failure(
          node.testing.service.getMilestone({
            milestone: { $case: 'index', value: 12 },
            view: BlockView.BLOCK_VIEW_JSON,
          }),
        ),
      ).to.include({ code: 'PRUNED' });
      expect(
        await failure(
          node.testing.service.getMilestoneUtxoChanges({
            milestone: { $case: 'index', value: 2 },
            view: BlockView.BLOCK_VIEW_JSON,
          }),
        ),
      ).to.include({ code: 'PRUNED' });
      expect(
        (
          await node.testing.service.getMilestone({
            milestone: { $case: 'index', value: 13 },
            view: BlockView.BLOCK_VIEW_JSON,
          })
        ).index,
      ).to.equal(13);
      expect(
        (
          await failure(
            node.testing.service.getOutput({ outputId: spentCoin.outputId, view: BlockView.BLOCK_VIEW_UNSPECIFIED }),
          )
        ).message,
      ).to.match(/output not found.*pruned/);
      expect(
        (
          await failure(
            node.testing.service.getIncludedBlock({ transactionId: includedTx, view: BlockView.BLOCK_VIEW_RAW }),
          )
        ).message,
      ).to.match(/not confirmed by a milestone yet, or pruned/);
    });

    it('keeps every unspent output and the indexer answers, and nothing referenced at or below the index', async () => {
      expect(await ledgerView(node.testing, g)).to.deep.equal(unchanged);
      for await (const [id, md] of node.testing.store.entries(TABLES.blockMetadata))
        if (md.referenced) expect(md.referenced.milestoneIndex, toHex(id)).to.be.above(12);
      for await (const key of node.testing.store.keys(TABLES.unreferencedBlocks)) expect(key.index).to.be.above(12);
      for await (const [, spent] of node.testing.store.entries(LEDGER_TABLES.spent))
        expect(spent.milestoneIndexSpent).to.be.above(12);
      expect(await node.testing.store.milestone(12)).to.equal(undefined);
      expect((await node.testing.store.getMeta(LEDGER_META.solidEntryPoints))!.length).to.be.above(0);
      const report = await checkStore(node.testing.store);
      expect(report.differences).to.deep.equal([]);
      expect(report.summary).to.include({
        ledgerReplay: 'done from the pruning index',
        milestonesReplayed: 21,
        pruningIndex: 12,
        pendingPruning: 0,
      });
    });

    it('attaches new blocks, confirms milestones and transfers on top of the new solid entry points', async () => {
      const t3 = transfer(g, OTHER_SEED, paid, addressOf(walletSeed(g)), 100_000n);
      const blockId = await submit(node.testing, t3.tx);
      await milestones(node.testing, 3);
      const md = await node.testing.service.getBlockMetadata({ blockId });
      expect(md.referencedByMilestoneIndex).to.be.above(33);
      expect(
        (
          await node.testing.service.getIncludedBlock({
            transactionId: transactionIdOf(t3.tx),
            view: BlockView.BLOCK_VIEW_RAW,
          })
        ).blockId,
      ).to.deep.equal(blockId);
      expect((await checkStore(node.testing.store)).differences).to.deep.equal([]);
    });

    it('restarts on the pruned store, then prunes automatically by milestones', async () => {
      await node.close();
      await engine.close(kv);
      kv = await engine.open();
      node = await openNode(kv, g, { pruning: { keepMilestones: 20 } });
      const info = await node.testing.status.info();
      expect(info).to.include({ pruningIndex: 12 });
      expect(info.confirmedMilestone.index).to.equal(36);
      await milestones(node.testing, 4, 2);
      await node.testing.pruner.idle();
      expect((await node.testing.status.info()).pruningIndex).to.equal(40 - 20);
      const report = await checkStore(node.testing.store);
      expect(report.differences).to.deep.equal([]);
      expect(report.summary.pruningIndex).to.equal(20);
    });
  });
}

for (const make of [memoryEngine, () => diskEngine('rocksdb')]) {
  const engine = make();
  describe(`pruning interrupted after k batches (${engine.name})`, function () {
    this.timeout(60000);
    after(() => engine.cleanup());

    it('leaves a store the checker accepts, and the next start finishes the run', async () => {
      const g = testGenesis();
      let kv = await engine.open();
      let batches = 0;
      const crash = new Error('simulated crash');
      let node = await openNode(kv, g, {
        pruning: {
          afterBatch: () => {
            if (++batches === 4) throw crash;
          },
        },
      });
      await milestones(node.testing, 30, 4);
      expect(await failure(node.testing.pruner.prune({ index: 9 })).catch((e: unknown) => e)).to.equal(crash);
      const state = await node.testing.store.getMeta(LEDGER_META.pruning);
      expect(state!.index).to.equal(9);
      expect(state!.done).to.be.below(9);
      const interrupted = await checkStore(node.testing.store);
      expect(interrupted.differences).to.deep.equal([]);
      expect(interrupted.summary.pendingPruning).to.be.above(0);
      await node.close();
      await engine.close(kv);

      kv = await engine.open();
      node = await openNode(kv, g);
      await node.testing.pruner.idle();
      expect(await node.testing.store.getMeta(LEDGER_META.pruning)).to.include({ index: 9, done: 9 });
      const report = await checkStore(node.testing.store);
      expect(report.differences).to.deep.equal([]);
      expect(report.summary.pendingPruning).to.equal(0);
      await milestones(node.testing, 1);
      expect((await node.testing.status.info()).confirmedMilestone.index).to.equal(31);
      await node.close();
      await engine.close(kv);
    });
  });
}

describe('pruning settings', () => {
  it('reads --prune-milestones and --prune-size (flags and config file keys) and refuses a bad size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'prune-config-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ pruneMilestones: 60480, pruneSize: '30GB' }));
      expect(parseRunArgs(['--config', file])).to.include({ pruneMilestones: 60480, pruneSize: '30GB' });
      expect(parseRunArgs(['--prune-milestones', '20', '--prune-size=500MiB'])).to.include({
        pruneMilestones: 20,
        pruneSize: '500MiB',
      });
      expect(() => parseRunArgs(['--prune-size', '30 parsecs'])).to.throw(
        ConfigError,
        /--prune-size: expected a size like 30GB/,
      );
      expect(() => parseRunArgs(['--prune-milestones', '0'])).to.throw(ConfigError);
      expect(parseRunArgs([])).to.not.have.property('pruneMilestones');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('parses sizes as Hornet does: decimal KB..TB, binary KiB..TiB, bare bytes', () => {
    expect(parseSize('30GB')).to.equal(30e9);
    expect(parseSize('1.5 TB')).to.equal(1.5e12);
    expect(parseSize('500MiB')).to.equal(500 * 2 ** 20);
    expect(parseSize('1048576')).to.equal(1048576);
    expect(parseSize('30gb')).to.equal(30e9);
    for (const bad of ['', 'GB', '-1GB', '30XB', '0']) expect(parseSize(bad), bad).to.equal(undefined);
  });
});
