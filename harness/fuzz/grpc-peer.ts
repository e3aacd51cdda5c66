/**
 * The gRPC fuzz of the peer door (proto/peer.proto):
 *
 *   PeerService/Connect          mutated PeerMessages before the handshake (the node must end the stream by its
 *                                handshake timeout), or after a real one (harness/peer-handshake.ts), then a
 *                                probe BlockRequest for a known block: answered, or the stream ended.
 *   PeerService/DownloadSnapshot mutated SnapshotDownload requests: a status before the deadline.
 *
 * Stream statuses are judged as a unary call's status is (grpc-harness.ts judge). A Connect case's `bytes` are the
 * stream's gRPC messages, each with its 5-byte prefix. The handshake's keys and nonces are fresh on every run, so a
 * replayed case differs in those bytes only.
 */
import { Metadata, status as Status, type Client, type ClientDuplexStream, type StatusObject } from '@grpc/grpc-js';
import { BlockVersion, PeerMessage, PeerServiceService, SnapshotDownload } from '../../src/grpc/gen/peer.ts';
import { Rng } from './mutate.ts';
import { TestPeer } from '../peer-handshake.ts';
import {
  answerOf,
  asBuffer,
  CALL_DEADLINE_MS,
  entriesOf,
  freshAfterFailure,
  identity,
  judge,
  judgeStreamEnd,
  rawStream,
  within,
} from './grpc-harness.ts';
import type { FuzzCase, RawDoor, Verdict } from './grpc-harness.ts';
import type { Known } from './grpc.ts';
import { mutateMessage } from './grpc-wire.ts';

export const CONNECT_TARGET = 'PeerService/Connect';
export const DOWNLOAD_TARGET = 'PeerService/DownloadSnapshot';

/** What the peer cases need: the node's network (for the handshake), a block it holds, its handshake timeout. */
export interface PeerContext {
  known: Known;
  /** How long the node keeps a stream without a completed handshake open. */
  handshakeTimeoutMs: number;
}

export interface PeerCase extends FuzzCase {
  /** Whether the case's messages follow a completed handshake. */
  handshake: boolean;
  /** The handshake's identity (and the one a `handshake` message among the messages carries). */
  peer: TestPeer;
  messages: Uint8Array[];
}

const MESSAGE_KINDS = [
  'handshake',
  'handshakeProof',
  'heartbeat',
  'block',
  'blockRequest',
  'milestoneRequest',
  'snapshotRequest',
  'snapshotOffer',
] as const;
type MessageKind = (typeof MESSAGE_KINDS)[number];

/** A valid-looking message of each kind, around the node's real network, block and milestone. */
function template(kind: MessageKind, k: Known, peer: TestPeer, rng: Rng): PeerMessage {
  const v2 = BlockVersion.BLOCK_VERSION_V2;
  const index = k.milestoneIndex;
  const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => rng.int(256));
  switch (kind) {
    case 'handshake':
      return peer.hello(k.networkName);
    case 'handshakeProof':
      return { kind: { $case: 'handshakeProof', value: { signature: bytes(64) } } };
    case 'heartbeat': {
      const value = { latestMilestoneIndex: index, confirmedMilestoneIndex: index, pruningIndex: 0, connectedPeers: 1 };
      return { kind: { $case: 'heartbeat', value: { ...value, syncedPeers: 1 } } };
    }
    case 'block':
      return { kind: { $case: 'block', value: { version: v2, data: k.block.raw } } };
    case 'blockRequest':
      return { kind: { $case: 'blockRequest', value: { version: v2, blockId: k.blockId } } };
    case 'milestoneRequest':
      return { kind: { $case: 'milestoneRequest', value: { index } } };
    case 'snapshotRequest':
      return { kind: { $case: 'snapshotRequest', value: { index: 0 } } };
    case 'snapshotOffer': {
      const file = { index, size: 10n, hash: bytes(32), ledgerHash: bytes(32), milestoneBlock: k.block.raw };
      return { kind: { $case: 'snapshotOffer', value: { ...file, ticket: bytes(16), chunkSize: 1, reason: '' } } };
    }
  }
}

/** The gRPC messages of a stream as they go on the wire, each with its 5-byte prefix (for the report). */
function framed(messages: Uint8Array[]): Uint8Array {
  const prefix = (n: number): Buffer => Buffer.from([0, n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
  return Buffer.concat(messages.flatMap((m) => [prefix(m.length), m]));
}

/** The Connect case `seed`: one to three messages before or after a handshake, one of them mutated. */
export function connectCase(seed: number, k: Known): PeerCase {
  const rng = new Rng(seed);
  const handshake = rng.bool(0.6);
  const peer = new TestPeer();
  const kinds: MessageKind[] = Array.from({ length: 1 + rng.int(3) }, () => rng.pick(MESSAGE_KINDS));
  if (!handshake && rng.bool(0.5)) kinds.unshift('handshake');
  const messages: Uint8Array[] = kinds.map((kind) => PeerMessage.encode(template(kind, k, peer, rng)).finish());
  const at = rng.int(messages.length);
  const m = mutateMessage(rng, messages[at]!);
  messages[at] = m.bytes;
  const listed = kinds.map((kind, i) => (i === at ? `${kind}*` : kind)).join(', ');
  const mutation = `${handshake ? 'after' : 'before'} the handshake: ${listed}; ${kinds[at]}: ${m.mutation}`;
  return { target: CONNECT_TARGET, seed, mutation, bytes: framed(messages), handshake, peer, messages };
}

type Wait = 'seen' | 'ended' | 'late';

/** A Connect stream: what the node sent (decoded), its status once it came, and a wait for a message or the end. */
function connectStream(client: Client): {
  stream: ClientDuplexStream<Buffer, Buffer>;
  received: PeerMessage[];
  ended: () => StatusObject | undefined;
  /** Why a message from the node did not decode, if one did not. */
  undecodable: () => string | undefined;
  until: (what: (m: PeerMessage) => boolean, ms: number) => Promise<Wait>;
} {
  const stream = rawStream(client, PeerServiceService.connect.path);
  const received: PeerMessage[] = [];
  let status: StatusObject | undefined;
  let undecodable: string | undefined;
  const listeners = new Set<() => void>();
  const poke = (): void => {
    for (const l of listeners) l();
  };
  stream.on('data', (b: Buffer) => {
    try {
      received.push(PeerMessage.decode(b));
    } catch (e) {
      undecodable ??= (e as Error).message;
    }
    poke();
  });
  stream.on('status', (s: StatusObject) => {
    status = s;
    poke();
  });
  stream.on('error', () => undefined); // the status says it
  const until = async (what: (m: PeerMessage) => boolean, ms: number): Promise<Wait> => {
    let outcome: 'seen' | 'ended' | undefined;
    const settled = new Promise<void>((resolve) => {
      const l = (): void => {
        outcome = received.some(what) ? 'seen' : status ? 'ended' : undefined;
        if (outcome) resolve();
      };
      listeners.add(l);
      l();
    });
    const inTime = await within(settled, ms);
    listeners.clear();
    return inTime ? outcome! : 'late';
  };
  return { stream, received, ended: () => status, undecodable: () => undecodable, until };
}

/**
 * Sends one Connect case to the peer door `door`. Before a handshake, the node must end the stream by its handshake
 * timeout; after one, it must answer the probe BlockRequest for the known block or end the stream.
 */
export async function sendConnect(door: RawDoor, c: PeerCase, ctx: PeerContext, deadlineMs = CALL_DEADLINE_MS) {
  return freshAfterFailure(door, await connectAndSend(door.channel, c, ctx, deadlineMs));
}

async function connectAndSend(client: Client, c: PeerCase, ctx: PeerContext, deadlineMs: number): Promise<Verdict> {
  const t0 = performance.now();
  const { stream, received, ended, undecodable, until } = connectStream(client);
  const write = (m: PeerMessage | Uint8Array): void => {
    stream.write(asBuffer(m instanceof Uint8Array ? m : PeerMessage.encode(m).finish()));
  };
  const net = ctx.known.networkName;
  const is = (kind: string) => (m: PeerMessage) => m.kind?.$case === kind;
  try {
    if (c.handshake) {
      write(c.peer.hello(net));
      const theirs = await until(is('handshake'), deadlineMs);
      if (theirs === 'seen') write(c.peer.proof(net, received.find(is('handshake'))!));
      const proven = theirs === 'seen' ? await until(is('handshakeProof'), deadlineMs) : theirs;
      if (proven !== 'seen') {
        const reason = `a good peer's handshake ${proven === 'late' ? 'got no answer' : 'was refused'}`;
        return { ok: false, label: 'handshake failed', reason };
      }
    }
    for (const m of c.messages) write(m);
    const known = Buffer.from(ctx.known.block.raw);
    const v2 = BlockVersion.BLOCK_VERSION_V2;
    if (c.handshake) write({ kind: { $case: 'blockRequest', value: { version: v2, blockId: ctx.known.blockId } } });
    const isProbeAnswer = (m: PeerMessage): boolean =>
      c.handshake && m.kind?.$case === 'block' && known.equals(m.kind.value.data);
    const wait = c.handshake ? deadlineMs : ctx.handshakeTimeoutMs + deadlineMs;
    const outcome = await until(isProbeAnswer, wait);
    const ms = performance.now() - t0;
    const status = ended();
    const garbled = undecodable();
    if (garbled !== undefined) return { ok: false, label: 'bad answer', reason: `no PeerMessage: ${garbled}` };
    if (outcome === 'ended' && status) {
      // A peer stream has no answer beyond its end. The node ends it with a status, or, where grpc-js could not send
      // one (it had ended the call itself over an undecodable message), resets it (src/node/peering/link.ts
      // closeLater), which a client reads as CANCELLED: an end in time all the same.
      if (status.code === Status.CANCELLED) return { ok: true, label: 'ended by reset' };
      return judgeStreamEnd(status, ms, wait, 'ended');
    }
    if (outcome === 'seen') return { ok: true, label: 'probe answered' };
    const reason = c.handshake
      ? `the node neither answered the probe BlockRequest nor ended the stream within ${wait} ms`
      : `no status for ${wait} ms on a stream without a handshake (the node's timeout: ${ctx.handshakeTimeoutMs} ms)`;
    return { ok: false, label: 'no answer', reason };
  } finally {
    stream.cancel();
  }
}

/** The DownloadSnapshot case `seed`: a request for an unknown ticket at some offset, mutated on the wire. */
export function downloadCase(seed: number): FuzzCase {
  const rng = new Rng(seed);
  const ticket = Uint8Array.from({ length: 16 }, () => rng.int(256));
  const base = SnapshotDownload.encode({ ticket, offset: rng.pick([0n, 1n, 2n ** 63n, 2n ** 64n - 1n]) }).finish();
  const m = rng.bool(0.1) ? { bytes: base, mutation: 'unmutated' } : mutateMessage(rng, base);
  return { target: DOWNLOAD_TARGET, seed, ...m };
}

/** Sends one DownloadSnapshot case to the peer door `door`: its status must come before the deadline. */
export async function sendDownload(door: RawDoor, c: FuzzCase, deadlineMs = CALL_DEADLINE_MS): Promise<Verdict> {
  const t0 = performance.now();
  const path = PeerServiceService.downloadSnapshot.path;
  const options = { deadline: Date.now() + deadlineMs };
  const request = asBuffer(c.bytes);
  const call = door.channel.makeServerStreamRequest(path, identity, identity, request, new Metadata(), options);
  call.on('data', () => undefined);
  call.on('error', () => undefined); // the status says it
  const status = await new Promise<StatusObject>((resolve) => call.on('status', resolve));
  const answer = answerOf(status.code, status.details, entriesOf(status.metadata), performance.now() - t0, deadlineMs);
  return freshAfterFailure(door, judge(answer));
}
