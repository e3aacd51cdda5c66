/**
 * End to end over REST on a node started from a genesis file with a v3 section, with its built-in validator
 * (one seat, fast rounds): a signed v3 transaction posted in two blocks of different slots is confirmed, and
 * `/api/core/v3/transactions/{id}/included-block` answers the earlier one in the v3 JSON shape and in binary; an
 * invalid signature is refused with 400 and a double spend's loser is attached but fails and never becomes included.
 */
import { expect } from 'chai';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import {
  blockFromJsonV3,
  blockToJsonV3,
  decodeBlockV3,
  slotFromTime,
  slotOfId,
  encodeBlockV3,
  type ProtocolParametersV3,
} from '../../../src/core/v3/index.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { waitFor } from '../../../harness/wait.ts';
import { issuance as issuanceOf, issuingTime, startV3Node, userBlock, type Issuance, type V3Node } from './support.ts';
import {
  basic,
  basicBlock,
  genesisOutputId,
  inputOf,
  key,
  NS,
  signedTx,
  slotStartNs,
  txIdOf,
  USER,
  WALLET,
} from '../../../harness/fixtures/v3.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const V2 = 'application/vnd.iota.serializer-v2';
const asJson = (v: unknown): Json => v;

describe('e2e v3: submission, committee confirmation and included-block over REST', function () {
  this.timeout(60000);
  let node: V3Node;
  let base: string;
  let g: GenesisV3;
  let params: ProtocolParametersV3;

  const get = async (path: string, accept = 'application/json') => fetch(`${base}${path}`, { headers: { accept } });
  const post = async (body: Uint8Array | string, type: string) =>
    fetch(`${base}/api/core/v3/blocks`, {
      method: 'POST',
      headers: { 'content-type': type },
      body: typeof body === 'string' ? body : Buffer.from(body),
    });
  const blockState = async (id: string): Promise<Json> =>
    (await get(`/api/core/v3/blocks/${id}/metadata`)).json().then(asJson);
  const confirmed = (id: string) =>
    waitFor(
      `${id} confirmed`,
      async () => ((await blockState(id)).blockState === 'confirmed' ? true : undefined),
      15000,
      50,
    );

  before(async () => {
    node = await startV3Node({
      name: 'included',
      genesisAgeS: 100,
      funded: 3,
      validationIntervalMs: 40,
      inProcess: true,
    });
    ({ rest: base, params, genesis: g } = node);
  });
  after(() => node?.stop());

  const issuance = (): Promise<Issuance> => issuanceOf(`${base}/api/core/v3`);

  it('GET /info serves the protocol parameters and the committee', async () => {
    const r = await get('/api/core/v3/info');
    expect(r.status).to.equal(200);
    const j = await r.json().then(asJson);
    expect(j.protocolParameters[0].startEpoch).to.equal(0);
    expect(j.protocolParameters[0].parameters).to.include({
      version: 3,
      networkName: 'ledger-dev',
      slotDurationInSeconds: 1,
    });
    expect(j.protocolParameters[0].parameters.genesisUnixTimestamp).to.equal(String(params.genesisUnixTimestamp));
    expect(j.committee).to.deep.equal({ seats: [toHex0x(key(1).accountId)], threshold: 1 });
    expect(j.status).to.include.keys('latestAcceptedBlockSlot', 'latestConfirmedBlockSlot', 'latestCommitmentId');
  });

  it('a transaction in blocks of two slots is confirmed; included-block answers the first, JSON and raw', async () => {
    const iss = await issuance();
    const t1 = issuingTime(iss);
    const slot1 = slotFromTime(t1, params);
    const t2 = slotStartNs(params, slot1 + 1) + 1n; // the next slot (at most one second ahead)
    const tx = signedTx(
      {
        creationSlot: slot1,
        inputs: [inputOf(genesisOutputId(g, 0))],
        outputs: [basic(600_000_000n, key(70)), basic(400_000_000n, WALLET)],
      },
      WALLET,
      params,
    );
    const b1 = userBlock(params, iss, t1, tx);
    const b2 = userBlock(params, iss, t2, tx);
    // the first as binary, the second as JSON
    const r1 = await post(b1, V2);
    expect(r1.status).to.equal(201);
    const id1 = (await r1.json().then(asJson)).blockId as string;
    expect(r1.headers.get('location')).to.equal(id1);
    const r2 = await post(JSON.stringify(blockToJsonV3(decodeBlockV3(b2, params))), 'application/json');
    expect(r2.status).to.equal(201);
    const id2 = (await r2.json().then(asJson)).blockId as string;
    expect(id1).to.not.equal(id2);
    expect([slotOfId(fromHex0x(id1)), slotOfId(fromHex0x(id2))]).to.deep.equal([slot1, slot1 + 1]);
    await confirmed(id1);
    await confirmed(id2);

    const txId = toHex0x(txIdOf(tx));
    const json = await get(`/api/core/v3/transactions/${txId}/included-block`);
    expect(json.status).to.equal(200);
    const body = await json.json().then(asJson);
    expect(Object.keys(body)).to.deep.equal(['header', 'body', 'signature']);
    expect(toHex0x(encodeBlockV3(blockFromJsonV3(body)))).to.equal(toHex0x(b1));
    const bin = await get(`/api/core/v3/transactions/${txId}/included-block`, V2);
    expect(bin.status).to.equal(200);
    expect(bin.headers.get('content-type')).to.equal(V2);
    expect(toHex0x(new Uint8Array(await bin.arrayBuffer()))).to.equal(toHex0x(b1));
    // GET /blocks/{id} serves the same block both ways
    expect(toHex0x(new Uint8Array(await (await get(`/api/core/v3/blocks/${id2}`, V2)).arrayBuffer()))).to.equal(
      toHex0x(b2),
    );
    expect((await (await get(`/api/core/v3/blocks/${id1}`)).json().then(asJson)).header.issuerId).to.equal(
      toHex0x(USER.accountId),
    );
    // applied ('accepted'); 'committed' once the clock made the slot committable (10 one-second slots later)
    const txMd = (await blockState(id1)).transactionMetadata;
    expect(['accepted', 'committed']).to.include(txMd.transactionState);
    expect(txMd).to.deep.equal({
      transactionId: txId,
      transactionState: txMd.transactionState,
      earliestAttachmentSlot: slot1,
    });
  });

  it('an invalid signature is refused with 400 and never included', async () => {
    const iss = await issuance();
    const t = BigInt(Date.now()) * 1_000_000n;
    const slot = slotFromTime(t > iss.time ? t : iss.time + 1n, params);
    const tx = signedTx(
      { creationSlot: slot, inputs: [inputOf(genesisOutputId(g, 1))], outputs: [basic(1_000_000_000n, key(70))] },
      WALLET,
      params,
      true,
    );
    const r = await post(userBlock(params, iss, t > iss.time ? t : iss.time + 1n, tx), V2);
    expect(r.status).to.equal(400);
    const e = await r.json().then(asJson);
    expect(e.error.code).to.equal(400);
    expect(e.error.message).to.match(/^invalid data provided: .*UNLOCK_INVALID/);
    expect((await get(`/api/core/v3/transactions/${toHex0x(txIdOf(tx))}/included-block`)).status).to.equal(404);
  });

  it('a double spend never becomes included', async () => {
    const iss = await issuance();
    const t = issuingTime(iss);
    const slot = slotFromTime(t, params);
    const a = signedTx(
      { creationSlot: slot, inputs: [inputOf(genesisOutputId(g, 2))], outputs: [basic(1_000_000_000n, key(71))] },
      WALLET,
      params,
    );
    const b = signedTx(
      { creationSlot: slot, inputs: [inputOf(genesisOutputId(g, 2))], outputs: [basic(1_000_000_000n, key(72))] },
      WALLET,
      params,
    );
    const ra = await post(userBlock(params, iss, t, a), V2);
    expect(ra.status).to.equal(201);
    const idA = (await ra.json().then(asJson)).blockId as string;
    // the conflicting one fails at confirmation (posted while A is pending) or at once (A already applied)
    const rb = await post(userBlock(params, iss, t + 1n, b), V2);
    expect(rb.status).to.equal(201);
    await confirmed(idA);
    const idB = (await rb.json().then(asJson)).blockId as string;
    await confirmed(idB);
    const lostMd = (await blockState(idB)).transactionMetadata;
    expect(lostMd).to.include({ transactionState: 'failed', transactionFailureReason: 1 });
    expect(lostMd.transactionFailureDetails).to.match(/double spend/);
    expect((await get(`/api/core/v3/transactions/${toHex0x(txIdOf(a))}/included-block`)).status).to.equal(200);
    const lost = await get(`/api/core/v3/transactions/${toHex0x(txIdOf(b))}/included-block`);
    expect(lost.status).to.equal(404);
    expect((await lost.json().then(asJson)).error.message).to.match(/^could not find data: transaction not included/);
    // and after confirmation a third spend is attached with its transaction failed at once (A is not committed: 1)
    const c = signedTx(
      { creationSlot: slot, inputs: [inputOf(genesisOutputId(g, 2))], outputs: [basic(1_000_000_000n, key(73))] },
      WALLET,
      params,
    );
    const rc = await post(userBlock(params, iss, t + 2n, c), V2);
    expect(rc.status).to.equal(201);
    const failed = await get(`/api/core/v3/transactions/${toHex0x(txIdOf(c))}/metadata`);
    expect(await failed.json().then(asJson)).to.include({ transactionState: 'failed', transactionFailureReason: 1 });
    expect((await get(`/api/core/v3/transactions/${toHex0x(txIdOf(c))}/included-block`)).status).to.equal(404);
  });

  it('bad requests: 36-byte IDs only, malformed or invalid blocks 400, unknown 404, other types 415', async () => {
    expect((await get(`/api/core/v3/transactions/0x${'00'.repeat(32)}/included-block`)).status).to.equal(400);
    expect((await get(`/api/core/v3/blocks/0x${'00'.repeat(32)}`)).status).to.equal(400);
    expect((await get(`/api/core/v3/blocks/0x${'00'.repeat(36)}`)).status).to.equal(404);
    expect((await get(`/api/core/v3/transactions/0x${'00'.repeat(36)}/included-block`)).status).to.equal(404);
    expect((await post('{"header":', 'application/json')).status).to.equal(400);
    expect((await post('{"header":{}}', 'application/json')).status).to.equal(400);
    expect((await post(new Uint8Array([1, 2, 3]), V2)).status).to.equal(400);
    expect((await post(new Uint8Array(0), V2)).status).to.equal(400);
    expect((await post('x', 'text/plain')).status).to.equal(415);
    const iss = await issuance();
    const stranger = basicBlock(params, {
      issuer: key(98),
      parents: iss.parents,
      issuingTime: iss.time + NS,
      commitmentId: iss.commitmentId,
    });
    const r = await post(stranger, V2);
    expect(r.status).to.equal(400);
    expect((await r.json().then(asJson)).error.message).to.match(/not a known account/);
  });
});
