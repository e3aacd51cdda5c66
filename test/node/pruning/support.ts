/**
 * A dev-network node over any key-value store (harness/node.ts `startTestNode`), driven by hand (its coordinator
 * issues a milestone when asked), for the pruning and snapshot tests: a genesis funding the dev wallet and a second
 * wallet, tagged-data blocks and transactions each submitted on tips the node selects.
 */
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import type { BasicOutput, Block, BlockPayload } from '../../../src/core/model/index.ts';
import { LEDGER_TABLES } from '../../../src/core/ledger/index.ts';
import { WriteThroughCache, type KeyValueStore } from '../../../src/core/store/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import type { TestSurface } from '../../../src/node/compose.ts';
import { genesisFromJson, genesisToJson, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf, devWalletOf, ledgerGenesisOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { startTestNode, type TestNode, type TestNodeOptions } from '../../../harness/node.ts';
import { addressOf, type Coin } from '../support.ts';

export const OTHER_SEED = new Uint8Array(32).fill(0x42);

export function testGenesis(): Genesis {
  const g = devNetworkGenesis({
    minPowScore: 0,
    timestamp: Math.floor(Date.now() / 1000) - 3600,
    funds: [toHex0x(OTHER_SEED)],
  });
  return genesisFromJson(JSON.parse(JSON.stringify(genesisToJson(g))));
}

/** The genesis outputs: [dev wallet's, OTHER_SEED's]. */
export function genesisCoins(g: Genesis): Coin[] {
  return ledgerGenesisOf(g).unspentOutputs.map((o) => ({ outputId: o.outputId, output: o.output as BasicOutput }));
}

export function walletSeed(g: Genesis): Uint8Array {
  return devWalletOf(g)!.seed;
}

/**
 * Starts a node on `kv` (first time: records the genesis) behind a write-through cache, as `ledger-node run` does;
 * its coordinator only issues when asked. The node leaves `kv` open on close.
 */
export function openNode(
  kv: KeyValueStore,
  genesis: Genesis,
  extra: TestNodeOptions['compose'] = {},
): Promise<TestNode> {
  return startTestNode({
    kv: new WriteThroughCache(kv, { prefixes: [1, 2], maxBytes: 4 << 20 }),
    genesis,
    tipPools: URTS_DEFAULTS,
    compose: { coordinator: { ...coordinatorOf(genesis)!, milestoneInterval: 3600 }, ...extra },
    start: 'all',
  });
}

/** A block on tips the node selects, with `payload`. */
export async function submit(node: Pick<TestSurface, 'service'>, payload?: BlockPayload): Promise<Uint8Array> {
  const { tips: parents } = await node.service.getTips({ allowSemiLazy: false });
  const block: Block = { protocolVersion: 2, parents, ...(payload ? { payload } : {}), nonce: 1n };
  return (await node.service.submitBlock({ block: { $case: 'raw', value: encodeBlock(block) } })).blockId;
}

export function tagged(text: string): BlockPayload {
  return { type: 5, tag: new TextEncoder().encode('prune-test'), data: new TextEncoder().encode(text) };
}

/** `n` milestones, each after `blocks` tagged-data blocks. */
export async function milestones(
  node: Pick<TestSurface, 'service' | 'coordinator'>,
  n: number,
  blocks = 3,
): Promise<void> {
  for (let i = 0; i < n; i++) {
    for (let b = 0; b < blocks; b++) await submit(node, tagged(`m${i} b${b}`));
    await node.coordinator!.issue();
  }
}

/**
 * Every unspent output's metadata JSON and the indexer's basic outputs of both wallets: what pruning must not change.
 */
export async function ledgerView(node: Pick<TestSurface, 'store' | 'service'>, g: Genesis): Promise<string[]> {
  const out: string[] = [];
  for await (const id of node.store.keys(LEDGER_TABLES.unspent))
    out.push((await node.service.getOutputMetadata({ outputId: id, view: BlockView.BLOCK_VIEW_UNSPECIFIED })).json);
  for (const seed of [walletSeed(g), OTHER_SEED]) {
    const bech32 = bech32EncodeAddress(g.protocol.bech32Hrp, addressOf(seed));
    out.push(
      (await node.service.queryOutputs({ route: 'basic', parameters: [{ name: 'address', value: bech32 }] })).json,
    );
  }
  return out;
}
