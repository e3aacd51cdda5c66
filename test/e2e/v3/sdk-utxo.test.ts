/**
 * End to end with the IOTA 2.0 SDK (`@iota/sdk-wasm` 2.0.0-beta.1, loaded as sdk-support.ts does) against
 * `ledger-node run` as a process: the UTXO changes of a slot commitment (docs/decisions.md §39). One SDK transaction is
 * sent and committed; then getUtxoChanges, getUtxoChangesFull, getUtxoChangesBySlot and getUtxoChangesFullBySlot parse
 * the node's answers for the slot whose commitment covers it: its outputs (`Utils.computeOutputId`) created, its input
 * consumed, the full outputs equal to the ones the SDK built, the commitment ID `Utils.computeSlotCommitmentId` of the
 * commitment read by slot. Bad input is answered 400 or 404.
 */
import { expect } from 'chai';
import type { Client } from '@iota/sdk-wasm-v2/node';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { outputToJsonV3, slotOfId, type ProtocolParametersV3 } from '../../../src/core/v3/index.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { genesisOutputId, key } from '../../../harness/fixtures/v3.ts';
import { sdk, sendBySdk, waitFor, type SentBySdk } from './sdk-support.ts';
import { startV3Node, type V3SdkNode } from './support.ts';

/** An SDK object as plain JSON (key order aside). */
const plain = (o: unknown): unknown => JSON.parse(JSON.stringify(o));

/** The SDK's wording of a failed call: "was not found" for 404, "status code N" for the other statuses. */
async function failure(call: Promise<unknown>): Promise<string> {
  const e = await call.then(
    () => expect.fail('the call should fail'),
    (x: Error) => x,
  );
  return /was not found/.test(e.message) ? '404' : (/status code (\d{3})/.exec(e.message)?.[1] ?? e.message);
}

describe('e2e v3: the IOTA 2.0 SDK reads the UTXO changes of a slot commitment', function () {
  this.timeout(40000);
  let node: V3SdkNode;
  let client: Client;
  let params: ProtocolParametersV3;
  let g: GenesisV3;
  let sent: SentBySdk;
  /** The slot whose commitment covers the transaction, and that commitment's ID. */
  let slot: number;
  let commitmentId: string;

  before(async () => {
    node = await startV3Node({ name: 'sdk-utxo', funded: 2, validationIntervalMs: 200, sdk: true });
    ({ client, params, genesis: g } = node);
    await node.firstRound();
    sent = await sendBySdk(client, params, g, 0, key(70));
    // committed: the output's metadata names the commitment that covers its transaction
    commitmentId = await waitFor('a commitment covering the transaction', async () => {
      const md = await client.getOutputMetadata(sdk.Utils.computeOutputId(sent.txId, 0)).catch(() => undefined);
      return md?.included.commitmentId;
    });
    slot = slotOfId(fromHex0x(commitmentId));
  });
  after(() => node?.stop());

  it('getUtxoChangesBySlot, getUtxoChanges: the outputs created, the input consumed, the commitment ID', async () => {
    const { txId, payload } = sent;
    const commitment = await client.getCommitmentBySlot(slot);
    expect(sdk.Utils.computeSlotCommitmentId(commitment)).to.equal(commitmentId);
    const bySlot = await client.getUtxoChangesBySlot(slot);
    expect(bySlot.commitmentId).to.equal(commitmentId);
    const created = payload.transaction.outputs.map((_, i) => sdk.Utils.computeOutputId(txId, i));
    expect(bySlot.createdOutputs).to.include.members(created);
    expect(bySlot.consumedOutputs).to.include(toHex0x(genesisOutputId(g, 0)));
    // sorted by output ID, as iota-core stores a slot's diff
    expect(bySlot.createdOutputs).to.deep.equal([...bySlot.createdOutputs].sort());
    expect(await client.getUtxoChanges(commitmentId)).to.deep.equal(bySlot);
  });

  it('getUtxoChangesFullBySlot, getUtxoChangesFull: the outputs the SDK built, the genesis output spent', async () => {
    const { txId, payload } = sent;
    const full = await client.getUtxoChangesFullBySlot(slot);
    expect(full.commitmentId).to.equal(commitmentId);
    const byId = new Map(full.createdOutputs.map((o) => [o.outputId, plain(o.output)]));
    payload.transaction.outputs.forEach((o, i) => {
      expect(byId.get(sdk.Utils.computeOutputId(txId, i)), `output ${i}`).to.deep.equal(plain(o));
    });
    const g0 = toHex0x(genesisOutputId(g, 0));
    const consumed = full.consumedOutputs.find((o) => o.outputId === g0);
    expect(plain(consumed?.output)).to.deep.equal(outputToJsonV3(g.outputs[0]!));
    expect(await client.getUtxoChangesFull(commitmentId)).to.deep.equal(full);
    const ids = await client.getUtxoChangesBySlot(slot);
    expect(full.createdOutputs.map((o) => o.outputId)).to.deep.equal(ids.createdOutputs);
    expect(full.consumedOutputs.map((o) => o.outputId)).to.deep.equal(ids.consumedOutputs);
  });

  it('bad input: a malformed ID, a slot out of range 400; a future slot, an unknown commitment 404', async () => {
    const v3 = `${node.rest}/api/core/v3/commitments`;
    for (const path of ['0x1234/utxo-changes', 'by-slot/4294967296/utxo-changes/full', 'by-slot/x/utxo-changes']) {
      const res = await fetch(`${v3}/${path}`);
      expect(res.status, path).to.equal(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).to.match(
        /invalid (commitment ID|slot)/,
      );
    }
    const latest = (await client.getIssuance()).latestCommitment.slot;
    expect(await failure(client.getUtxoChangesBySlot(latest + 1000))).to.equal('404');
    const future = await fetch(`${v3}/by-slot/${latest + 1000}/utxo-changes`);
    expect(((await future.json()) as { error: { message: string } }).error.message).to.match(/is not committed yet/);
    const unknown = toHex0x(new Uint8Array([...new Uint8Array(32).fill(9), ...fromHex0x(commitmentId).subarray(32)]));
    expect(await failure(client.getUtxoChangesFull(unknown))).to.equal('404');
    // the genesis slot: its outputs come from the genesis snapshot, no transaction changed them (iota-core: 404 too)
    expect(await failure(client.getUtxoChangesFullBySlot(params.genesisSlot))).to.equal('404');
  });
});
