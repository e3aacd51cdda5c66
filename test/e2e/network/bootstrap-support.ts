/**
 * For the bootstrap tests: a node started in-process (harness/node.ts) with bootstrap options (fast retries), signed
 * transfers from the genesis coins, and a fake peer: a PeerService that completes the handshake like a node of the
 * network and then serves a (possibly tampered) snapshot offer and file.
 */
import { Server, ServerCredentials, type ServerDuplexStream, type ServerWritableStream } from '@grpc/grpc-js';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../../src/core/crypto/index.ts';
import { networkIdFromName } from '../../../src/core/ids/index.ts';
import type { BasicOutput, Block, Ed25519Address, TransactionPayload } from '../../../src/core/model/index.ts';
import {
  PeerServiceService,
  type PeerMessage,
  type SnapshotChunk,
  type SnapshotDownload,
  type SnapshotOffer,
} from '../../../src/grpc/gen/peer.ts';
import type { BootstrapOptions } from '../../../src/node/snapshots/open-from-peer.ts';
import type { ComposedNode } from '../../../src/node/compose.ts';
import type { NodeConfig } from '../../../src/node/config.ts';
import type { RunningNode } from '../../../src/node/node.ts';
import { basicOutput, outputsOf, signedTransaction } from '../../../harness/fixtures/transactions.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';
import { CollectingLogger, startConfiguredNode } from '../../../harness/node.ts';
import { FAST_PEERING } from './support.ts';

export const FAST_BOOTSTRAP: Partial<BootstrapOptions> = {
  rounds: 1,
  retryMs: 100,
  offerTimeoutMs: 15_000,
  stallTimeoutMs: 5_000,
};

export async function startBootstrapping(
  dataDir: string,
  config: Partial<NodeConfig>,
  bootstrap: Partial<BootstrapOptions> = FAST_BOOTSTRAP,
  logger = new CollectingLogger(),
): Promise<{ node: RunningNode; logger: CollectingLogger }> {
  const options = { dataDir, logger, peering: FAST_PEERING, bootstrap };
  const { node } = await startConfiguredNode({ powWorkers: 0, coordinator: false, ...config }, options);
  return { node, logger };
}

export interface Coin {
  outputId: Uint8Array;
  output: BasicOutput;
}

export const addressOf = (seed: Uint8Array): Ed25519Address =>
  ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(seed));

/** Spends `coin` (owned by `seed`): `amount` to `to`, the rest back; the payload and the two new coins. */
export function transfer(
  networkName: string,
  seed: Uint8Array,
  coin: Coin,
  to: Ed25519Address,
  amount: bigint,
): { tx: TransactionPayload; change: Coin } {
  const outputs = [basicOutput(amount, to), basicOutput(coin.output.amount - amount, addressOf(seed))];
  const tx = signedTransaction(networkIdFromName(networkName), seed, [coin], outputs);
  return { tx, change: { outputId: outputsOf(tx)[1]!.outputId, output: outputs[1]! } };
}

/** Submits a block with `payload` on tips the node selects (min PoW score 0: no proof of work). */
export async function submit(parts: ComposedNode, payload: TransactionPayload): Promise<Uint8Array> {
  const block: Block = { protocolVersion: 2, parents: await parts.tips.select(Math.random), payload, nonce: 1n };
  return (await parts.service.submitBlock({ block: { $case: 'raw', value: encodeBlock(block) } })).blockId;
}

/** What the fake peer serves: an offer and the bytes behind it; `cut` ends the stream after that many bytes. */
export interface FakeSnapshot {
  offer: Omit<SnapshotOffer, 'ticket' | 'chunkSize' | 'reason'>;
  bytes: Uint8Array;
  cut?: number;
}

export interface FakePeer {
  address: string;
  /** Offsets DownloadSnapshot was called with. */
  offsets: bigint[];
  serve: FakeSnapshot;
  close(): Promise<void>;
}

/** A PeerService on loopback that handshakes as a node of `networkName` and serves `serve`. */
export async function fakePeer(networkName: string, serve: FakeSnapshot): Promise<FakePeer> {
  const me = new TestPeer();
  const offsets: bigint[] = [];
  const fake: FakePeer = { address: '', offsets, serve, close: async () => undefined };
  const server = new Server();
  server.addService(PeerServiceService, {
    connect: (call: ServerDuplexStream<PeerMessage, PeerMessage>) => {
      call.on('error', () => undefined);
      call.on('data', (m: PeerMessage) => {
        if (m.kind?.$case === 'handshake') {
          call.write(me.hello(networkName));
          call.write(me.proof(networkName, m));
        } else if (m.kind?.$case === 'snapshotRequest') {
          call.write({
            kind: {
              $case: 'snapshotOffer',
              value: { ...fake.serve.offer, ticket: new Uint8Array(16).fill(7), chunkSize: 4096, reason: '' },
            },
          });
        }
      });
    },
    downloadSnapshot: (call: ServerWritableStream<SnapshotDownload, SnapshotChunk>) => {
      offsets.push(call.request.offset);
      const { bytes, cut } = fake.serve;
      const end = Math.min(bytes.length, cut ?? bytes.length);
      for (let o = Number(call.request.offset); o < end; o += 4096)
        call.write({ offset: BigInt(o), data: bytes.slice(o, Math.min(o + 4096, end)) });
      call.end();
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  fake.address = `127.0.0.1:${port}`;
  fake.close = () => new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  return fake;
}
