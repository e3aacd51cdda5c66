/**
 * The IOTA 2.0 SDK in the v3 e2e tests (sdk.test.ts, sdk-reads.test.ts): its node target loaded, and one SDK
 * transaction sent as a wallet sends it.
 */
import { createRequire } from 'node:module';
import type { Block, Client, SignedTransactionPayload } from '@iota/sdk-wasm-v2/node';
import { toHex0x } from '../../../src/core/bytes.ts';
import { slotFromTime, type ProtocolParametersV3 } from '../../../src/core/v3/index.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { genesisOutputId, USER, WALLET, type Key } from '../../../harness/fixtures/v3.ts';
import { waitFor as waitWithin } from '../../../harness/wait.ts';

// The package's node target is CommonJS with its wasm next to it; load it as such.
const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const sdk = require('@iota/sdk-wasm-v2/node') as typeof import('@iota/sdk-wasm-v2/node');

/** harness/wait.ts `waitFor`, bounded at 15 s: how long the SDK tests wait for a round or a confirmation. */
export const waitFor = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> =>
  waitWithin(what, probe, 15000);

export const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

export interface SentBySdk {
  block: Block;
  blockId: string;
  txId: string;
  payload: SignedTransactionPayload;
}

/**
 * Spends genesis output `input` of `g` (owned by WALLET) to `to` (700 000 000) and WALLET (the rest): the transaction
 * from the SDK's types, signed by WALLET's secret manager; the block from `buildBasicBlock`, signed by USER's; not
 * posted (`blockId` is the SDK's `Utils.blockId`).
 */
export async function buildBySdk(
  client: Client,
  params: ProtocolParametersV3,
  g: GenesisV3,
  input: number,
  to: Key,
): Promise<SentBySdk> {
  const owner = (k: Key) => [new sdk.AddressUnlockCondition(new sdk.Ed25519Address(toHex0x(k.hash)))];
  const tx = new sdk.Transaction(
    await client.getNetworkId(),
    slotFromTime(nowNs(), params),
    [],
    [sdk.UTXOInput.fromOutputId(toHex0x(genesisOutputId(g, input)))],
    [],
    [
      await client.buildBasicOutput({ amount: '700000000', unlockConditions: owner(to) }),
      await client.buildBasicOutput({ amount: '300000000', unlockConditions: owner(WALLET) }),
    ],
  );
  const wallet = sdk.SecretManager.create({ privateKey: toHex0x(WALLET.seed) });
  const unlock = await wallet.signatureUnlock(sdk.Utils.transactionSigningHash(tx), {});
  const payload = new sdk.SignedTransactionPayload(tx, [unlock]);
  const unsigned = await client.buildBasicBlock(toHex0x(USER.accountId), payload);
  const issuer = sdk.SecretManager.create({ privateKey: toHex0x(USER.seed) });
  const block = await issuer.signBlock(unsigned, {});
  const blockId = sdk.Utils.blockId(block, await client.getProtocolParameters());
  return { block, blockId, txId: sdk.Utils.transactionId(payload), payload };
}

/** `buildBySdk`, then posted as JSON (`postBlock`; its answer is the block ID). */
export async function sendBySdk(
  client: Client,
  params: ProtocolParametersV3,
  g: GenesisV3,
  input: number,
  to: Key,
): Promise<SentBySdk> {
  const built = await buildBySdk(client, params, g, input, to);
  return { ...built, blockId: await client.postBlock(built.block) };
}
