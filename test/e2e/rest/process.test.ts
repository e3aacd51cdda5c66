/**
 * The node as users run it: `node bin/ledger-node.js run --data-dir <tmp> --rest-port 0 --grpc-port 0` in its own
 * process (ports read from its log), driven by the reference client iota.js 2.0.0-rc.4 SingleNodeClient:
 * info, tips, three kinds of submission (node fills parents and nonce; client parents with nonce 0, node mines and
 * keeps them; client pre-mined nonce, stored as sent), block / blockRaw / blockMetadata, block ID =
 * BLAKE2b-256(raw). Then several spawned `ledger-node gateway` processes serve the same node, and a restart of the
 * node on the same folder serves every block identically.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClientError, deserializeBlock, SingleNodeClient, type IBlock } from '@iota/iota.js';
import { ReadStream } from '@iota/util.js';
import { toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock } from '../../../src/core/codec/index.ts';
import { blockToJson } from '../../../src/core/json/index.ts';
import { powScore } from '../../../src/core/pow/index.ts';
import { spawnGateway, spawnNode, type Spawned, type SpawnedNode } from '../../../harness/process.ts';
import { blake2b256Hex, preMine, sortedParents, taggedData } from './support.ts';

const RAW = 'application/vnd.iota.serializer-v1';
const MIN_POW_SCORE = 100; // the dev network's default, so every submission here does real proof of work

interface Snapshot {
  json: string;
  raw: string;
  metadata: string;
}

/** The three REST views of a block, as served (text and bytes). */
async function snapshot(rest: string, id: string): Promise<Snapshot> {
  const url = `${rest}/api/core/v2/blocks/${id}`;
  const [json, raw, metadata] = await Promise.all([
    fetch(url).then((r) => r.text()),
    fetch(url, { headers: { accept: RAW } }).then(async (r) => Buffer.from(await r.arrayBuffer()).toString('hex')),
    fetch(`${url}/metadata`).then((r) => r.text()),
  ]);
  return { json, raw, metadata };
}

describe('e2e REST: ledger-node run as a process, iota.js SingleNodeClient, several gateways, restart', function () {
  this.timeout(90000);
  let dir: string;
  let node: SpawnedNode | undefined;
  let client: SingleNodeClient;
  const submitted: string[] = [];
  const procs: Spawned[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-process-'));
    node = await spawnNode(dir, ['--pow-workers', '1']);
    client = new SingleNodeClient(node.rest);
  });

  after(async () => {
    for (const p of procs) await p.stop();
    await node?.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Checks a stored block through every iota.js read and returns it; `id` must equal BLAKE2b-256 of its raw bytes. */
  async function readBack(id: string): Promise<{ block: IBlock; raw: Uint8Array }> {
    const [block, raw, metadata] = await Promise.all([client.block(id), client.blockRaw(id), client.blockMetadata(id)]);
    expect(blake2b256Hex(raw)).to.equal(id);
    // the JSON and the bytes describe the same block: iota.js decodes the bytes to what our JSON says
    const decoded = deserializeBlock(new ReadStream(raw));
    expect(decoded.parents).to.deep.equal(block.parents);
    expect(decoded.nonce).to.equal(block.nonce);
    expect(decoded.protocolVersion).to.equal(2);
    expect(JSON.parse(JSON.stringify(blockToJson(decodeBlock(raw))))).to.deep.equal(block);
    expect(metadata.blockId).to.equal(id);
    expect(metadata.parents).to.deep.equal(block.parents);
    expect(powScore(raw)).to.be.at.least(MIN_POW_SCORE);
    submitted.push(id);
    return { block, raw };
  }

  it('info: the dev network, protocol version 2, remote PoW on, healthy', async () => {
    const info = await client.info();
    expect(info.name).to.equal('ledger-node');
    expect(info.protocol.version).to.equal(2);
    expect(info.protocol.networkName).to.equal('ledger-dev');
    expect(info.protocol.minPowScore).to.equal(MIN_POW_SCORE);
    expect(info.features).to.include('pow');
    expect(await client.health()).to.equal(true);
  });

  it('tips: 1..8 sorted block IDs', async () => {
    const { tips } = await client.tips();
    expect(tips.length).to.be.within(1, 8);
    for (const t of tips) expect(t).to.match(/^0x[0-9a-f]{64}$/);
    expect(tips).to.deep.equal(sortedParents(tips));
  });

  it('blockSubmit without parents and nonce: the node selects tips and mines', async () => {
    const tipsBefore = (await client.tips()).tips;
    const id = await client.blockSubmit({ payload: taggedData('e2e', 'no parents, no nonce') });
    const { block } = await readBack(id);
    expect(block.parents.length).to.be.within(1, 8);
    expect(block.parents).to.deep.equal(sortedParents(block.parents));
    for (const p of block.parents) expect(tipsBefore).to.include(p);
    expect(block.nonce).to.not.equal('0');
    expect(block.payload).to.deep.equal(taggedData('e2e', 'no parents, no nonce'));
  });

  it('blockSubmit with parents and nonce 0: the node mines and keeps the parents', async () => {
    const parents = sortedParents((await client.tips()).tips).slice(0, 2);
    const id = await client.blockSubmit({ parents, payload: taggedData('e2e', 'client parents') });
    const { block } = await readBack(id);
    expect(block.parents).to.deep.equal(parents);
    expect(block.nonce).to.not.equal('0');
  });

  it('blockSubmit with a pre-mined nonce: stored exactly as sent', async () => {
    const parents = sortedParents((await client.tips()).tips);
    const payload = taggedData('e2e', 'pre-mined JSON');
    const mined = await preMine(parents, payload, MIN_POW_SCORE);
    const id = await client.blockSubmit({ parents, payload, nonce: mined.nonce });
    expect(id).to.equal(mined.blockId);
    const { block, raw } = await readBack(id);
    expect(block.nonce).to.equal(mined.nonce);
    expect(raw).to.deep.equal(mined.bytes);
  });

  it('blockSubmitRaw with pre-mined bytes: the same bytes come back', async () => {
    const parents = sortedParents((await client.tips()).tips);
    const mined = await preMine(parents, taggedData('e2e', 'pre-mined raw'), MIN_POW_SCORE);
    const id = await client.blockSubmitRaw(mined.bytes.slice());
    expect(id).to.equal(mined.blockId);
    expect((await readBack(id)).raw).to.deep.equal(mined.bytes);
  });

  it('iota.js sees the error body of a failure as a ClientError with the HTTP status', async () => {
    let err: unknown;
    try {
      await client.block(toHex0x(new Uint8Array(32).fill(0xee)));
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ClientError);
    expect((err as ClientError).httpStatus).to.equal(404);
    expect((err as ClientError).message).to.match(/^could not find data: block not found/);
    // a nonce too low for the network is refused, not silently re-mined
    const parents = sortedParents((await client.tips()).tips);
    let low: unknown;
    try {
      await client.blockSubmit({ parents, payload: taggedData('e2e', 'bad nonce'), nonce: '1' });
    } catch (e) {
      low = e;
    }
    expect((low as ClientError).httpStatus).to.equal(400);
    expect((low as ClientError).message).to.match(/insufficient PoW score/);
    expect((await client.info()).status.isHealthy).to.equal(true);
  });

  it('spawned gateways serve one node: reads agree, a block posted through one is served by all', async () => {
    const gateways = await Promise.all([spawnGateway(node!.grpcPort), spawnGateway(node!.grpcPort)]);
    procs.push(...gateways.map((g) => g.proc));
    const all = [node!.rest, ...gateways.map((g) => g.rest)];
    expect(new Set(gateways.map((g) => g.port)).size).to.equal(2);
    for (const id of submitted) {
      const views = await Promise.all(all.map((rest) => snapshot(rest, id)));
      for (const v of views.slice(1)) expect(v).to.deep.equal(views[0]);
    }
    // post through each gateway in parallel; every gateway and the node's own REST serve each block
    const ids = await Promise.all(
      gateways.map((g, i) =>
        new SingleNodeClient(g.rest).blockSubmit({ payload: taggedData('e2e', `through gateway ${i}`) }),
      ),
    );
    for (const id of ids) {
      const views = await Promise.all(all.map((rest) => snapshot(rest, id)));
      expect(blake2b256Hex(Buffer.from(views[0]!.raw, 'hex'))).to.equal(id);
      for (const v of views.slice(1)) expect(v).to.deep.equal(views[0]);
      submitted.push(id);
    }
    // a gateway's error answers are its own; the node behind it is unaffected
    const bad = await fetch(`${gateways[0]!.rest}/api/core/v2/blocks/0x1234`);
    expect(bad.status).to.equal(400);
    // gateways stop cleanly (exit 0) and the node keeps serving
    const codes = await Promise.all(gateways.map((g) => g.proc.stop()));
    expect(codes).to.deep.equal([0, 0]);
    expect((await client.info()).status.isHealthy).to.equal(true);
  });

  it('restart: every block submitted before is served identically after a restart on the same folder', async () => {
    const before = new Map<string, Snapshot>();
    for (const id of submitted) before.set(id, await snapshot(node!.rest, id));
    const infoBefore = await client.info();
    expect(await node!.proc.stop()).to.equal(0);
    expect(node!.proc.output()).to.contain('node stopped');
    node = await spawnNode(dir, ['--pow-workers', '1']);
    expect(node.proc.output()).to.not.contain('created network'); // the existing network was loaded
    client = new SingleNodeClient(node.rest);
    const infoAfter = await client.info();
    expect(infoAfter.protocol).to.deep.equal(infoBefore.protocol);
    expect(submitted.length).to.be.at.least(6);
    for (const id of submitted) {
      const after = await snapshot(node.rest, id);
      expect(after, id).to.deep.equal(before.get(id));
      expect(blake2b256Hex(Buffer.from(after.raw, 'hex'))).to.equal(id);
    }
    // and the restarted node accepts new blocks on top of the old ones
    const id = await client.blockSubmit({ payload: taggedData('e2e', 'after restart') });
    const { block } = await readBack(id);
    for (const p of block.parents) expect((await client.blockMetadata(p)).blockId).to.equal(p);
  });
});
