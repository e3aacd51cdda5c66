/**
 * End to end with the IOTA 2.0 SDK as the client: `@iota/sdk-wasm` 2.0.0-beta.1 (iota-sdk branch 2.0 compiled to
 * WebAssembly, node target; installed as `@iota/sdk-wasm-v2` beside the Stardust SDK 1.1.3) against `ledger-node run`
 * as a process, with a validator round every 200 ms. The network's genesis block was issued 11 minutes before the
 * start and nothing since: a network idle for longer than the SDK's tolerance (its block builder refuses tips issued
 * 5 minutes or more from its clock, `timeNotSynced`, issue 24).
 * - `getInfo`, `getIssuance`: the network, and tips from the validator's rounds, not the 11-minute-old genesis block.
 * - A transaction built from the SDK's types and signed by its `SecretManager` (a private key), in a block from
 *   `buildBasicBlock` signed by the issuer's `SecretManager`: `postBlock`, then `getBlock`, `getBlockRaw`,
 *   `getBlockMetadata`, `getIncludedBlock`, `getIncludedBlockRaw`; block and transaction IDs recomputed with
 *   `Utils.blockId` / `Utils.transactionId` and with the node's own code.
 * - The SDK methods whose routes the node does not serve yet fail with the status docs/v3-sdk.md lists (the ones it
 *   serves: sdk-reads.test.ts, sdk-utxo.test.ts).
 * - After 3 s of real idleness the tips are still fresh and a second SDK block is included (the cadence over 11
 *   idle minutes on a test clock: test/node/v3/validator.test.ts).
 * - Control: the same network without validator rounds (what the validator did on an idle network before): the SDK
 *   refuses to build.
 */
import { expect } from 'chai';
import type { Client, ProtocolParameters, SignedTransactionPayload } from '@iota/sdk-wasm-v2/node';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import {
  blockIdV3,
  decodeBlockV3,
  outputIdV3,
  slotOfId,
  transactionIdV3,
  type ProtocolParametersV3,
} from '../../../src/core/v3/index.ts';
import { genesisBlockIdV3, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { key, USER, type Key } from '../../../harness/fixtures/v3.ts';
import { nowNs, sdk, sendBySdk, waitFor } from './sdk-support.ts';
import { startV3Node, type V3SdkNode } from './support.ts';

const INTERVAL_MS = 200;
/** How long before the start the genesis block, the network's last block, was issued. */
const IDLE_S = 660;
const FIVE_MINUTES_MS = 300_000;

describe('e2e v3: the IOTA 2.0 SDK (@iota/sdk-wasm 2.0.0-beta.1) on a network idle for 11 minutes', function () {
  this.timeout(60000);
  let node: V3SdkNode;
  let client: Client;
  let pp: ProtocolParameters;
  let params: ProtocolParametersV3;
  let g: GenesisV3;
  /** The first SDK transaction's block and transaction IDs. */
  let sent: { blockId: string; txId: string };

  before(async () => {
    node = await startV3Node({
      name: 'sdk',
      genesisAgeS: IDLE_S,
      funded: 2,
      validationIntervalMs: INTERVAL_MS,
      sdk: true,
    });
    ({ client, params, genesis: g } = node);
    pp = await client.getProtocolParameters();
  });
  after(() => node?.stop());

  const send = (input: number, to: Key) => sendBySdk(client, params, g, input, to);

  const confirmed = (blockId: string) =>
    waitFor(`${blockId} confirmed`, async () =>
      (await client.getBlockMetadata(blockId)).blockState === 'confirmed' ? true : undefined,
    );

  it('getInfo, getIssuance: the network, and tips of the validator rounds, not the old genesis', async () => {
    const info = await client.getInfo(node.rest);
    expect(info.name).to.equal('ledger-node');
    expect(info.status.isHealthy).to.equal(true);
    const p = info.protocolParameters[0]!.parameters;
    expect(p).to.include({ version: 3, networkName: 'ledger-dev', bech32Hrp: 'rms', slotDurationInSeconds: 1 });
    expect(String(p.genesisUnixTimestamp)).to.equal(String(params.genesisUnixTimestamp));
    // the node answers before its first round: wait for it, then the newest tip is at most about one interval old
    const iss = await node.firstRound();
    expect(iss.strongParents).to.have.length.within(1, 8);
    expect(iss.strongParents).not.to.include(toHex0x(genesisBlockIdV3(params)));
    const ageMs = Number(nowNs() - BigInt(iss.latestParentBlockIssuingTime)) / 1e6;
    expect(ageMs).to.be.below(2000);
    // the node commits a slot a second: compare the SDK's ID of the issuance's commitment with the info's latest
    // commitment ID read in the same slot
    const same = await waitFor('info and issuance naming the same commitment', async () => {
      const i = await client.getIssuance();
      const latest = (await client.getInfo(node.rest)).status.latestCommitmentId;
      return slotOfId(fromHex0x(latest)) === i.latestCommitment.slot ? { i, latest } : undefined;
    });
    expect(sdk.Utils.computeSlotCommitmentId(same.i.latestCommitment)).to.equal(same.latest);
  });

  it('buildBasicBlock works; the block and its transaction are confirmed, read back, IDs agree', async () => {
    const { block, blockId, txId } = await send(0, key(70));
    sent = { blockId, txId };
    expect(blockId).to.equal(sdk.Utils.blockId(block, pp));
    await confirmed(blockId);

    // declared a Uint8Array, a plain array of numbers at run time
    const raw = Uint8Array.from(await client.getBlockRaw(blockId));
    expect(toHex0x(raw)).to.equal(toHex0x(sdk.Utils.blockBytes(block)));
    expect(toHex0x(blockIdV3(raw, params))).to.equal(blockId);
    const decoded = decodeBlockV3(raw, params);
    expect(decoded.body.type === 0 && decoded.body.payload?.type).to.equal(1);
    const payload = (decoded.body as { payload: { transaction: Parameters<typeof transactionIdV3>[0] } }).payload;
    expect(toHex0x(transactionIdV3(payload.transaction))).to.equal(txId);

    const read = await client.getBlock(blockId);
    expect(sdk.Utils.blockId(read, pp)).to.equal(blockId);
    expect(sdk.Utils.transactionId(read.body.asBasic().payload as SignedTransactionPayload)).to.equal(txId);
    expect(await client.getBlockMetadata(blockId)).to.deep.include({ blockId, blockState: 'confirmed' });

    const included = await client.getIncludedBlock(txId);
    expect(sdk.Utils.blockId(included, pp)).to.equal(blockId);
    expect(toHex0x(Uint8Array.from(await client.getIncludedBlockRaw(txId)))).to.equal(toHex0x(raw));
    expect(sdk.Utils.computeOutputId(txId, 1)).to.equal(toHex0x(outputIdV3(fromHex0x(txId), 1)));
  });

  it('the SDK methods whose routes the node does not serve answer as docs/v3-sdk.md lists', async () => {
    const { txId } = sent;
    const account = toHex0x(USER.accountId);
    const output = sdk.Utils.computeOutputId(txId, 0);
    // 403: outside the gateway's public routes (404 with a token); 400: refused (the rewards of a basic output; the
    // network reads are in sdk-network.test.ts, the UTXO changes in sdk-utxo.test.ts)
    const calls: [number, string, () => Promise<unknown>][] = [
      [400, 'getOutputManaRewards', () => client.getOutputManaRewards(output)],
      [403, 'basicOutputIds', () => client.basicOutputIds({})],
      [403, 'accountOutputId', () => client.accountOutputId(account)],
    ];
    for (const [status, name, call] of calls) {
      const e = await call().then(
        () => expect.fail(`${name} should fail`),
        (x: Error) => x,
      );
      // the SDK words a 404 as "The requested data ... was not found", other statuses with their code
      const code = /was not found/.test(e.message) ? '404' : /status code (\d{3})/.exec(e.message)?.[1];
      expect(code ?? e.message, name).to.equal(String(status));
    }
  });

  it('after 3 s of idleness the tips are still fresh, and the next SDK block is included', async () => {
    let oldestMs = 0;
    for (const end = Date.now() + 3000; Date.now() < end; ) {
      const iss = await client.getIssuance();
      oldestMs = Math.max(oldestMs, Number(nowNs() - BigInt(iss.latestParentBlockIssuingTime)) / 1e6);
      await new Promise((r) => setTimeout(r, 100));
    }
    // a round every 200 ms: the tips' age stays within a few rounds (slack for a loaded machine), far from 5 minutes
    expect(oldestMs).to.be.below(2000);
    const { blockId, txId } = await send(1, key(71));
    await confirmed(blockId);
    expect(sdk.Utils.blockId(await client.getIncludedBlock(txId), pp)).to.equal(blockId);
  });

  it('control: the same network without validator rounds, the SDK refuses to build (timeNotSynced)', async () => {
    const quiet = await startV3Node({ name: 'sdk-quiet', genesis: g, validationIntervalMs: 0, sdk: true });
    const other = quiet.client;
    try {
      const iss = await other.getIssuance();
      expect(iss.strongParents).to.deep.equal([toHex0x(genesisBlockIdV3(params))]);
      const ageMs = Number(nowNs() - BigInt(iss.latestParentBlockIssuingTime)) / 1e6;
      expect(ageMs).to.be.above(FIVE_MINUTES_MS);
      const e = await other.buildBasicBlock(toHex0x(USER.accountId)).then(
        () => expect.fail('buildBasicBlock should refuse'),
        (x: Error) => x,
      );
      expect(e.name).to.equal('timeNotSynced');
      expect(e.message).to.match(/doesn't match the tangle time/);
    } finally {
      await quiet.stop();
    }
  });
});
