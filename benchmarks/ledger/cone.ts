/**
 * A milestone cone of N signed 1-input/1-output transfers (50 wallets with real keys, each a chain of transfers),
 * built once in memory, and a fresh store holding the genesis and those blocks (not yet confirmed) to confirm it on.
 * Shared by benchmarks/ledger/run.ts and benchmarks/indexer/run.ts.
 */
import { MemoryKeyValueStore, type KeyValueStore, type NodeStore } from '../../src/core/store/index.ts';
import {
  basicOutput,
  TestNetwork,
  transfer,
  Wallet,
  outputsOf,
  type BuiltBlock,
  type Spendable,
} from '../../harness/fixtures/ledger.ts';

const CHAINS = 50;
const AMOUNT = 1_000_000n;
const wallets = Array.from({ length: CHAINS }, (_, i) => new Wallet(`bench ${i}`));
const owners = wallets.map((wallet) => ({ wallet, amount: AMOUNT }));

export interface ConeScenario {
  blocks: BuiltBlock[];
  milestone: BuiltBlock;
}

export async function confirmationScenario(size: number): Promise<ConeScenario> {
  const net = await TestNetwork.create(new MemoryKeyValueStore(), owners);
  const heads: Spendable[] = [...net.genesisOutputs];
  const lastOfChain: (Uint8Array | undefined)[] = new Array(CHAINS).fill(undefined);
  const blocks: BuiltBlock[] = [];
  for (let i = 0; i < size; i++) {
    const c = i % CHAINS;
    const tx = transfer(wallets[c]!, [heads[c]!], [basicOutput(AMOUNT, wallets[c]!.address)]);
    heads[c] = outputsOf(tx)[0]!;
    const built = await net.add(tx, [net.tip, ...(lastOfChain[c] ? [lastOfChain[c]!] : [])]);
    lastOfChain[c] = built.id;
    blocks.push(built);
  }
  return { blocks, milestone: await net.milestone() };
}

/** The genesis ledger and the cone's blocks (solid, unreferenced) on `kv`. */
export async function freshLedgerStore(kv: KeyValueStore, s: ConeScenario): Promise<NodeStore> {
  const net = await TestNetwork.create(kv, owners);
  const batch = net.store.batch();
  for (const b of s.blocks)
    batch.addBlock({
      blockId: b.id,
      bytes: b.bytes,
      parents: b.block.parents,
      metadata: { protocolVersion: 2, solid: true, arrivalTime: 1 },
    });
  await batch.commit();
  return net.store;
}
