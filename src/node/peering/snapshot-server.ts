/**
 * Serving snapshots to peers that bootstrap (proto/peer.proto, docs/decisions.md §30; the other side is
 * snapshot-client.ts). A handshaken peer sends a
 * SnapshotRequest on its Connect stream; this node answers with a SnapshotOffer: the snapshot of its confirmed
 * milestone (writeSnapshot, under the pruner's and the attach queue's hold), its size, the BLAKE2b-256 of its bytes,
 * its ledger state hash (format.ts), the block of its milestone and a one-time ticket. The file comes through
 * DownloadSnapshot(ticket, offset) in chunks of CHUNK_BYTES, with the stream's backpressure (nothing beyond one chunk
 * and the HTTP/2 window is held in memory).
 *
 * The snapshot's milestone is `belowMaxDepth + 5` below the confirmed one (see `target`). Bounds: one snapshot is
 * written at a time and reused while it is at most `reuseMilestones` behind that (and above the pruning index); at most
 * `maxDownloads` downloads at once in all and one per peer node; a ticket is good once and for `ticketTtlMs`, a peer
 * holds one at a time (MAX_TICKETS in all); a peer may cause one snapshot to be written a minute, and only of a
 * milestone in the window offered. The files live in `<dir>` (the data folder's snapshots/peers/); the two newest are
 * kept for resumed downloads, older ones are deleted when no download reads them. Only the ledger goes out: the
 * genesis' dev entries (coordinator keys, the dev wallet's seed) never do.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { status as Status, type ServerWritableStream } from '@grpc/grpc-js';
import { toHex } from '../../core/bytes.ts';
import { LEDGER_META } from '../../core/ledger/index.ts';
import { firstMilestoneIndex } from '../../core/pruning/index.ts';
import { META, type NodeStore } from '../../core/store/index.ts';
import type {
  PeerMessage,
  SnapshotChunk,
  SnapshotDownload,
  SnapshotOffer,
  SnapshotRequest,
} from '../../grpc/gen/peer.ts';
import type { Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import { EXTRA_HISTORY } from '../pruning/pruner.ts';
import { writeSnapshot } from '../snapshots/snapshot.ts';
import { readSnapshotFile } from '../snapshots/format.ts';

/** Data bytes per chunk: the peer door's 64 KiB message bound (doors.ts) less room for the framing. */
export const CHUNK_BYTES = 63 * 1024;

/** Offers waiting to be downloaded at most; a peer has one at a time. */
const MAX_TICKETS = 256;
const WRITE_COOLDOWN_MS = 60_000;

export interface SnapshotServingSettings {
  maxDownloads: number;
  ticketTtlMs: number;
  /** A snapshot this many milestones behind the confirmed one is still offered instead of writing a new one. */
  reuseMilestones: number;
}

export const SNAPSHOT_SERVING_DEFAULTS: SnapshotServingSettings = {
  maxDownloads: 2,
  ticketTtlMs: 60_000,
  reuseMilestones: 20,
};

export interface SnapshotServingDeps {
  store: NodeStore;
  network: NetworkState;
  /** The pruner's hold (no pruning meanwhile) around the attach queue's (no confirmation while the state is fixed). */
  pruneHold: <T>(fn: () => Promise<T>) => Promise<T>;
  attachHold: <T>(fn: () => Promise<T>) => Promise<T>;
  dir: string;
  logger: Logger;
  now?: () => number;
}

/** The peer a request came from, as the peer layer knows it. */
export interface RequestingPeer {
  nodeId?: string;
  link: { address: string; send(m: PeerMessage): boolean };
}

interface Prepared {
  index: number;
  file: string;
  size: number;
  hash: Uint8Array;
  ledgerHash: Uint8Array;
  milestoneBlock: Uint8Array;
}

export class SnapshotServer {
  private readonly settings: SnapshotServingSettings;
  private readonly now: () => number;
  private readonly prepared: Prepared[] = [];
  private making: Promise<Prepared> | undefined;
  private readonly tickets = new Map<string, { p: Prepared; until: number; nodeId: string }>();
  /** Downloads under way by peer node ID; readers by file. */
  private readonly active = new Map<string, number>();
  private readonly readers = new Map<string, number>();
  private downloads = 0;
  /** Peers that caused a snapshot to be written, and when. */
  private readonly writers = new Map<string, number>();
  private stopped = false;
  private readonly calls = new Set<ServerWritableStream<SnapshotDownload, SnapshotChunk>>();

  constructor(
    private readonly deps: SnapshotServingDeps,
    settings: Partial<SnapshotServingSettings> = {},
  ) {
    this.settings = { ...SNAPSHOT_SERVING_DEFAULTS, ...settings };
    this.now = deps.now ?? Date.now;
  }

  /** Answers a peer's SnapshotRequest with an offer, or a refusal that says why. */
  async offer(peer: RequestingPeer, request: SnapshotRequest): Promise<void> {
    const nodeId = peer.nodeId ?? peer.link.address;
    const refuse = (reason: string): void => {
      this.deps.logger.info(`snapshot request of peer ${peer.link.address} refused: ${reason}`);
      peer.link.send(snapshotRefusal(reason));
    };
    if (this.stopped) return refuse('this node is stopping');
    if (this.downloads >= this.settings.maxDownloads)
      return refuse(`busy: ${this.downloads} snapshot downloads under way, try again later`);
    if ((this.active.get(nodeId) ?? 0) > 0) return refuse('a download of yours is under way');
    let p: Prepared;
    try {
      p = await this.prepare(request.index, nodeId);
    } catch (e) {
      return refuse((e as Error).message);
    }
    this.expireTickets();
    for (const [k, t] of this.tickets) if (t.nodeId === nodeId) this.tickets.delete(k); // one ticket per peer node
    if (this.tickets.size >= MAX_TICKETS) return refuse('busy: too many offers wait to be downloaded, try again later');
    const ticket = crypto.getRandomValues(new Uint8Array(16));
    this.tickets.set(toHex(ticket), { p, until: this.now() + this.settings.ticketTtlMs, nodeId });
    peer.link.send(
      offerMessage({
        index: p.index,
        size: BigInt(p.size),
        hash: p.hash,
        ledgerHash: p.ledgerHash,
        milestoneBlock: p.milestoneBlock,
        ticket,
        chunkSize: CHUNK_BYTES,
        reason: '',
      }),
    );
    this.deps.logger.info(`snapshot of milestone ${p.index} (${p.size} bytes) offered to peer ${peer.link.address}`);
  }

  /** The DownloadSnapshot handler: the offered file from `offset` on, chunk by chunk, with backpressure. */
  download(call: ServerWritableStream<SnapshotDownload, SnapshotChunk>): void {
    void this.send(call).catch((e: unknown) => {
      this.deps.logger.warn(`snapshot download by ${call.getPeer()} failed: ${(e as Error).message}`);
      call.emit('error', { code: Status.INTERNAL, details: `snapshot download failed: ${(e as Error).message}` });
    });
  }

  /** Ends the downloads under way; no new offers. */
  stop(): void {
    this.stopped = true;
    for (const call of this.calls) call.emit('error', { code: Status.UNAVAILABLE, details: 'the node is stopping' });
  }

  private async send(call: ServerWritableStream<SnapshotDownload, SnapshotChunk>): Promise<void> {
    const { ticket, offset } = call.request;
    this.expireTickets();
    const entry = this.tickets.get(toHex(ticket));
    if (!entry)
      return void call.emit('error', {
        code: Status.PERMISSION_DENIED,
        details: 'unknown or expired snapshot ticket: ask for a new offer',
      });
    this.tickets.delete(toHex(ticket));
    if (this.stopped) return void call.emit('error', { code: Status.UNAVAILABLE, details: 'the node is stopping' });
    if (this.downloads >= this.settings.maxDownloads)
      return void call.emit('error', {
        code: Status.RESOURCE_EXHAUSTED,
        details: 'busy: too many snapshot downloads under way',
      });
    const { p, nodeId } = entry;
    // one per peer node also when this ticket was offered while an earlier one was being downloaded
    if ((this.active.get(nodeId) ?? 0) > 0)
      return void call.emit('error', { code: Status.RESOURCE_EXHAUSTED, details: 'a download of yours is under way' });
    if (offset > BigInt(p.size))
      return void call.emit('error', {
        code: Status.OUT_OF_RANGE,
        details: `offset ${offset} is beyond the snapshot's ${p.size} bytes`,
      });
    this.downloads++;
    this.active.set(nodeId, (this.active.get(nodeId) ?? 0) + 1);
    this.readers.set(p.file, (this.readers.get(p.file) ?? 0) + 1);
    this.calls.add(call);
    const started = this.now();
    let cancelled = false;
    call.on('cancelled', () => (cancelled = true));
    call.on('close', () => (cancelled = true)); // a closed stream takes no more chunks (and never drains)
    let file: FileHandle | undefined;
    try {
      file = await open(p.file, 'r');
      let position = Number(offset);
      const buffer = Buffer.alloc(CHUNK_BYTES);
      while (position < p.size && !cancelled && !this.stopped) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK_BYTES, p.size - position), position);
        if (bytesRead === 0) throw new Error(`${p.file} is shorter than its ${p.size} bytes`);
        const ok = call.write({ offset: BigInt(position), data: new Uint8Array(buffer.subarray(0, bytesRead)) });
        position += bytesRead;
        if (!ok)
          await new Promise<void>((resolve) => {
            const done = (): void => {
              call.off('drain', done);
              call.off('cancelled', done);
              call.off('close', done);
              resolve();
            };
            call.on('drain', done);
            call.on('cancelled', done);
            call.on('close', done);
          });
      }
      if (!cancelled && !this.stopped) {
        call.end();
        this.deps.logger.info(
          `snapshot of milestone ${p.index} sent to ${call.getPeer()}: ` +
            `${p.size - Number(offset)} bytes from offset ${offset} in ${this.now() - started} ms`,
        );
      }
    } finally {
      await file?.close();
      this.calls.delete(call);
      this.downloads--;
      const left = (this.active.get(nodeId) ?? 1) - 1;
      if (left > 0) this.active.set(nodeId, left);
      else this.active.delete(nodeId);
      const readers = (this.readers.get(p.file) ?? 1) - 1;
      if (readers > 0) this.readers.set(p.file, readers);
      else this.readers.delete(p.file);
      this.cleanup();
    }
  }

  private expireTickets(): void {
    const t = this.now();
    for (const [k, v] of this.tickets) if (v.until < t) this.tickets.delete(k);
  }

  /**
   * The milestone a new snapshot is written at: `belowMaxDepth + 5` below the confirmed one (Hornet's snapshot depth
   * and the window its solid entry points look at), so no block referenced at or below it can still get a child
   * (it is below max depth for tip selection) and its solid entry points are final; above the pruning index.
   */
  private async target(): Promise<{ target: number; pruned: number }> {
    const { store } = this.deps;
    const confirmed = await store.getMeta(META.ledgerIndex);
    const params = await store.getMeta(LEDGER_META.protocolParameters);
    if (confirmed === undefined || params === undefined) throw new Error('this node holds no ledger');
    const pruning = await store.getMeta(LEDGER_META.pruning);
    const floor = pruning?.index ?? (await firstMilestoneIndex(store)) ?? confirmed;
    const depth = params.belowMaxDepth + EXTRA_HISTORY;
    let target = confirmed - depth;
    if (target <= floor) {
      if (pruning === undefined || floor + 1 > confirmed)
        throw new Error(
          `the ledger is too young for a snapshot: a snapshot is ${depth} milestones below the ` +
            `confirmed one (${confirmed}) and above the first (${floor}); replay from the genesis instead`,
        );
      target = floor + 1;
    }
    return { target, pruned: pruning?.index ?? 0 };
  }

  /** The snapshot to offer: one held when it fits the request, else a new one (one written at a time). */
  private async prepare(index: number, nodeId: string): Promise<Prepared> {
    const { target, pruned } = await this.target();
    const window = (i: number): boolean => i > pruned && i <= target && target - i <= this.settings.reuseMilestones;
    if (index !== 0 && !window(index))
      throw new Error(
        `no snapshot of milestone ${index}: this node offers milestones ` +
          `${Math.max(pruned + 1, target - this.settings.reuseMilestones)} to ${target}`,
      );
    const fits = (p: Prepared): boolean => window(p.index) && (index === 0 || p.index === index);
    for (;;) {
      const held = this.prepared.find(fits);
      if (held) return held;
      if (!this.making) break;
      await this.making.catch(() => undefined);
    }
    // writing a snapshot costs a pass over the ledger: a peer may cause one a minute
    const t = this.now();
    for (const [k, at] of this.writers) if (t - at > WRITE_COOLDOWN_MS) this.writers.delete(k);
    if (this.writers.has(nodeId))
      throw new Error('busy: a snapshot was written for you a moment ago, try again in a minute');
    this.writers.set(nodeId, t);
    // the cleanup once the new file is held: while one is written, no snapshot file of the folder is deleted
    const making = this.make(index === 0 ? target : index).finally(() => {
      this.making = undefined;
      this.cleanup();
    });
    this.making = making;
    return making;
  }

  private async make(index: number): Promise<Prepared> {
    const { store, network, dir, logger } = this.deps;
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `snapshot-${index}.json`);
    const started = this.now();
    const written = await this.deps.pruneHold(() =>
      writeSnapshot({ store, network, hold: this.deps.attachHold }, file, { index }),
    );
    const reading = await readSnapshotFile(file);
    const pruning = await store.getMeta(LEDGER_META.pruning);
    const record = written.index === pruning?.index ? pruning.milestone : await store.milestone(written.index);
    const milestoneBlock = record && (await store.getBlock(record.blockId));
    if (!milestoneBlock)
      throw new Error(`the block of milestone ${written.index} is not stored (pruned): no snapshot to offer`);
    const p: Prepared = {
      index: written.index,
      file,
      size: statSync(file).size,
      hash: reading.fileHash,
      ledgerHash: reading.ledgerHash,
      milestoneBlock,
    };
    this.prepared.unshift(p);
    logger.info(
      `snapshot of milestone ${p.index} for peers: ${reading.outputs} ` +
        `outputs, ${p.size} bytes in ${this.now() - started} ms (${file})`,
    );
    return p;
  }

  /**
   * Keeps the two newest snapshots and any a download reads or a ticket names; deletes the other files of the folder.
   */
  private cleanup(): void {
    const keep = new Set(this.prepared.slice(0, 2).map((p) => p.file));
    for (const p of this.prepared.slice(2)) if (this.readers.has(p.file)) keep.add(p.file);
    this.expireTickets();
    for (const t of this.tickets.values()) keep.add(t.p.file);
    for (let i = this.prepared.length - 1; i >= 0; i--)
      if (!keep.has(this.prepared[i]!.file)) this.prepared.splice(i, 1);
    let names: string[];
    try {
      names = readdirSync(this.deps.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(this.deps.dir, name);
      if (!keep.has(path) && !(this.making && name.startsWith('snapshot-'))) rmSync(path, { force: true });
    }
  }
}

function offerMessage(value: SnapshotOffer): PeerMessage {
  return { kind: { $case: 'snapshotOffer', value } };
}

/** An offer that says no, and why. */
export function snapshotRefusal(reason: string): PeerMessage {
  return offerMessage({
    index: 0,
    size: 0n,
    hash: new Uint8Array(),
    ledgerHash: new Uint8Array(),
    milestoneBlock: new Uint8Array(),
    ticket: new Uint8Array(),
    chunkSize: 0,
    reason,
  });
}

/** The PeerService's DownloadSnapshot on a node that serves snapshots, or UNIMPLEMENTED-like refusal without. */
export function downloadSnapshotHandler(
  server: SnapshotServer | undefined,
): (call: ServerWritableStream<SnapshotDownload, SnapshotChunk>) => void {
  return (call) => {
    if (server) server.download(call);
    else call.emit('error', { code: Status.UNIMPLEMENTED, details: 'this node serves no snapshots' });
  };
}
