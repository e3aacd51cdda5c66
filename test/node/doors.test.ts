/**
 * The node's doors (src/node/doors.ts, src/node/grpc/guards.ts) in one process over real gRPC: with a secret, every
 * call on the node service door needs a bearer token (none, malformed, a bad signature, expired: UNAUTHENTICATED; a
 * token scoped to REST only: PERMISSION_DENIED; unary calls, the NodeMux and NodeEvents streams alike; a stream
 * whose token expires is ended); the peer door serves the PeerService alone and the node door no PeerService; a node
 * service door beyond loopback without a secret refuses to start; TLS on both doors (certificates made by openssl).
 */
import { credentials, Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMuxNodePort } from '../../gateway/mux-client.ts';
import { nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from '../../gateway/node-channel.ts';
import { signJwtHs256 } from '../../src/grpc/jwt.ts';
import type { NodeCallError } from '../../src/grpc/port.ts';
import { NodeEventsClient } from '../../src/grpc/gen/events.ts';
import { NodeServiceClient, type InfoResponse } from '../../src/grpc/gen/node.ts';
import { PeerServiceClient } from '../../src/grpc/gen/peer.ts';
import { ConfigError, type NodeConfig } from '../../src/node/config.ts';
import { isLoopbackHost } from '../../src/node/doors.ts';
import type { RunningNode, StartOptions } from '../../src/node/node.ts';
import { startConfiguredNode, type ConfiguredNode } from '../../harness/node.ts';

const SECRET = 'doors-test-secret';
const now = (): number => Math.floor(Date.now() / 1000);
const token = (claims: Record<string, unknown> = {}, secret = SECRET): string =>
  signJwtHs256({ sub: 'test', iat: now(), ...claims }, secret);

function info(client: NodeServiceClient, metadata = new Metadata()): Promise<InfoResponse> {
  return new Promise((resolve, reject) =>
    client.getInfo({}, metadata, { deadline: Date.now() + 5000 }, (err, res) => (err ? reject(err) : resolve(res))),
  );
}

async function refusal(p: Promise<unknown>): Promise<ServiceError> {
  try {
    await p;
  } catch (e) {
    return e as ServiceError;
  }
  throw new Error('the call was served');
}

/** The first event batch of a NodeEvents stream, or its error. */
function firstBatch(client: NodeEventsClient): Promise<'batch' | ServiceError> {
  return new Promise((resolve) => {
    const call = client.subscribe({});
    call.on('data', () => {
      call.cancel();
      resolve('batch');
    });
    call.on('error', (e: ServiceError) => resolve(e));
  });
}

describe('node doors', function () {
  this.timeout(30_000);
  const dirs: string[] = [];
  const nodes: ConfiguredNode[] = [];
  /** A node of `config` (no PoW, a milestone every 0.3 s) with `options` (default: no REST), each in its own folder. */
  const start = async (config: Partial<NodeConfig> = {}, options: StartOptions = {}): Promise<RunningNode> => {
    const n = await startConfiguredNode(
      { powWorkers: 0, minPowScore: 0, milestoneInterval: 0.3, ...config },
      { rest: false, ...options },
    );
    nodes.push(n);
    return n.node;
  };
  /** With the node service door guarded by `secret`. */
  const guarded = (secret: string) => ({ nodeJwtSecret: secret });
  after(async () => {
    for (const n of nodes) await n.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  describe('the node service door with a secret', () => {
    let node: RunningNode;
    let address: string;
    const client = (security?: NodeChannelSecurity): NodeServiceClient =>
      new NodeServiceClient(address, nodeCredentials(security), nodeClientOptions(security));
    before(async () => {
      node = await start({}, guarded(SECRET));
      address = `127.0.0.1:${node.grpcPort}`;
    });

    for (const [name, header, code, reason] of [
      ['no token', undefined, Status.UNAUTHENTICATED, /missing bearer token/],
      ['a header that is no bearer token', 'Basic dXNlcjpwdw==', Status.UNAUTHENTICATED, /malformed authorization/],
      [
        'a token of another secret',
        `Bearer ${token({}, 'another secret')}`,
        Status.UNAUTHENTICATED,
        /invalid token signature/,
      ],
      ['an expired token', `Bearer ${token({ exp: now() - 10 })}`, Status.UNAUTHENTICATED, /token expired/],
      ['a token not valid yet', `Bearer ${token({ nbf: now() + 600 })}`, Status.UNAUTHENTICATED, /not valid yet/],
      [
        'a token for REST only',
        `Bearer ${token({ scope: 'rest' })}`,
        Status.PERMISSION_DENIED,
        /scope "rest" does not include "node"/,
      ],
    ] as [string, string | undefined, Status, RegExp][]) {
      it(`refuses a unary call with ${name}: ${Status[code]}`, async () => {
        const m = new Metadata();
        if (header !== undefined) m.set('authorization', header);
        const c = client();
        const e = await refusal(info(c, m));
        c.close();
        expect(e.code).to.equal(code);
        expect(e.details).to.match(reason);
      });
    }

    it('serves unary calls with a good token (no scope, or scoped to node); /info carries the identity', async () => {
      for (const t of [token(), token({ scope: 'node' }), token({ scope: 'rest node', exp: now() + 600 })]) {
        const c = client({ token: t });
        const answer = await info(c);
        c.close();
        expect(answer.identity?.publicKey).to.deep.equal(node.identity.publicKey);
      }
    });

    it('guards the streams too: NodeMux and NodeEvents', async () => {
      const mux = createMuxNodePort(address, { onFallback: () => undefined });
      const e = await refusal(mux.getInfo({}, { deadline: Date.now() + 5000 }));
      expect((e as unknown as NodeCallError).grpcCode).to.equal(Status.UNAUTHENTICATED);
      mux.close();
      const muxOk = createMuxNodePort(address, { security: { token: token() } });
      expect((await muxOk.getInfo({}, { deadline: Date.now() + 5000 })).name).to.equal('ledger-node');
      muxOk.close();
      const events = new NodeEventsClient(address, credentials.createInsecure());
      const refused = await firstBatch(events);
      events.close();
      expect(refused).to.not.equal('batch');
      expect((refused as ServiceError).code).to.equal(Status.UNAUTHENTICATED);
      const good = new NodeEventsClient(address, nodeCredentials(undefined), nodeClientOptions({ token: token() }));
      expect(await firstBatch(good)).to.equal('batch');
      good.close();
    });

    it('ends a stream when its token expires', async () => {
      const expiring = new NodeEventsClient(
        address,
        nodeCredentials(undefined),
        nodeClientOptions({ token: token({ exp: now() + 2 }) }),
      );
      const started = Date.now();
      const ended = await new Promise<ServiceError>((resolve) => {
        const call = expiring.subscribe({});
        call.on('data', () => undefined);
        call.on('error', resolve);
      });
      expiring.close();
      expect(ended.code).to.equal(Status.UNAUTHENTICATED);
      expect(ended.details).to.match(/token expired/);
      expect(Date.now() - started).to.be.within(500, 3500);
    });

    it('the peer door serves the PeerService alone; the node door no PeerService', async () => {
      const onPeerDoor = new NodeServiceClient(`127.0.0.1:${node.peerPort}`, credentials.createInsecure());
      const e = await refusal(info(onPeerDoor, new Metadata()));
      onPeerDoor.close();
      expect(e.code).to.equal(Status.UNIMPLEMENTED);
      const peerOnNodeDoor = new PeerServiceClient(
        address,
        nodeCredentials(undefined),
        nodeClientOptions({ token: token() }),
      );
      const stream = peerOnNodeDoor.connect();
      const err = await new Promise<ServiceError>((resolve) => {
        stream.on('error', resolve);
        stream.on('data', () => undefined);
      });
      peerOnNodeDoor.close();
      expect(err.code).to.equal(Status.UNIMPLEMENTED);
    });
  });

  it("the node's own REST gateway over its guarded door (restTransport grpc or mux) has its own token", async () => {
    for (const restTransport of ['grpc', 'mux'] as const) {
      const n = await start({}, { ...guarded(SECRET), rest: true, restTransport });
      const res = await fetch(`http://127.0.0.1:${n.restPort}/api/core/v2/info`);
      expect(res.status, restTransport).to.equal(200);
      expect(((await res.json()) as { identity: { publicKey: string } }).identity.publicKey).to.equal(
        `0x${Buffer.from(n.identity.publicKey).toString('hex')}`,
      );
    }
  });

  describe('bind policy', () => {
    it('loopback is 127.0.0.0/8, ::1 and localhost', () => {
      for (const h of ['127.0.0.1', '127.0.0.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
        expect(isLoopbackHost(h), h).to.equal(true);
      for (const h of ['0.0.0.0', '::', '10.0.0.1', 'node.example', '128.0.0.1'])
        expect(isLoopbackHost(h), h).to.equal(false);
    });

    it('a node service door beyond loopback without a secret refuses to start and says why', async () => {
      let error: unknown;
      try {
        await start({ grpcHost: '0.0.0.0' });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(ConfigError);
      expect((error as Error).message).to.match(/--grpc-host 0\.0\.0\.0 .*LEDGER_NODE_JWT_SECRET/);
    });
  });

  describe('TLS', () => {
    let pki: { cert: string; key: string; ca: Buffer } | undefined;
    before(function () {
      const dir = mkdtempSync(join(tmpdir(), 'ledger-tls-'));
      dirs.push(dir);
      const cert = join(dir, 'cert.pem');
      const key = join(dir, 'key.pem');
      try {
        execFileSync(
          'openssl',
          [
            'req',
            '-x509',
            '-newkey',
            'ec',
            '-pkeyopt',
            'ec_paramgen_curve:prime256v1',
            '-nodes',
            '-keyout',
            key,
            '-out',
            cert,
            '-days',
            '1',
            '-subj',
            '/CN=ledger-node test',
            '-addext',
            'subjectAltName=IP:127.0.0.1,DNS:localhost',
          ],
          { stdio: 'ignore' },
        );
      } catch {
        this.skip(); // no openssl on this machine: node:crypto cannot issue certificates
      }
      pki = { cert, key, ca: readFileSync(cert) };
    });

    it('the node service door over TLS: a trusting client with a token is served, a plaintext one is not', async () => {
      const node = await start({ grpcTlsCert: pki!.cert, grpcTlsKey: pki!.key }, guarded(SECRET));
      const address = `127.0.0.1:${node.grpcPort}`;
      const tls = new NodeServiceClient(
        address,
        nodeCredentials({ tlsCa: pki!.ca }),
        nodeClientOptions({ token: token() }),
      );
      expect((await info(tls)).name).to.equal('ledger-node');
      tls.close();
      const plain = new NodeServiceClient(address, credentials.createInsecure(), nodeClientOptions({ token: token() }));
      expect((await refusal(info(plain))).code).to.equal(Status.UNAVAILABLE);
      plain.close();
    });

    it('the peer door over TLS: a node dialing with --peer-tls-ca connects and proves identities', async () => {
      const a = await start({ peerTlsCert: pki!.cert, peerTlsKey: pki!.key });
      const key = `0x${Buffer.from(a.identity.publicKey).toString('hex')}`;
      const b = await start({ peerTlsCa: pki!.cert, peers: [`${key}@127.0.0.1:${a.peerPort}`], coordinator: false });
      // each side counts the peer once its handshake is done there: wait for both
      const deadline = Date.now() + 10_000;
      const connected = (): boolean => b.testing.peering.connectedPeers() > 0 && a.testing.peering.connectedPeers() > 0;
      while (!connected() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(b.testing.peering.connectedPeers()).to.equal(1);
      expect(a.testing.peering.connectedPeers()).to.equal(1);
    });
  });
});
