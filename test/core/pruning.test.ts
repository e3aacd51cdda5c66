/**
 * Core pruning on a memory store (Node and Deno): a chain of milestones G+1..G+6 (G the genesis index), with a
 * transfer in each of the first four, pruned to milestone G+3.
 * The solid entry points are the blocks of the pruned cones that kept blocks name as parents; the blocks, records,
 * diffs and spent outputs at or below 3 are gone, the unspent outputs stay; the ledger rolled back to a milestone gives
 * the outputs unspent then; a run stopped after k batches is finished by resumePruning; the key and state codecs.
 */
import { expect } from 'chai';
import { toHex } from '../../src/core/bytes.ts';
import { transactionIdOf, outputId } from '../../src/core/ids/index.ts';
import { confirmMilestone, LEDGER_META, LEDGER_TABLES, LedgerState } from '../../src/core/ledger/index.ts';
import {
  ledgerRollback,
  pruneTo,
  resumePruning,
  unspentOutputIdsAt,
  type PruneRunner,
} from '../../src/core/pruning/index.ts';
import { MemoryKeyValueStore, TABLES, tableKey, type NodeStore } from '../../src/core/store/index.ts';
import {
  basicOutput,
  GENESIS_INDEX as G,
  TestNetwork,
  transfer,
  Wallet,
  type BuiltBlock,
} from '../../harness/fixtures/ledger.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');
const direct: PruneRunner = { exclusive: (fn) => fn() };

interface Chain {
  net: TestNetwork;
  /** Per milestone 1..6: the transfer block and the milestone block. */
  blocks: { tx?: BuiltBlock; ms: BuiltBlock }[];
  /** The output each transfer created (spent by the next one). */
  coins: Uint8Array[];
}

async function chain(): Promise<Chain> {
  const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 5_000_000n }]);
  const blocks: Chain['blocks'] = [];
  const coins: Uint8Array[] = [];
  let coin = net.genesisOutputs[0]!;
  for (let i = 1; i <= 6; i++) {
    const [from, to] = i % 2 === 1 ? [alice, bob] : [bob, alice];
    const tx = i <= 4 ? await net.add(transfer(from, [coin], [basicOutput(5_000_000n, to.address)])) : undefined;
    if (tx) {
      coin = {
        outputId: outputId(transactionIdOf(tx.block.payload as never), 0),
        output: basicOutput(5_000_000n, to.address),
      };
      coins.push(coin.outputId);
    }
    const ms = await net.milestone();
    const c = await confirmMilestone({ store: net.store, milestoneBlockId: ms.id, milestoneBlock: ms.block });
    await c.batch.commit();
    net.accept(ms);
    blocks.push({ ...(tx ? { tx } : {}), ms });
  }
  return { net, blocks, coins };
}

const has = (store: NodeStore, id: Uint8Array): Promise<boolean> => store.hasBlock(id);

describe('core pruning', () => {
  it('prunes to an index: entry points, blocks, records, spent outputs; unspent outputs stay', async () => {
    const { net, blocks, coins } = await chain();
    const store = net.store;
    expect(await pruneTo(store, G + 3, direct)).to.equal(G + 3);
    expect(await store.getMeta(LEDGER_META.pruning)).to.deep.include({ index: G + 3, done: G + 3 });
    // The cone of milestone G+3 (transfer 3) and the milestone blocks G+1, G+2 (referenced by G+2, G+3) are gone;
    // milestone block G+3 is referenced by milestone G+4 and stays, so its parent, transfer 3's block, is the entry
    // point.
    for (const b of [blocks[0]!.tx!, blocks[0]!.ms, blocks[1]!.tx!, blocks[1]!.ms, blocks[2]!.tx!])
      expect(await has(store, b.id), toHex(b.id)).to.equal(false);
    expect(await has(store, blocks[2]!.ms.id)).to.equal(true);
    expect((await store.getMeta(LEDGER_META.solidEntryPoints))!.map(toHex)).to.deep.equal([toHex(blocks[2]!.tx!.id)]);
    for (let m = G; m <= G + 3; m++) expect(await store.milestone(m), `milestone ${m}`).to.equal(undefined);
    expect(await store.milestone(G + 4)).to.not.equal(undefined);
    expect(await store.get(LEDGER_TABLES.milestoneDiffs, G + 3)).to.equal(undefined);
    // coins[0..1] were spent by milestones G+2, G+3: gone; coins[2] was spent by G+4 and coins[3] is unspent: kept.
    for (const id of coins.slice(0, 2)) expect(await store.get(LEDGER_TABLES.outputs, id)).to.equal(undefined);
    expect(await store.get(LEDGER_TABLES.spent, coins[2]!)).to.not.equal(undefined);
    expect(await new LedgerState(store).isUnspent(coins[3]!)).to.equal(true);
    expect(await store.includedBlock(transactionIdOf(blocks[2]!.tx!.block.payload as never))).to.equal(undefined);
    expect(await store.includedBlock(transactionIdOf(blocks[3]!.tx!.block.payload as never))).to.deep.equal(
      blocks[3]!.tx!.id,
    );
  });

  it('rolls the ledger back to a milestone above the pruning index', async () => {
    const { net, coins } = await chain();
    await pruneTo(net.store, G + 2, direct);
    const ledger = new LedgerState(net.store);
    for (const [index, unspent] of [
      [G + 6, coins[3]!],
      [G + 4, coins[3]!],
      [G + 3, coins[2]!],
      [G + 2, coins[1]!],
    ] as const) {
      const ids: string[] = [];
      for await (const id of unspentOutputIdsAt(
        await ledgerRollback(ledger, index),
        net.store.keys(LEDGER_TABLES.unspent),
      ))
        ids.push(toHex(id));
      expect(ids, `at ${index}`).to.deep.equal([toHex(unspent)]);
    }
    const below = await ledgerRollback(ledger, G + 1).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(below).to.match(new RegExp(`the diff of milestone ${G + 2} is not stored`));
  });

  it('a run stopped after k batches is finished by resumePruning', async () => {
    const { net } = await chain();
    let n = 0;
    const stop = new Error('stop');
    const crashing: PruneRunner = {
      exclusive: (fn) => fn(),
      afterBatch: () => {
        if (++n === 3) throw stop;
      },
    };
    expect(await pruneTo(net.store, G + 4, crashing).catch((e: unknown) => e)).to.equal(stop);
    const state = (await net.store.getMeta(LEDGER_META.pruning))!;
    expect(state.index).to.equal(G + 4);
    expect(state.done).to.be.below(G + 4);
    expect(await resumePruning(net.store, direct)).to.equal(true);
    expect(await net.store.getMeta(LEDGER_META.pruning)).to.deep.include({ index: G + 4, done: G + 4 });
    expect(await resumePruning(net.store, direct)).to.equal(false);
  });

  it('encodes unreferenced-block keys so that a range is "stored at or below an index"', () => {
    const key = tableKey(TABLES.unreferencedBlocks, { index: 258, blockId: new Uint8Array(32).fill(7) });
    expect(key.length).to.equal(1 + 4 + 32);
    expect(Array.from(key.subarray(0, 5))).to.deep.equal([0x09, 0, 0, 1, 2]);
    expect(TABLES.unreferencedBlocks.key.decode(key.subarray(1), 'key')).to.deep.equal({
      index: 258,
      blockId: new Uint8Array(32).fill(7),
    });
  });
});
