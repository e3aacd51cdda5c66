/**
 * Dialing from the peer door's address (src/node/peering/dial-from.ts) over real gRPC on loopback: a peer channel
 * bound to 127.0.25.12 reaches a peer door on 127.0.25.13 from 127.0.25.12 (addresses no fault test cuts), in
 * plaintext and over TLS (certificates made by openssl); unbound, the kernel picks 127.0.0.1. Which addresses are
 * bound: not a wildcard nor a host name, only the same IP family, and from loopback only to loopback.
 */
import { Server, ServerCredentials, credentials, type ServerDuplexStream } from '@grpc/grpc-js';
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PeerServiceService, type PeerMessage } from '../../../src/grpc/gen/peer.ts';
import { PEER_DOOR_OPTIONS } from '../../../src/node/doors.ts';
import { bindAddress, sourceAddressOf } from '../../../src/node/peering/dial-from.ts';
import { dialPeer, type PeerLink } from '../../../src/node/peering/link.ts';
import { heartbeat } from './support.ts';

const DOOR = '127.0.25.13';
const FROM = '127.0.25.12';

/** A peer door on DOOR that records the remote address of each stream and answers its first message. */
async function door(creds: ServerCredentials): Promise<{ port: number; remotes: string[]; close(): void }> {
  const remotes: string[] = [];
  const server = new Server(PEER_DOOR_OPTIONS);
  server.addService(PeerServiceService, {
    connect(call: ServerDuplexStream<PeerMessage, PeerMessage>) {
      remotes.push(call.getPeer());
      call.once('data', () => call.write(heartbeat()));
      call.on('error', () => undefined);
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${DOOR}:0`, creds, (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { port, remotes, close: () => server.forceShutdown() };
}

/** Sends a message on `link` and resolves once the door answered. */
function roundTrip(link: PeerLink): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no answer from the door within 5 s')), 5000);
    link.onMessage(() => {
      clearTimeout(timer);
      resolve();
    });
    link.send(heartbeat());
  });
}

describe('peering: dialing from the peer door address', function () {
  this.timeout(20000);
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0).reverse()) c();
  });

  it('a channel bound to FROM reaches the door from FROM; an unbound one from 127.0.0.1', async () => {
    const d = await door(ServerCredentials.createInsecure());
    cleanups.push(d.close);
    const bound = dialPeer(`${DOOR}:${d.port}`, credentials.createInsecure(), FROM);
    cleanups.push(() => bound.close());
    await roundTrip(bound);
    const plain = dialPeer(`${DOOR}:${d.port}`);
    cleanups.push(() => plain.close());
    await roundTrip(plain);
    expect(d.remotes).to.have.length(2);
    expect(d.remotes[0]).to.match(/(^|:)127\.0\.25\.12:\d+$/);
    expect(d.remotes[1]).to.match(/(^|:)127\.0\.0\.1:\d+$/);
    expect(bound.address).to.equal(`${DOOR}:${d.port}`);
  });

  it('over TLS, checked against the door certificate, the channel is bound as well', async function () {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-dial-from-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    try {
      const subject = ['-subj', '/CN=ledger-node test', '-addext', `subjectAltName=IP:${DOOR}`];
      const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
      execFileSync('openssl', [...args, '-keyout', key, '-out', cert, '-days', '1', ...subject], {
        stdio: 'ignore',
      });
    } catch {
      this.skip(); // no openssl on this machine: node:crypto cannot issue certificates
    }
    const pem = readFileSync(cert);
    const creds = ServerCredentials.createSsl(null, [{ cert_chain: pem, private_key: readFileSync(key) }], false);
    const d = await door(creds);
    cleanups.push(d.close);
    const link = dialPeer(`${DOOR}:${d.port}`, credentials.createSsl(pem), FROM);
    cleanups.push(() => link.close());
    await roundTrip(link);
    expect(d.remotes).to.have.length(1);
    expect(d.remotes[0]).to.match(/(^|:)127\.0\.25\.12:\d+$/);
  });

  it('binds an IP literal door, not a wildcard nor a host name', () => {
    expect(sourceAddressOf('127.0.0.3')).to.equal('127.0.0.3');
    expect(sourceAddressOf('10.0.0.1')).to.equal('10.0.0.1');
    expect(sourceAddressOf('[fd00::1]')).to.equal('fd00::1');
    expect(sourceAddressOf('::1')).to.equal('::1');
    for (const wildcard of ['0.0.0.0', '::', '[::]', '0:0:0:0:0:0:0:0', 'localhost', 'node-a.example'])
      expect(sourceAddressOf(wildcard), wildcard).to.equal(undefined);
  });

  it('binds only addresses of the same family, and from loopback only loopback ones', () => {
    const to = (host: string) => ({ host, port: 15600 });
    expect(bindAddress(to('127.0.0.3'), '127.0.0.2')).to.deep.equal({ ...to('127.0.0.3'), localAddress: '127.0.0.2' });
    expect(bindAddress(to('10.0.0.5'), '10.0.0.1')).to.deep.equal({ ...to('10.0.0.5'), localAddress: '10.0.0.1' });
    expect(bindAddress(to('10.0.0.5'), '127.0.0.2')).to.deep.equal(to('10.0.0.5'));
    expect(bindAddress(to('::1'), '127.0.0.2')).to.deep.equal(to('::1'));
    expect(bindAddress(to('127.0.0.3'), '::1')).to.deep.equal(to('127.0.0.3'));
    expect(bindAddress({ path: 'peer.sock' }, '127.0.0.2')).to.deep.equal({ path: 'peer.sock' });
  });
});
