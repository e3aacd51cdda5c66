/**
 * A test peer's side of the peer handshake (src/node/peering/handshake.ts): an identity key of its own, its Handshake
 * and, once the node's Handshake is known, its proof. Over a real gRPC stream, `connectAsPeer` does the whole exchange.
 */
import { credentials, type ChannelCredentials, type ClientDuplexStream } from '@grpc/grpc-js';
import { networkIdFromName } from '../src/core/ids/index.ts';
import { PeerServiceClient, type Handshake, type PeerMessage } from '../src/grpc/gen/peer.ts';
import { ephemeralIdentity, nodeIdOf, proveIdentity, type PeerIdentity } from '../src/node/peering/handshake.ts';
import { PEER_PROTOCOL } from '../src/node/peering/wire.ts';

export class TestPeer {
  readonly nonce = crypto.getRandomValues(new Uint8Array(32));

  constructor(readonly identity: PeerIdentity = ephemeralIdentity()) {}

  get nodeId(): Uint8Array {
    return nodeIdOf(this.identity.publicKey);
  }

  hello(networkName: string, overrides: Partial<Handshake> = {}): PeerMessage {
    const value: Handshake = {
      networkName,
      nodeId: this.nodeId,
      protocol: PEER_PROTOCOL,
      publicKey: this.identity.publicKey,
      nonce: this.nonce,
      ...overrides,
    };
    return { kind: { $case: 'handshake', value } };
  }

  /** The proof for the node whose Handshake (the first one in `sent`, or `theirs`) was received. */
  proof(networkName: string, theirs: PeerMessage | Handshake): PeerMessage {
    const h = 'kind' in theirs ? (theirs.kind?.$case === 'handshake' ? theirs.kind.value : undefined) : theirs;
    if (!h) throw new Error('not a handshake message');
    const signature = proveIdentity(this.identity, networkIdFromName(networkName), h.publicKey, h.nonce, this.nonce);
    return { kind: { $case: 'handshakeProof', value: { signature } } };
  }
}

/**
 * Opens a PeerService stream to `address` and completes the handshake as `peer`; resolves with the stream once the
 * node's proof arrived (the node counts us connected then too).
 */
export async function connectAsPeer(
  address: string,
  networkName: string,
  peer = new TestPeer(),
  channel: ChannelCredentials = credentials.createInsecure(),
): Promise<{ stream: ClientDuplexStream<PeerMessage, PeerMessage>; close(): void; received: PeerMessage[] }> {
  const client = new PeerServiceClient(address, channel);
  const stream = client.connect();
  const received: PeerMessage[] = [];
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (m: PeerMessage) => {
      received.push(m);
      if (m.kind?.$case === 'handshake') stream.write(peer.proof(networkName, m));
      if (m.kind?.$case === 'handshakeProof') resolve();
    });
    stream.on('error', reject);
    stream.on('end', () => reject(new Error('the node ended the stream during the handshake')));
    stream.write(peer.hello(networkName));
  });
  stream.removeAllListeners('error');
  stream.on('error', () => undefined);
  return { stream, received, close: () => client.close() };
}
