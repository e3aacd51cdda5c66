/**
 * Calls on a node service under test (harness/node.ts starts it): unary calls of the generated client as promises,
 * failures parsed (status + ErrorInfo); waiting until a condition holds; a temporary folder per test or suite; and
 * signed transfers between Ed25519 addresses of seeds.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { handleUnaryCall, ServiceError } from '@grpc/grpc-js';
import type { NodeServiceClient, NodeServiceServer } from '../../src/grpc/gen/node.ts';
import { parseNodeError, type RestParsedError as ParsedError } from '../../gateway/errors.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed, ed25519Sign } from '../../src/core/crypto/index.ts';
import {
  essenceHash,
  inputsCommitmentOf,
  networkIdFromName,
  outputId,
  transactionIdOf,
} from '../../src/core/ids/index.ts';
import type { BasicOutput, Ed25519Address, TransactionPayload } from '../../src/core/model/index.ts';
import type { Genesis } from '../../src/node/genesis/genesis.ts';

type Method =
  | 'getBlock'
  | 'getBlockMetadata'
  | 'submitBlock'
  | 'getIncludedBlock'
  | 'getIncludedBlockMetadata'
  | 'getIncludedBlockV3'
  | 'getInfo'
  | 'getTips';
type ReqOf<K extends Method> = NodeServiceServer[K] extends handleUnaryCall<infer Q, unknown> ? Q : never;
type ResOf<K extends Method> = NodeServiceServer[K] extends handleUnaryCall<never, infer R> ? R : never;

/** Calls a unary method of the generated client as a promise. */
export function call<K extends Method>(client: NodeServiceClient, method: K, req: ReqOf<K>): Promise<ResOf<K>> {
  const fn = client[method] as unknown as (
    req: ReqOf<K>,
    cb: (err: ServiceError | null, res: ResOf<K>) => void,
  ) => unknown;
  return new Promise((resolve, reject) => {
    fn.call(client, req, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** The parsed failure of a call that must fail. */
export async function failure(p: Promise<unknown>): Promise<ParsedError> {
  try {
    await p;
  } catch (e) {
    return parseNodeError(e as ServiceError);
  }
  return expect.fail('the call should have failed');
}

/** Waits until `probe` holds, polling every 5 ms; fails naming `what` after `ms`. */
export async function until(what: string, probe: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A temporary folder `<tmp>/<prefix>XXXXXX` for a suite: a fresh one before each of its tests, removed after it; or,
 * `per: 'suite'`, one for all its tests. Its path is `.path` once the hook ran.
 */
export function tempDir(prefix: string, per: 'test' | 'suite' = 'test'): { readonly path: string } {
  const dir = { path: '' };
  const [make, remove] = per === 'test' ? [beforeEach, afterEach] : [before, after];
  make(() => {
    dir.path = mkdtempSync(join(tmpdir(), prefix));
  });
  remove(() => rmSync(dir.path, { recursive: true, force: true }));
  return dir;
}

/** An output and its ID. */
export interface Coin {
  outputId: Uint8Array;
  output: BasicOutput;
}

/** The Ed25519 address of `seed`'s key. */
export function addressOf(seed: Uint8Array): Ed25519Address {
  return ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(seed));
}

/** A basic output of `amount` to `address`, nothing else. */
export const basicOutput = (amount: bigint, address: Ed25519Address): BasicOutput => ({
  type: 3,
  amount,
  nativeTokens: [],
  unlockConditions: [{ type: 0, address }],
  features: [],
});

/** Spends `coin` (owned by `seed`) into `outputs`, signed by `seed`. */
export function spend(g: Genesis, seed: Uint8Array, coin: Coin, outputs: BasicOutput[]): TransactionPayload {
  const essence = {
    type: 1 as const,
    networkId: networkIdFromName(g.protocol.networkName),
    inputs: [
      {
        type: 0 as const,
        transactionId: coin.outputId.slice(0, 32),
        transactionOutputIndex: new DataView(coin.outputId.buffer, coin.outputId.byteOffset + 32, 2).getUint16(0, true),
      },
    ],
    inputsCommitment: inputsCommitmentOf([coin.output]),
    outputs,
  };
  const signature = ed25519Sign(seed, essenceHash(essence));
  return {
    type: 6,
    essence,
    unlocks: [{ type: 0, signature: { type: 0, publicKey: ed25519PublicKeyFromSeed(seed), signature } }],
  };
}

/** Spends `coin` (owned by `seed`): `amount` to `to`, the rest back; returns the payload and the two new coins. */
export function transfer(
  g: Genesis,
  seed: Uint8Array,
  coin: Coin,
  to: Ed25519Address,
  amount: bigint,
): { tx: TransactionPayload; paid: Coin; change: Coin } {
  const outputs = [basicOutput(amount, to), basicOutput(coin.output.amount - amount, addressOf(seed))];
  const tx = spend(g, seed, coin, outputs);
  const id = transactionIdOf(tx);
  return {
    tx,
    paid: { outputId: outputId(id, 0), output: outputs[0]! },
    change: { outputId: outputId(id, 1), output: outputs[1]! },
  };
}
