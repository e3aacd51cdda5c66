/**
 * Signed transfers for the fault suite, built and signed by the reference client (iota.js 2.0.0-rc.4
 * `buildTransactionPayload`: inputs commitment, essence, Ed25519 signatures) rather than by the node's own code; the
 * workload submits them itself so that every answer is recorded. A coin is an output with the seed that owns it.
 */
import { buildTransactionPayload, Ed25519Address, Ed25519Seed, type IInputAndKeyPair } from '@iota/iota.js';
import { fromHex0x, toHex0x } from '../../src/core/bytes.ts';
import { networkIdFromName, transactionIdOf } from '../../src/core/ids/index.ts';
import { payloadFromJson } from '../../src/core/json/index.ts';
import type { TransactionPayload } from '../../src/core/model/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** An output (TIP-25 JSON) and the seed whose key unlocks it. */
export interface Coin {
  input: IInputAndKeyPair['input'];
  output: IInputAndKeyPair['consumingOutput'];
  seed: Ed25519Seed;
}

export interface Transfer {
  /** The transaction payload (TIP-25 JSON). */
  payload: Json;
  txId: string;
  /** The created outputs, in order, each with the seed given for it. */
  created: Coin[];
}

export const randomSeed = (): Ed25519Seed => new Ed25519Seed(crypto.getRandomValues(new Uint8Array(32)));

/** The Ed25519 address of `seed`, 0x-hex. */
export const addressOf = (seed: Ed25519Seed): string =>
  toHex0x(new Ed25519Address(seed.keyPair().publicKey).toAddress());

export class Wallet {
  private readonly networkId: string;

  constructor(networkName: string) {
    this.networkId = networkIdFromName(networkName).toString();
  }

  /** The dev wallet's genesis output (a genesis in JSON, as `tool genesis` writes it). */
  static genesisCoin(genesis: Json): Coin {
    const g = genesis.outputs[0];
    return {
      input: { type: 0, transactionId: g.outputId.slice(0, 66), transactionOutputIndex: 0 },
      output: g.output,
      seed: new Ed25519Seed(fromHex0x(genesis.devWallet.seed)),
    };
  }

  /** Spends `coin` into one output per entry (its amount to its seed's address), the rest back to the coin's seed. */
  transfer(coin: Coin, to: { seed: Ed25519Seed; amount: bigint }[]): Transfer {
    const total = BigInt(coin.output.amount);
    const sent = to.reduce((s, t) => s + t.amount, 0n);
    if (sent > total) throw new Error(`a transfer of ${sent} from a coin of ${total}`);
    const owners = sent === total ? to : [...to, { seed: coin.seed, amount: total - sent }];
    const payload = buildTransactionPayload(
      this.networkId,
      [{ input: coin.input, addressKeyPair: coin.seed.keyPair(), consumingOutput: coin.output }],
      owners.map((o) => ({ address: addressOf(o.seed), addressType: 0, amount: o.amount })),
    );
    const txId = toHex0x(transactionIdOf(payloadFromJson(payload) as TransactionPayload));
    const outputs = payload.essence.outputs as Json[];
    const created = owners.map((o, i) => ({
      input: { type: 0 as const, transactionId: txId, transactionOutputIndex: i },
      output: outputs[i],
      seed: o.seed,
    }));
    return { payload, txId, created };
  }
}
