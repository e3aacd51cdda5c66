/**
 * The faucet tests' node and helpers: a dev-network node (harness/node.ts `startTestNode`) whose coordinator issues
 * on demand, with or without the faucet; a faucet built by hand on a node's parts with the test's own hooks; fresh
 * addresses, refusals, and what an address owns read through the node's RPCs.
 */
import { expect } from 'chai';
import { decodeBlock } from '../../../src/core/codec/index.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import type { TransactionPayload } from '../../../src/core/model/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { Faucet, type FaucetSettings } from '../../../src/node/faucet/faucet.ts';
import { FaucetLedger } from '../../../src/node/faucet/funds.ts';
import type { FaucetDeps } from '../../../src/node/faucet/settings.ts';
import type { Genesis } from '../../../src/node/genesis/genesis.ts';
import { coordinatorOf, devWalletOf } from '../../../src/node/genesis/genesis-ledger.ts';
import type { NodeServiceImpl } from '../../../src/node/grpc/service.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { TangleReader } from '../../../src/node/tangle/reads.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { startTestNode, type TestNode } from '../../../harness/node.ts';

let counter = 0;
/** A fresh Ed25519 address of the dev network. */
export function freshAddress(): string {
  const hash = new Uint8Array(32);
  hash[0] = 0xfa;
  hash[1] = ++counter >> 8;
  hash[2] = counter & 0xff;
  return bech32EncodeAddress('rms', { type: 0, pubKeyHash: hash });
}

/**
 * A node on `genesis` with its coordinator (issuing only when asked) and, unless `settings` is null, the faucet of the
 * genesis' dev wallet; its milestone processor and faucet run.
 */
export async function faucetNode(genesis: Genesis, settings: Partial<FaucetSettings> | null): Promise<TestNode> {
  const faucet = settings ? { faucet: { seed: devWalletOf(genesis)!.seed, settings } } : {};
  const node = await startTestNode({
    genesis,
    tipPools: URTS_DEFAULTS,
    compose: { coordinator: coordinatorOf(genesis)!, ...faucet },
    start: 'milestones',
  });
  await node.testing.faucet?.start();
  return node;
}

/** The hooks of a faucet built by hand: its own view of sync and its log, and what it does around a submission. */
export interface FaucetHooks
  extends Pick<FaucetDeps, 'synced' | 'logger'>,
    Partial<Pick<FaucetDeps, 'onConfirmed' | 'refusal'>> {
  /** Instead of the node's client submissions. */
  submit?: FaucetDeps['submit'];
  /** Runs before each block is submitted through the node's client submissions. */
  beforeSubmit?: () => Promise<void>;
}

/**
 * A faucet of the genesis' dev wallet built by hand on `node`, as the composition wires one (compose/features.ts)
 * but with the test's hooks (confirmations default to the node's milestone processor's). It reaches the node's client
 * submissions and tip selector (`parts`), which the node's own faucet is given too.
 */
export function faucetOn(
  node: TestNode,
  genesis: Genesis,
  hooks: FaucetHooks,
  settings: Partial<FaucetSettings>,
): Faucet {
  const { store, protocol, writeLock, milestones } = node.testing;
  const { beforeSubmit, ...deps } = hooks;
  return new Faucet(
    {
      seed: devWalletOf(genesis)!.seed,
      protocol: () => protocol.current,
      tokenName: 'Shimmer',
      ledger: new FaucetLedger(store, writeLock, () => 'rms'),
      submit: async (block, signal) => {
        await beforeSubmit?.();
        return node.parts.submissions.submit({ block }, signal);
      },
      metadata: (id) => new TangleReader(store, node.parts.tips).metadata(id),
      onConfirmed: (l) => milestones.onConfirmed((e) => l(e.confirmation)),
      ...deps,
    },
    settings,
  );
}

/** The NodeError a call is refused with. */
export async function refusal(p: Promise<unknown>): Promise<NodeError> {
  const e: unknown = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).to.be.instanceOf(NodeError);
  return e as NodeError;
}

/** The amounts of the basic outputs an address owns, read through the node's indexer and output RPCs. */
export async function amountsOf(service: NodeServiceImpl, bech32: string): Promise<bigint[]> {
  const page = JSON.parse(
    (await service.queryOutputs({ route: 'basic', parameters: [{ name: 'address', value: bech32 }] })).json,
  ) as { items: string[] };
  const out: bigint[] = [];
  for (const id of page.items) {
    const res = await service.getOutput({
      outputId: Buffer.from(id.slice(2), 'hex'),
      view: BlockView.BLOCK_VIEW_JSON,
    });
    out.push(BigInt((JSON.parse(res.json) as { output: { amount: string } }).output.amount));
  }
  return out;
}

/** The transaction of a stored block. */
export async function transactionOf(service: NodeServiceImpl, blockId: Uint8Array): Promise<TransactionPayload> {
  const block = decodeBlock((await service.getBlock({ blockId, view: BlockView.BLOCK_VIEW_RAW })).raw);
  expect(block.payload?.type).to.equal(6);
  return block.payload as TransactionPayload;
}
