/**
 * Issue 17 end to end, loopback addresses standing in for machines: node A (`ledger-node run`, its coordinator, the
 * secret LEDGER_NODE_JWT_SECRET in its environment) with its REST and node service doors on 127.0.0.2 and its peer
 * door on 127.0.0.3; node B (its own process, doors on 127.0.0.4/.5) peered with `--peer 0xKEY_A@127.0.0.3:PORT`;
 * standalone `ledger-node gateway`s on 127.0.0.6 against A's service door. B and A agree on milestones; the gateway
 * with the token from `ledger-node tool jwt` serves REST and events; without it or with a wrong one every call is
 * refused (503 saying the node refused the gateway's token); a NodeService call on the peer door is UNIMPLEMENTED;
 * a node expecting another key is refused with both keys logged, while a bare HOST:PORT connects; a node service
 * door beyond loopback without a secret does not start.
 */
import { credentials, Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signJwtHs256 } from '../../../gateway/index.ts';
import { NodeServiceClient } from '../../../src/grpc/gen/node.ts';
import { json, subscriber } from '../events/support.ts';
import { BIN, spawnGateway, spawnNode, type Spawned } from '../../../harness/process.ts';
import { waitFor as poll } from '../../../harness/wait.ts';
import { NetNode } from './support.ts';

const SECRET = 'three doors secret';
const exec = promisify(execFile);

interface NodeProc {
  proc: Spawned;
  grpc: string;
  peer: string;
  /** `http://HOST:PORT/api/core/v2` */
  rest: string;
  identity: string;
}

/** `ledger-node run` with its REST and node service doors on `host` and its peer door on `peerHost`. */
async function runNode(
  host: string,
  peerHost: string,
  dataDir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<NodeProc> {
  const node = await spawnNode(dataDir, ['--min-pow-score', '0', '--pow-workers', '1', ...args], {
    host,
    peerHost,
    env,
  });
  return { ...node, rest: `${node.rest}/api/core/v2` };
}

/** A standalone `ledger-node gateway` on 127.0.0.6 against `node`. */
async function runGateway(
  node: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ proc: Spawned; rest: string; port: number }> {
  const gateway = await spawnGateway(node, args, { host: '127.0.0.6', env });
  return { ...gateway, rest: `${gateway.rest}/api/core/v2` };
}

async function getJson(url: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** harness/wait.ts's wait, a probe that throws counting as no answer yet. */
const waitFor = <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> =>
  poll(what, () => probe().catch(() => undefined), 20_000, 100);

describe('e2e network: three doors on their own addresses, each with its guard', function () {
  this.timeout(120_000);
  let dir: string;
  let a: NodeProc;
  let b: NodeProc;
  let token: string;
  const stop: (() => Promise<unknown>)[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-doors-'));
    a = await runNode('127.0.0.2', '127.0.0.3', join(dir, 'a'), ['--milestone-interval', '0.5'], {
      LEDGER_NODE_JWT_SECRET: SECRET,
    });
    stop.push(() => a.proc.stop());
    b = await runNode('127.0.0.4', '127.0.0.5', join(dir, 'b'), [
      '--genesis',
      join(dir, 'a', 'genesis.json'),
      '--coordinator',
      'false',
      '--peer',
      `${a.identity}@${a.peer}`,
    ]);
    stop.push(() => b.proc.stop());
    token = (
      await exec(process.execPath, [BIN, 'tool', 'jwt', '--subject', 'gateway-1', '--expires', '1h'], {
        env: { ...process.env, LEDGER_NODE_JWT_SECRET: SECRET },
      })
    ).stdout.trim();
  });
  after(async () => {
    for (const s of stop.reverse()) await s().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('tool identity prints the running node key; /info shows it with the node ID', async () => {
    const printed = (await exec(process.execPath, [BIN, 'tool', 'identity', '--data-dir', join(dir, 'a')])).stdout;
    expect(printed).to.equal(`${a.identity}\n`);
    const info = await getJson(`${a.rest}/info`);
    expect(info.body.identity).to.deep.include({ publicKey: a.identity });
    expect((info.body.identity as { nodeId: string }).nodeId).to.match(/^[0-9a-f]{32}$/);
  });

  it('two nodes peered across addresses (B names A by key) agree on milestones', async () => {
    const index = await waitFor('B confirms milestones from A', async () => {
      const { body } = await getJson(`${b.rest}/info`);
      const confirmed = (body.status as { confirmedMilestone: { index: number } }).confirmedMilestone.index;
      return confirmed >= 3 ? confirmed : undefined;
    });
    const [fromA, fromB] = await Promise.all([
      getJson(`${a.rest}/milestones/by-index/${index}`),
      getJson(`${b.rest}/milestones/by-index/${index}`),
    ]);
    expect(fromA.status).to.equal(200);
    expect(fromB.body).to.deep.equal(fromA.body);
  });

  it('a standalone gateway on a third address serves REST and events through the token-guarded door', async () => {
    const gw = await runGateway(a.grpc, [], { LEDGER_GATEWAY_NODE_TOKEN: token });
    stop.push(() => gw.proc.stop());
    const info = await getJson(`${gw.rest}/info`);
    expect(info.status).to.equal(200);
    expect(info.body.identity).to.deep.include({ publicKey: a.identity });
    const s = await subscriber(`ws://127.0.0.6:${gw.port}/api/mqtt/v1`);
    try {
      expect(await s.subscribe(['milestone-info/latest'])).to.deep.equal([0]);
      const first = json(await s.next('milestone-info/latest'));
      await s.next('milestone-info/latest', (r) => (json(r).index as number) > (first.index as number));
    } finally {
      await s.close();
    }
  });

  it('without the token or with a wrong one, every call is refused: 503, the node refused the token', async () => {
    const none = await runGateway(a.grpc, [], {});
    stop.push(() => none.proc.stop());
    const wrong = await runGateway(a.grpc, ['--node-transport', 'unary'], {
      LEDGER_GATEWAY_NODE_TOKEN: signJwtHs256({ sub: 'x' }, 'not the secret'),
    });
    stop.push(() => wrong.proc.stop());
    for (const [gw, reason] of [
      [none, /UNAUTHENTICATED: missing bearer token/],
      [wrong, /UNAUTHENTICATED: invalid token signature/],
    ] as const) {
      for (const [path, init] of [
        ['/info', {}],
        ['/tips', {}],
        [
          '/blocks',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x01', data: '0x02' } }),
          },
        ],
      ] as const) {
        const res = await fetch(`${gw.rest}${path}`, init);
        const body = (await res.json()) as { error: { code: number; message: string } };
        expect(res.status, path).to.equal(503);
        expect(body.error.message, path)
          .to.match(/^service unavailable: the node refused this gateway's token \(/)
          .and.to.match(reason);
      }
    }
    // and straight over gRPC
    const client = new NodeServiceClient(a.grpc, credentials.createInsecure());
    const e = await new Promise<ServiceError | null>((resolve) =>
      client.getInfo({}, new Metadata(), (err) => resolve(err)),
    );
    client.close();
    expect(e?.code).to.equal(Status.UNAUTHENTICATED);
  });

  it('a NodeService call on the peer door is refused (UNIMPLEMENTED)', async () => {
    const client = new NodeServiceClient(a.peer, credentials.createInsecure());
    const e = await new Promise<ServiceError | null>((resolve) =>
      client.getInfo({}, new Metadata(), (err) => resolve(err)),
    );
    client.close();
    expect(e?.code).to.equal(Status.UNIMPLEMENTED);
  });

  it('a peer with an unexpected identity is dropped and logged with both keys; a bare HOST:PORT connects', async () => {
    const genesis = join(dir, 'a', 'genesis.json');
    const stranger = `0x${'11'.repeat(32)}`;
    const c = new NetNode('c', dir, {
      genesis,
      coordinator: false,
      restHost: '127.0.0.7',
      grpcHost: '127.0.0.7',
      peerHost: '127.0.0.7',
    });
    const d = new NetNode('d', dir, {
      genesis,
      coordinator: false,
      restHost: '127.0.0.8',
      grpcHost: '127.0.0.8',
      peerHost: '127.0.0.8',
    });
    stop.push(
      () => c.stop(),
      () => d.stop(),
    );
    await c.start([`${stranger}@${a.peer}`]);
    await d.start([a.peer]);
    await waitFor('D connected to A', async () =>
      d.running.testing.peering.connectedPeers() === 1 ? true : undefined,
    );
    const refused = await waitFor('C logs the refusal', async () =>
      c.logger.lines.find((l) => l.includes('is not the expected')),
    );
    expect(refused).to.contain(a.identity).and.to.contain(stranger).and.to.contain(a.peer);
    expect(c.running.testing.peering.connectedPeers()).to.equal(0);
    await c.stop();
    await d.stop();
  });

  it('a node service door beyond loopback without a secret does not start, and says why', async () => {
    const err = await exec(
      process.execPath,
      [
        BIN,
        'run',
        '--data-dir',
        join(dir, 'open'),
        '--grpc-host',
        '0.0.0.0',
        '--grpc-port',
        '0',
        '--peer-port',
        '0',
        '--rest-port',
        '0',
      ],
      { env: { ...process.env, LEDGER_NODE_JWT_SECRET: '' } },
    ).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).to.equal(2);
    expect(err?.stderr).to.match(/--grpc-host 0\.0\.0\.0 would open the node service door .* LEDGER_NODE_JWT_SECRET/);
  });
});
