/**
 * Peer identity (src/node/peering/identity.ts, src/node/peering/handshake.ts) over in-memory links: the identity key
 * file (created 0600, stable, read by `tool identity`), the handshake's proof (a replayed or forged proof, a proof
 * before the handshake, a node ID that is not the key's, a key of small order: dropped), and static peers named with
 * their key (`0xPUBKEY@HOST:PORT`): the right key connects, another is refused with a log line naming both keys.
 */
import { expect } from 'chai';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toHex0x } from '../../../src/core/bytes.ts';
import { networkIdFromName } from '../../../src/core/ids/index.ts';
import { toolIdentity } from '../../../src/cli/tool-identity.ts';
import { IDENTITY_FILE, loadOrCreateIdentity, readIdentity } from '../../../src/node/peering/identity.ts';
import {
  ephemeralIdentity,
  nodeIdOf,
  proofVerifies,
  proveIdentity,
  usableIdentityKey,
} from '../../../src/node/peering/handshake.ts';
import type { PeeringOptions } from '../../../src/node/peering/manager.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';
import { tempDir, until } from '../support.ts';
import { MemLink, peeringHarness, type PeeringHarness } from './support.ts';

const NETWORK = 'identity-test';
const node = (options: Partial<PeeringOptions> = {}): Promise<PeeringHarness> =>
  peeringHarness(NETWORK, { backoffBaseMs: 5000, ...options });

describe('peer identity: the key file', () => {
  const dir = tempDir('ledger-identity-');

  it('is created once with mode 0600, read back the same, and printed by tool identity', () => {
    const first = loadOrCreateIdentity(dir.path);
    expect(first.created).to.equal(true);
    expect(statSync(join(dir.path, IDENTITY_FILE)).mode & 0o777).to.equal(0o600);
    const again = loadOrCreateIdentity(dir.path);
    expect(again.created).to.equal(false);
    expect(toHex0x(again.identity.publicKey)).to.equal(toHex0x(first.identity.publicKey));
    expect(again.identity.nodeId).to.deep.equal(nodeIdOf(first.identity.publicKey));
    // the file's key signs what its public key verifies
    const msg = new TextEncoder().encode('x');
    const peer = ephemeralIdentity();
    const sig = proveIdentity(again.identity, 1n, peer.publicKey, msg, msg);
    expect(proofVerifies(1n, peer.publicKey, msg, again.identity.publicKey, msg, sig)).to.equal(true);
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      expect(toolIdentity(['--data-dir', dir.path])).to.equal(0);
    } finally {
      console.log = log;
    }
    expect(lines).to.deep.equal([toHex0x(first.identity.publicKey)]);
  });

  it('tool identity: exit 1 without a key, a file that is no Ed25519 key is refused', () => {
    const err = console.error;
    console.error = () => undefined;
    try {
      expect(toolIdentity(['--data-dir', dir.path])).to.equal(1);
      expect(toolIdentity([])).to.equal(2);
    } finally {
      console.error = err;
    }
    writeFileSync(join(dir.path, IDENTITY_FILE), 'not a key');
    expect(() => readIdentity(dir.path)).to.throw(/not a PEM private key/);
  });
});

describe('peer identity: the handshake', () => {
  let n: PeeringHarness | undefined;
  afterEach(async () => {
    await n?.close();
    n = undefined;
  });

  it('connects a peer only once its proof verifies; a replayed proof of an earlier stream is refused', async () => {
    n = await node();
    const peer = new TestPeer();
    const one = new MemLink('one', true);
    n.peering.accept(one);
    one.deliver(peer.hello(NETWORK));
    expect(n.peering.connectedPeers()).to.equal(0);
    // the node proved its key over our nonce
    const theirs = one.first('handshake').kind!.value as { publicKey: Uint8Array; nonce: Uint8Array };
    const proof = one.first('handshakeProof').kind!.value as { signature: Uint8Array };
    expect(
      proofVerifies(
        networkIdFromName(NETWORK),
        peer.identity.publicKey,
        peer.nonce,
        theirs.publicKey,
        theirs.nonce,
        proof.signature,
      ),
    ).to.equal(true);
    const ours = peer.proof(NETWORK, one.first('handshake'));
    one.deliver(ours);
    expect(n.peering.connectedPeers()).to.equal(1);
    // a second stream: the same handshake and the recorded proof (signed over the first stream's nonce)
    const two = new MemLink('two', true);
    n.peering.accept(two);
    two.deliver(peer.hello(NETWORK));
    two.deliver(ours);
    expect(two.closed).to.equal(true);
    expect(n.logger.lines.join('\n')).to.contain('its handshake proof does not verify');
    // nor does anybody else's key go with a proof made by another key
    const forger = new TestPeer();
    const three = new MemLink('three', true);
    n.peering.accept(three);
    three.deliver(forger.hello(NETWORK, { publicKey: peer.identity.publicKey, nodeId: peer.nodeId }));
    three.deliver(forger.proof(NETWORK, three.first('handshake')));
    expect(three.closed).to.equal(true);
    expect(n.peering.connectedPeers()).to.equal(1);
  });

  for (const [name, send, reason] of [
    [
      'a proof before the handshake',
      (l: MemLink, p: TestPeer) => l.deliver(p.proof(NETWORK, l.first('handshake'))),
      'a handshake proof before the handshake',
    ],
    [
      "a node ID that is not its key's",
      (l: MemLink, p: TestPeer) => l.deliver(p.hello(NETWORK, { nodeId: new Uint8Array(16).fill(1) })),
      'is not the one of its identity key',
    ],
    [
      'a key of small order',
      (l: MemLink, p: TestPeer) => l.deliver(p.hello(NETWORK, { publicKey: Uint8Array.of(1, ...new Uint8Array(31)) })),
      'no usable Ed25519 public key',
    ],
    [
      'a short nonce',
      (l: MemLink, p: TestPeer) => l.deliver(p.hello(NETWORK, { nonce: new Uint8Array(8) })),
      'nonce of 8 bytes',
    ],
    [
      'protocol 1 (no identity)',
      (l: MemLink, p: TestPeer) => l.deliver(p.hello(NETWORK, { protocol: 1 })),
      'peer protocol 1, this node speaks 2',
    ],
  ] as [string, (l: MemLink, p: TestPeer) => void, string][]) {
    it(`drops a peer sending ${name}`, async () => {
      n = await node();
      const link = new MemLink('x', true);
      n.peering.accept(link);
      send(link, new TestPeer());
      expect(link.closed).to.equal(true);
      expect(n.logger.lines.filter((l) => l.includes('dropped')).join('\n')).to.contain(reason);
    });
  }

  it('a small-order key is no usable identity; a real one is', () => {
    expect(usableIdentityKey(new Uint8Array(32))).to.equal(false);
    expect(usableIdentityKey(ephemeralIdentity().publicKey)).to.equal(true);
    expect(usableIdentityKey(new Uint8Array(31))).to.equal(false);
  });

  it('a static peer 0xPUBKEY@HOST:PORT: the right key connects, another is refused and logged with both', async () => {
    const right = new TestPeer();
    const links = new Map<string, MemLink>();
    const dial = (address: string): MemLink => {
      const link = new MemLink(address, false);
      links.set(address, link);
      return link;
    };
    n = await node({
      peers: [`${toHex0x(right.identity.publicKey)}@good:1`, `${toHex0x(right.identity.publicKey)}@bad:2`, 'any:3'],
      dial,
    });
    const good = links.get('good:1')!;
    good.deliver(right.hello(NETWORK));
    good.deliver(right.proof(NETWORK, good.first('handshake')));
    const impostor = new TestPeer();
    const bad = links.get('bad:2')!;
    bad.deliver(impostor.hello(NETWORK));
    expect(bad.closed).to.equal(true);
    // refused before we prove anything to it
    expect(bad.sent.some((m) => m.kind?.$case === 'handshakeProof')).to.equal(false);
    const line = n.logger.lines.find((l) => l.includes('bad:2') && l.includes('dropped'));
    expect(line).to.contain(toHex0x(impostor.identity.publicKey)).and.to.contain(toHex0x(right.identity.publicKey));
    // a bare HOST:PORT accepts any identity
    const any = links.get('any:3')!;
    any.deliver(impostor.hello(NETWORK));
    any.deliver(impostor.proof(NETWORK, any.first('handshake')));
    await until('two peers', () => n!.peering.connectedPeers() === 2, 2000);
    expect(n.peering.peerInfos().find((p) => p.address === 'good:1')?.id).to.equal(
      Buffer.from(right.nodeId).toString('hex'),
    );
  });

  it('the node ID and /info identity derive from the identity key', async () => {
    const identity = ephemeralIdentity();
    n = await node({ identity });
    expect(n.peering.nodeId).to.deep.equal(nodeIdOf(identity.publicKey));
    const info = await n.service.getInfo();
    expect(info.identity).to.deep.equal({ publicKey: identity.publicKey, nodeId: nodeIdOf(identity.publicKey) });
  });
});
