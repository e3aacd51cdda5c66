/**
 * The e2e tests with the reference client (iota.js 2.0.0-rc.4): a node (support.ts) on their dev network with an
 * iota.js client of it, a wait for a block's confirmation, and the outputs they spend with `sendAdvanced`: an output
 * with the seed that owns it, the genesis' dev wallet output, the outputs a sent transaction creates, and the
 * addresses and transaction IDs they are named by.
 */
import { Ed25519Address, Ed25519Seed, SingleNodeClient, type IBlock, type IInputAndKeyPair } from '@iota/iota.js';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { transactionIdOf } from '../../../src/core/ids/index.ts';
import { payloadFromJson } from '../../../src/core/json/index.ts';
import type { TransactionPayload } from '../../../src/core/model/index.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { startLedgerNode, waitFor, type LedgerTestNode } from './support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * A node with remote PoW on the dev network of the iota.js tests (`tool genesis`'s logic: min PoW score 10, a
 * milestone every 0.25 s), and an iota.js client of it; `adjust` edits the genesis (JSON) before the node starts.
 */
export async function startIotaJsNode(
  adjust: (genesis: Json) => void = () => undefined,
): Promise<{ n: LedgerTestNode; client: SingleNodeClient; genesis: Json }> {
  const genesis = genesisToJson(devNetworkGenesis({ minPowScore: 10, milestoneInterval: 0.25 }));
  adjust(genesis);
  const n = await startLedgerNode(genesis, { powWorkers: 1 });
  return { n, client: new SingleNodeClient(`http://127.0.0.1:${n.node.restPort}`), genesis };
}

/** The block's metadata (iota.js) once a milestone references it. */
export const referenced = (client: SingleNodeClient, blockId: string): Promise<Json> =>
  waitFor(`confirmation of ${blockId}`, async () => {
    const md = (await client.blockMetadata(blockId)) as Json;
    return md.referencedByMilestoneIndex !== undefined ? md : undefined;
  });

/** A new random seed. */
export const randomSeed = (): Ed25519Seed => new Ed25519Seed(crypto.getRandomValues(new Uint8Array(32)));

/** An output and the seed whose key unlocks it. */
export interface Owned {
  input: IInputAndKeyPair['input'];
  output: IInputAndKeyPair['consumingOutput'];
  seed: Ed25519Seed;
}

/** The Ed25519 address of `seed` as 0x-hex. */
export const addressHex = (seed: Ed25519Seed): string =>
  toHex0x(new Ed25519Address(seed.keyPair().publicKey).toAddress());

/** The ID of the transaction `block` carries, 0x-hex. */
export const txIdOf = (block: IBlock): string =>
  toHex0x(transactionIdOf(payloadFromJson(block.payload) as TransactionPayload));

/** The dev wallet's first genesis output (a genesis in JSON, as `tool genesis` writes it). */
export function genesisWallet(genesis: Json): Owned {
  const g = genesis.outputs[0];
  return {
    input: { type: 0, transactionId: g.outputId.slice(0, 66), transactionOutputIndex: 0 },
    output: g.output,
    seed: new Ed25519Seed(fromHex0x(genesis.devWallet.seed)),
  };
}

/** The outputs a submitted transaction creates, as spendable inputs of whichever of `seeds` owns each. */
export function created(block: IBlock, seeds: Ed25519Seed[]): Owned[] {
  const txId = txIdOf(block);
  const outputs = (block.payload as Json).essence.outputs as Json[];
  return outputs.map((o, i) => ({
    input: { type: 0, transactionId: txId, transactionOutputIndex: i },
    output: o,
    seed: seeds.find((s) => addressHex(s) === o.unlockConditions[0].address.pubKeyHash)!,
  }));
}

/** `o` as `sendAdvanced` takes an input. */
export function spend(o: Owned): IInputAndKeyPair {
  return { input: o.input, addressKeyPair: o.seed.keyPair(), consumingOutput: o.output };
}
