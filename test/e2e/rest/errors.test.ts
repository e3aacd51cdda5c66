/**
 * Every REST error path end to end, with plain HTTP against a whole node in process (harness/node.ts: the default
 * store in a temp folder, gRPC server, REST gateway): each bad request (error-cases.ts) gets its 4xx and the JSON
 * error body `{"error":{"code","message"}}`, never a 500, and after each one the node still serves a known block byte
 * for byte.
 */
import { expect } from 'chai';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockFromJson } from '../../../src/core/json/index.ts';
import { silentLogger } from '../../../src/node/logger.ts';
import { startConfiguredNode, type ConfiguredNode } from '../../../harness/node.ts';
import { errorCases, JSON_CT, RAW } from './error-cases.ts';
import { blake2b256Hex, expectError, taggedData } from './support.ts';

describe('e2e REST: every error path is a 4xx with the error body, and the node keeps serving', function () {
  this.timeout(60000);
  let node: ConfiguredNode;
  let base: string;
  let knownId: string;
  let knownRaw: Uint8Array;
  let tips: string[];

  before(async () => {
    node = await startConfiguredNode({ minPowScore: 0, powWorkers: 0 }, { logger: silentLogger });
    base = `${node.rest}/api/core/v2`;
    const res = await fetch(`${base}/blocks`, {
      method: 'POST',
      headers: { 'content-type': JSON_CT },
      body: JSON.stringify({ protocolVersion: 2, payload: taggedData('e2e', 'known block') }),
    });
    expect(res.status).to.equal(201);
    knownId = ((await res.json()) as { blockId: string }).blockId;
    const raw = await fetch(`${base}/blocks/${knownId}`, { headers: { accept: RAW } });
    knownRaw = new Uint8Array(await raw.arrayBuffer());
    expect(blake2b256Hex(knownRaw)).to.equal(knownId);
    tips = ((await (await fetch(`${base}/tips`)).json()) as { tips: string[] }).tips;
  });

  after(async () => {
    await node?.stop();
  });

  /** The node still answers: the known block, byte for byte. */
  async function stillServes(): Promise<void> {
    const res = await fetch(`${base}/blocks/${knownId}`, { headers: { accept: RAW } });
    expect(res.status).to.equal(200);
    expect(new Uint8Array(await res.arrayBuffer())).to.deep.equal(knownRaw);
  }

  const cases = errorCases(() => ({ raw: knownRaw, tips }));

  for (const [name, make, status, message] of cases) {
    it(`${status} for ${name}`, async () => {
      const [path, init] = make();
      const url = new URL(`${base}${path}`).href; // resolves the "/../v3" paths
      await expectError(url, init, status, message);
      await stillServes();
    });
  }

  it('a burst of bad requests in parallel leaves the node serving good ones', async () => {
    const bad = cases
      .map(([, make]) => make())
      .map(([path, init]) => fetch(new URL(`${base}${path}`).href, init).then((r) => r.status));
    const statuses = await Promise.all([...bad, ...bad]);
    expect(statuses.every((s) => s >= 400 && s < 500)).to.equal(true);
    await stillServes();
    const res = await fetch(`${base}/blocks`, {
      method: 'POST',
      headers: { 'content-type': JSON_CT },
      body: JSON.stringify({ protocolVersion: 2, payload: taggedData('e2e', 'after the burst') }),
    });
    expect(res.status).to.equal(201);
    const newId = ((await res.json()) as { blockId: string }).blockId;
    const raw = new Uint8Array(
      await (await fetch(`${base}/blocks/${newId}`, { headers: { accept: RAW } })).arrayBuffer(),
    );
    expect(blake2b256Hex(raw)).to.equal(newId);
    const json = await (await fetch(`${base}/blocks/${newId}`)).json();
    expect(encodeBlock(blockFromJson(json))).to.deep.equal(raw);
  });
});
