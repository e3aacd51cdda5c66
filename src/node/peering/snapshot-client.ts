/**
 * The bootstrapping node's side of the snapshot exchange (snapshot-server.ts has the other): it dials a peer's door,
 * runs the peer handshake of protocol 2 with its own identity key (peering/handshake.ts; a peer named
 * `0xPUBKEY@HOST:PORT` must prove that key), sends a SnapshotRequest and waits for the SnapshotOffer; then `download`
 * fetches the file through DownloadSnapshot into a part file, appending from where an earlier attempt stopped when the
 * offer is the same file (same size and hash), checking every chunk's offset and size and hashing as it goes. Nothing
 * the peer sends is trusted here: a failed check is a BootstrapRefusal naming it.
 */
import { credentials, type ChannelCredentials } from '@grpc/grpc-js';
import { createReadStream, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { blake2b } from '@noble/hashes/blake2.js';
import { equalBytes, toHex, toHex0x } from '../../core/bytes.ts';
import {
  PeerServiceClient,
  type Handshake,
  type PeerMessage,
  type SnapshotChunk,
  type SnapshotOffer,
} from '../../grpc/gen/peer.ts';
import { BootstrapRefusal, refuse } from '../snapshots/verify.ts';
import { peerTarget } from './addresses.ts';
import {
  NONCE_BYTES,
  nodeIdOf,
  ownHandshake,
  proofVerifies,
  proveIdentity,
  usableIdentityKey,
  type PeerIdentity,
} from './handshake.ts';
import { MAX_PEER_MESSAGE } from './link.ts';
import { PEER_PROTOCOL } from './wire.ts';

export interface ClientContext {
  identity: PeerIdentity;
  networkName: string;
  networkId: bigint;
  channel?: ChannelCredentials;
  /** Handshake and offer (the peer may first write its snapshot). */
  offerTimeoutMs: number;
  /** Longest pause between two chunks. */
  stallTimeoutMs: number;
}

/** A peer that offered a snapshot: its offer, and its channel for the download. */
export interface OfferingPeer {
  address: string;
  nodeId: string;
  offer: SnapshotOffer;
  client: PeerServiceClient;
  close(): void;
}

/** Handshakes with `raw` (`[0xPUBKEY@]HOST:PORT`) and asks for a snapshot (`index` 0: the peer's choice). */
export function requestOffer(raw: string, ctx: ClientContext, index = 0): Promise<OfferingPeer> {
  const { address, publicKey: expected } = peerTarget(raw);
  const client = new PeerServiceClient(address, ctx.channel ?? credentials.createInsecure(), {
    'grpc.max_receive_message_length': MAX_PEER_MESSAGE,
    'grpc.max_send_message_length': MAX_PEER_MESSAGE,
    'grpc.enable_channelz': 0,
    // a connection of its own, not one shared with the peer layer's channels to the same door
    'grpc.use_local_subchannel_pool': 1,
  });
  const stream = client.connect();
  const hello = ownHandshake(ctx.identity, ctx.networkName);
  const { nonce, publicKey: ours } = hello;
  return new Promise<OfferingPeer>((resolve, reject) => {
    let theirs: Handshake | undefined;
    let nodeId: string | undefined;
    let settled = false;
    const finish = (e: Error | undefined, offer?: SnapshotOffer): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.on('error', () => undefined);
      stream.cancel();
      if (e) {
        client.close();
        reject(e);
      } else resolve({ address, nodeId: nodeId!, offer: offer!, client, close: () => client.close() });
    };
    const timer = setTimeout(
      () => finish(new BootstrapRefusal(`no snapshot offer within ${ctx.offerTimeoutMs} ms`)),
      ctx.offerTimeoutMs,
    );
    const send = (m: PeerMessage): void => void stream.write(m);
    stream.on('error', (e: Error) => finish(new BootstrapRefusal(`stream failed: ${e.message}`)));
    stream.on('end', () => finish(new BootstrapRefusal('the peer ended the stream')));
    stream.on('data', (m: PeerMessage) => {
      try {
        const kind = m.kind;
        if (kind?.$case === 'handshake') {
          if (theirs) refuse('a second handshake');
          const h = kind.value;
          if (h.protocol !== PEER_PROTOCOL) refuse(`peer protocol ${h.protocol}, this node speaks ${PEER_PROTOCOL}`);
          if (h.networkName !== ctx.networkName)
            refuse(`network "${h.networkName}" is not "${ctx.networkName}" of the milestone keys' file`);
          if (
            !usableIdentityKey(h.publicKey) ||
            h.nonce.length !== NONCE_BYTES ||
            !equalBytes(h.nodeId, nodeIdOf(h.publicKey))
          )
            refuse('a malformed handshake');
          if (expected && !equalBytes(expected, h.publicKey))
            refuse(`its identity key ${toHex0x(h.publicKey)} is not the expected ${toHex0x(expected)}`);
          theirs = h;
          send({
            kind: {
              $case: 'handshakeProof',
              value: { signature: proveIdentity(ctx.identity, ctx.networkId, h.publicKey, h.nonce, nonce) },
            },
          });
        } else if (kind?.$case === 'handshakeProof') {
          if (!theirs || nodeId) refuse('a handshake proof out of turn');
          if (!proofVerifies(ctx.networkId, ours, nonce, theirs.publicKey, theirs.nonce, kind.value.signature))
            refuse('its handshake proof does not verify');
          nodeId = toHex(nodeIdOf(theirs.publicKey));
          send({ kind: { $case: 'snapshotRequest', value: { index } } });
        } else if (kind?.$case === 'snapshotOffer') {
          if (!nodeId) refuse('a snapshot offer before the handshake');
          if (kind.value.index === 0) refuse(`it serves no snapshot now: ${kind.value.reason || 'no reason given'}`);
          finish(undefined, kind.value);
        }
        // gossip, heartbeats and requests meanwhile are not for a node that has no ledger yet
      } catch (e) {
        finish(e as Error);
      }
    });
    send({ kind: { $case: 'handshake', value: hello } });
  });
}

/** What a part file holds: the offer it belongs to (`<part>.json` beside it). */
interface PartInfo {
  index: number;
  size: string;
  hash: string;
}

/** The bytes of `part` already fetched for this offer (0 when it holds another file, which is removed). */
function resumable(part: string, offer: SnapshotOffer): number {
  const info = `${part}.json`;
  try {
    const meta = JSON.parse(readFileSync(info, 'utf8')) as PartInfo;
    if (
      meta.index === offer.index &&
      meta.size === String(offer.size) &&
      meta.hash === toHex(offer.hash) &&
      existsSync(part)
    ) {
      return Math.min(statSync(part).size, Number(offer.size));
    }
  } catch {
    // no part of an earlier attempt
  }
  rmSync(part, { force: true });
  const meta: PartInfo = { index: offer.index, size: String(offer.size), hash: toHex(offer.hash) };
  writeFileSync(info, JSON.stringify(meta));
  return 0;
}

/**
 * Fetches the offered file into `part` (resuming a part of the same offer), checks it has exactly the offered size and
 * hash, and returns. A wrong hash removes the part (the next attempt starts over); a stall or a cut keeps it.
 */
export async function download(
  peer: OfferingPeer,
  part: string,
  ctx: ClientContext,
  progress: (bytes: number, total: number) => void,
): Promise<{ resumedAt: number }> {
  const { offer } = peer;
  const size = Number(offer.size);
  const resumedAt = resumable(part, offer);
  const hash = blake2b.create({ dkLen: 32 });
  if (resumedAt > 0) {
    let left = resumedAt;
    for await (const chunk of createReadStream(part, { end: resumedAt - 1 }) as AsyncIterable<Buffer>) {
      hash.update(chunk.subarray(0, Math.min(chunk.length, left)));
      left -= chunk.length;
    }
  }
  const file = await open(part, resumedAt > 0 ? 'r+' : 'w');
  let position = resumedAt;
  try {
    if (position < size) {
      const call = peer.client.downloadSnapshot({ ticket: offer.ticket, offset: BigInt(position) });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const arm = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => call.cancel(), ctx.stallTimeoutMs);
      };
      arm();
      try {
        for await (const chunk of call as AsyncIterable<SnapshotChunk>) {
          arm();
          if (chunk.offset !== BigInt(position)) refuse(`a chunk at offset ${chunk.offset}, expected ${position}`);
          if (chunk.data.length === 0 || chunk.data.length > offer.chunkSize)
            refuse(`a chunk of ${chunk.data.length} bytes (the offer said at most ${offer.chunkSize})`);
          if (position + chunk.data.length > size) refuse(`more than the offered ${size} bytes (oversize)`);
          await file.write(chunk.data, 0, chunk.data.length, position);
          hash.update(chunk.data);
          position += chunk.data.length;
          progress(position, size);
        }
      } catch (e) {
        if (e instanceof BootstrapRefusal) {
          call.cancel();
          throw e;
        }
        const m = (e as Error).message;
        refuse(
          /Cancelled/i.test(m)
            ? `the download stalled (nothing for ${ctx.stallTimeoutMs} ms) after ${position} of ${size} bytes`
            : `the download failed after ${position} of ${size} bytes: ${m}`,
        );
      } finally {
        clearTimeout(timer);
      }
    }
    if (position < size) refuse(`truncated: the stream ended after ${position} of the offered ${size} bytes`);
    await file.truncate(size);
    await file.sync();
  } finally {
    await file.close();
  }
  const got = hash.digest();
  if (!equalBytes(got, offer.hash)) {
    rmSync(part, { force: true });
    rmSync(`${part}.json`, { force: true });
    refuse(`the file's BLAKE2b-256 ${toHex0x(got)} is not the offered ${toHex0x(offer.hash)}`);
  }
  return { resumedAt };
}
