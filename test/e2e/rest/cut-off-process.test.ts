/**
 * A cut-off node as users run it (bin/ledger-node.js over dist/): `ledger-node run --peer 127.0.0.1:1`, a static peer
 * nobody answers, no coordinator. On its own REST door and through a standalone `ledger-node gateway` (the mux
 * transport): POST /blocks (JSON and raw) and the faucet's enqueue answer 503 with Retry-After and the reason,
 * /health 503, and /info carries `healthReasons`, which the real clients tolerate: iota.js 2.0.0-rc.4 and the Rust SDK
 * (@iota/sdk-wasm 1.1.3, a serde deserializer of TIP-25's InfoResponse) parse it and see the node unhealthy. The log
 * says it once per change.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SingleNodeClient } from '@iota/iota.js';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { fromHex0x } from '../../../src/core/bytes.ts';
import { spawnGateway, spawnNode, type Spawned, type SpawnedNode } from '../../../harness/process.ts';
import { waitFor } from '../../../harness/wait.ts';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require('@iota/sdk-wasm/node') as typeof import('@iota/sdk-wasm/node');

const REASON = 'no live peer: none of its configured peers is connected';
const REFUSAL = `service unavailable: node is not synced: it is cut off from its network (${REASON})`;

describe('e2e: a cut-off node (process) and a standalone gateway refuse submissions; clients read why', function () {
  this.timeout(90_000);
  let dir: string;
  let node: SpawnedNode | undefined;
  let gateway: Spawned | undefined;
  const bases: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-cut-off-'));
    node = await spawnNode(dir, ['--peer', '127.0.0.1:1', '--pow-workers', '1']);
    const g = await spawnGateway(node.grpcPort);
    gateway = g.proc;
    bases.push(node.rest, g.rest);
  });

  after(async () => {
    await gateway?.stop();
    await node?.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function expectRefused(res: Response, message: RegExp | string, retryAfter = '5'): Promise<void> {
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.equal(retryAfter);
    const body = (await res.json()) as { error: { code: number; message: string } };
    expect(body.error.code).to.equal(503);
    if (typeof message === 'string') expect(body.error.message).to.equal(message);
    else expect(body.error.message).to.match(message);
  }

  it('POST /blocks (JSON and raw) and the faucet: 503, Retry-After, the reason, at node and gateway', async () => {
    const info = (await (await fetch(`${node!.rest}/api/core/v2/info`)).json()) as { protocol: { version: number } };
    expect(info.protocol.version).to.equal(2);
    const tips = (await (await fetch(`${node!.rest}/api/core/v2/tips`)).json()) as { tips: string[] };
    const raw = encodeBlock({
      protocolVersion: 2,
      parents: tips.tips.map((t) => fromHex0x(t)),
      payload: { type: 5, tag: new Uint8Array([1]), data: new Uint8Array([2]) },
      nonce: 0n,
    });
    const faucet = (await (await fetch(`${node!.rest}/api/faucet/v1/info`)).json()) as {
      isHealthy: boolean;
      address: string;
    };
    expect(faucet.isHealthy).to.equal(false);
    for (const base of bases) {
      const json = await fetch(`${base}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x01', data: '0x02' } }),
      });
      await expectRefused(json, REFUSAL);
      const bytes = await fetch(`${base}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.iota.serializer-v1' },
        body: raw,
      });
      await expectRefused(bytes, REFUSAL);
      const enqueue = await fetch(`${base}/api/faucet/v1/enqueue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: faucet.address }),
      });
      // the faucet's own hint (inx-faucet's refusals that pass with time)
      await expectRefused(enqueue, /Faucet node is not synchronized\/healthy\. .*cut off from its network/, '10');
      expect((await fetch(`${base}/health`)).status).to.equal(503);
    }
  });

  it('/info says why, and iota.js and the Rust SDK parse it (an extra field) and see the node unhealthy', async () => {
    for (const base of bases) {
      const info = (await (await fetch(`${base}/api/core/v2/info`)).json()) as {
        status: { isHealthy: boolean; healthReasons: string[] };
      };
      expect(info.status.isHealthy).to.equal(false);
      expect(info.status.healthReasons).to.include(REASON);

      const iotaJs = new SingleNodeClient(base);
      const byIotaJs = await iotaJs.info();
      expect(byIotaJs.status.isHealthy).to.equal(false);
      expect(byIotaJs.protocol.networkName).to.equal('ledger-dev');
      expect(await iotaJs.health()).to.equal(false);

      const client = new sdk.Client({});
      try {
        const bySdk = await client.getNodeInfo(base);
        expect(bySdk.status.isHealthy).to.equal(false);
        expect(bySdk.protocol.networkName).to.equal(byIotaJs.protocol.networkName);
        // the SDK's health call throws on 503, as against Hornet
        const health = await client.getHealth(base).then(
          (ok) => `answered ${ok}`,
          (e: unknown) => String(e),
        );
        expect(health).to.contain('status code 503');
      } finally {
        await client.destroy();
      }
    }
    // once per change (a state found by two checks a second apart): while starting (catching up too, its start
    // grace), then without a peer alone
    const unhealthy = (): string[] =>
      node!.proc
        .output()
        .split('\n')
        .filter((l) => l.includes('node unhealthy'));
    const said = await waitFor('the log line', async () => (unhealthy().length > 0 ? unhealthy() : undefined), 10_000);
    expect(said.length).to.be.within(1, 2);
    for (const line of said) expect(line).to.contain(`${REASON}; submissions refused until it is back in sync`);
  });
});
