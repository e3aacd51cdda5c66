/**
 * The wire format of the multiplexed NodeService transport (proto/mux.proto), shared by its two ends: the node's
 * server (src/node/grpc/mux-server.ts) and the gateway's client (gateway/mux-client.ts). Here: the method names on the
 * wire, the frames, metadata as frame entries, the message limit, and the writer both ends send batches with.
 *
 * The writer (FrameWriter) collects the frames of one turn of the event loop and writes them as one MuxBatch at
 * setImmediate: the calls the gateway's HTTP requests made while their sockets were read, the answers the node's
 * service gave while one batch was dispatched. A batch stays within MAX_MESSAGE_BYTES (the node's and grpc-js's
 * default limit of a gRPC message); when the stream's write() returns false the writer waits for 'drain' and keeps
 * collecting (HTTP/2 flow control then holds the sender back).
 *
 * The node reads a received batch with a BatchReader, one frame at a time as it dispatches them: a 4 MiB batch of
 * tiny CALL frames holds some 300k of them, about 100 MB once decoded as a whole.
 */
import { BinaryReader, BinaryWriter } from '@bufbuild/protobuf/wire';
import { Metadata } from '@grpc/grpc-js';
import {
  FrameKind,
  MuxBatch,
  MuxFrame as MuxFrameCodec,
  NodeMuxService,
  type MetadataEntry,
  type MuxFrame,
} from './gen/mux.ts';
import { NodeServiceService } from './gen/node.ts';
import type { NodeCallError } from './port.ts';
import { encodeStatusDetails, GrpcStatus, STATUS_DETAILS_KEY, statusText } from './status.ts';

export { FrameKind, MuxBatch, type MuxFrame };

/** A NodeService method as the generated client names it (`getBlock`). */
export type NodeServiceMethod = keyof typeof NodeServiceService;

/** The largest gRPC message either end takes (grpc-js's default receive limit; the node's server sets the same). */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * Calls under way on one stream at most: the node answers a CALL beyond it RESOURCE_EXHAUSTED without running it; the
 * gateway's client never sends one beyond it (it queues the call until an answer frees a place).
 */
export const MAX_CALLS_IN_FLIGHT = 1024;

/** The method's name on the wire: the last segment of its path (`/ledger.v1.NodeService/GetBlock` -> `GetBlock`). */
export const WIRE_NAME: { readonly [M in NodeServiceMethod]: string } = Object.fromEntries(
  (Object.keys(NodeServiceService) as NodeServiceMethod[]).map((m) => [
    m,
    NodeServiceService[m].path.slice(NodeServiceService[m].path.lastIndexOf('/') + 1),
  ]),
) as { [M in NodeServiceMethod]: string };

/** The method a wire name stands for, in this build of the service. */
export const METHOD_OF: ReadonlyMap<string, NodeServiceMethod> = new Map(
  (Object.keys(WIRE_NAME) as NodeServiceMethod[]).map((m) => [WIRE_NAME[m], m]),
);

/**
 * The path of a NodeService method on the wire name (what grpc-js names in "does not implement" for an unknown path).
 */
export function servicePath(wireName: string): string {
  const sample = NodeServiceService.getBlock.path;
  return `${sample.slice(0, sample.lastIndexOf('/') + 1)}${wireName}`;
}

/** A message's generated functions, as far as encoding goes. */
export interface Encoder<T> {
  encode(message: T, writer?: BinaryWriter): BinaryWriter;
}

/** Encodings up to this size leave the shared writer's buffer in place for the next one. */
const KEEP_WRITER_BYTES = 256 * 1024;
let writer = new BinaryWriter();

/**
 * `fns.encode(message).finish()` with one writer kept from call to call: a fresh writer starts at 128 bytes and
 * doubles, so a block's JSON cost an 8 KiB buffer and several copies per answer (a third of the transport's time).
 */
export function encodeMessage<T>(fns: Encoder<T>, message: T): Uint8Array {
  try {
    const bytes = fns.encode(message, writer).finish();
    if (bytes.length > KEEP_WRITER_BYTES) writer = new BinaryWriter();
    return bytes;
  } catch (e) {
    writer = new BinaryWriter();
    throw e;
  }
}

/** A batch as grpc-js sends it: the generated encode with the shared writer, wrapped in a Buffer without a copy. */
function serializeBatch(batch: MuxBatch): Buffer {
  const bytes = encodeMessage(MuxBatch, batch);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * NodeMux's Exchange method with the batch serializer above (both ends use it: the node's service, the client's calls).
 */
export const EXCHANGE = {
  ...NodeMuxService.exchange,
  requestSerialize: serializeBatch,
  responseSerialize: serializeBatch,
};

/** The node's Exchange: the batches received left as bytes, their frames decoded one at a time (BatchReader). */
export const EXCHANGE_UNDECODED = { ...EXCHANGE, requestDeserialize: (bytes: Buffer): Buffer => bytes };

const NO_BYTES = new Uint8Array(0);
const NO_ENTRIES: MetadataEntry[] = [];

/** A frame with every field (the generated encode needs them all). */
export function frame(
  kind: FrameKind,
  callId: number,
  message: Uint8Array = NO_BYTES,
  method = '',
  timeoutMs = 0,
): MuxFrame {
  return { kind, callId, method, message, timeoutMs, statusCode: 0, statusDetails: '', metadata: NO_ENTRIES };
}

/** A FAILURE frame: the status of a call as a unary call's error carries it (its details made safe: status.ts). */
export function failureFrame(
  callId: number,
  code: number,
  details: string,
  metadata: MetadataEntry[] = NO_ENTRIES,
): MuxFrame {
  const statusDetails = statusText(details);
  return {
    kind: FrameKind.FRAME_KIND_FAILURE,
    callId,
    method: '',
    message: NO_BYTES,
    timeoutMs: 0,
    statusCode: code,
    statusDetails,
    metadata,
  };
}

/**
 * The FAILURE frame of a failed call: its code and details and, when the node described the failure, the
 * `grpc-status-details-bin` trailer a unary call carries (the bytes of statusError, status.ts).
 */
export function callFailureFrame(callId: number, err: NodeCallError): MuxFrame {
  const metadata = err.detailed
    ? [{ key: STATUS_DETAILS_KEY, value: encodeStatusDetails(err.grpcCode, err.description) }]
    : NO_ENTRIES;
  return failureFrame(callId, err.grpcCode, err.details, metadata);
}

/**
 * The ANSWER frame of `value`, encoded by `codec`, or the FAILURE frame grpc-js's server sends instead: INTERNAL "Error
 * serializing response" for a value that is no message, RESOURCE_EXHAUSTED "Sent message larger than max (N vs.
 * 4194304)" for one above the limit.
 */
export function answerFrame(callId: number, codec: Encoder<unknown>, value: unknown): MuxFrame {
  let bytes: Uint8Array;
  try {
    if (typeof value !== 'object' || value === null) throw new TypeError('the answer is not a message');
    bytes = encodeMessage(codec, value);
  } catch {
    return failureFrame(callId, GrpcStatus.INTERNAL, 'Error serializing response');
  }
  const answer = frame(FrameKind.FRAME_KIND_ANSWER, callId, bytes);
  if (frameBytes(answer) <= MAX_MESSAGE_BYTES) return answer;
  return failureFrame(
    callId,
    GrpcStatus.RESOURCE_EXHAUSTED,
    `Sent message larger than max (${bytes.length + 5} vs. ${MAX_MESSAGE_BYTES})`,
  );
}

/** A metadata entry grpc-js's Metadata would refuse (it throws): an illegal key, or a text value it does not allow. */
export class InvalidMetadataError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`invalid metadata: ${reason} (key ${JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}...` : key)})`);
    this.name = 'InvalidMetadataError';
  }
}

/**
 * Keys as a gRPC peer sends them (lowercase; HTTP/2 header names), and text values (printable ASCII): grpc-js's rules.
 */
const LEGAL_KEY = /^[0-9a-z_.-]+$/;
const LEGAL_TEXT = /^[ -~]*$/;

/**
 * Frame entries as Metadata (values of `-bin` keys as Buffers, copied; others as text). Throws InvalidMetadataError,
 * before any entry is added, for a key with characters outside [0-9a-z_.-] or a text value that is not printable ASCII.
 */
export function metadataOf(entries: readonly MetadataEntry[]): Metadata {
  const metadata = new Metadata();
  for (const { key, value } of entries) {
    if (!LEGAL_KEY.test(key)) throw new InvalidMetadataError(key, 'the key has characters other than 0-9 a-z _ . -');
    if (key.endsWith('-bin')) metadata.add(key, Buffer.from(value));
    else {
      const text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
      if (!LEGAL_TEXT.test(text))
        throw new InvalidMetadataError(key, 'a text value has characters other than printable ASCII');
      metadata.add(key, text);
    }
  }
  return metadata;
}

/**
 * The frames of one received batch (its bytes, as grpc-js hands them over), decoded one at a time: the node holds a
 * batch it has not dispatched yet as its bytes, not as a few hundred thousand frame objects.
 */
export class BatchReader {
  private readonly reader: BinaryReader;

  constructor(readonly bytes: Uint8Array) {
    this.reader = new BinaryReader(bytes);
  }

  /** The next frame (unknown fields skipped, as MuxBatch.decode does); undefined at the end; throws on bad bytes. */
  next(): MuxFrame | undefined {
    const r = this.reader;
    while (r.pos < r.len) {
      const tag = r.uint32();
      if (tag === 10) return MuxFrameCodec.decode(r, r.uint32());
      if ((tag & 7) === 4 || tag === 0) break;
      r.skip(tag & 7);
    }
    r.pos = r.len;
    return undefined;
  }
}

/** An upper bound of a frame's encoded size inside a batch. */
export function frameBytes(f: MuxFrame): number {
  let n = 40 + f.message.length + f.method.length * 3 + f.statusDetails.length * 3;
  for (const e of f.metadata) n += 12 + e.key.length + e.value.length;
  return n;
}

/** What a writer writes to: a grpc-js duplex stream of either end. */
export interface BatchSink {
  write(batch: MuxBatch, callback: (error?: Error | null) => void): boolean;
  once(event: 'drain', listener: () => void): unknown;
  end(): void;
}

/**
 * Bytes handed to the stream and not yet passed on to HTTP/2 (its flow control holds them until the other end reads)
 * beyond which the writer waits: a grpc-js stream's write() only returns false after 16 messages, whatever their size.
 */
const IN_FLIGHT_BYTES = MAX_MESSAGE_BYTES;

/**
 * Collects frames and writes them in batches at setImmediate, within MAX_MESSAGE_BYTES each, holding back while the
 * stream does not drain (write() returned false, or more than IN_FLIGHT_BYTES are not written through yet). `keep`
 * drops frames that are no longer wanted when their batch is written (the call ended before it was sent);
 * `onFlushed` runs after each round of writes.
 */
export class FrameWriter {
  private frames: MuxFrame[] = [];
  private sizes: number[] = [];
  private scheduled = false;
  private waitingForDrain = false;
  private inFlight = 0;
  private closed = false;
  private ending = false;
  /** Bytes of the frames waiting to be written (an upper bound). */
  pendingBytes = 0;

  constructor(
    private readonly sink: BatchSink,
    private readonly keep: (f: MuxFrame) => boolean = () => true,
    private readonly onFlushed: () => void = () => {},
  ) {}

  /** Whether the stream holds the writer back. */
  get waiting(): boolean {
    return this.waitingForDrain || this.inFlight > IN_FLIGHT_BYTES;
  }

  /** Queues `f` (of `bytes`, from frameBytes) for the next batch. */
  push(f: MuxFrame, bytes: number): void {
    if (this.closed) return;
    this.frames.push(f);
    this.sizes.push(bytes);
    this.pendingBytes += bytes;
    this.schedule();
  }

  /** Ends the stream once every queued frame is written. */
  endWhenWritten(): void {
    if (this.closed) return;
    this.ending = true;
    this.schedule();
  }

  /** Drops everything queued; nothing more is written (the stream is gone). */
  close(): void {
    this.closed = true;
    this.frames = [];
    this.sizes = [];
    this.pendingBytes = 0;
  }

  private schedule(): void {
    if (this.scheduled || this.waiting) return;
    this.scheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.scheduled = false;
    while (!this.closed && !this.waiting && this.frames.length > 0) {
      const batch: MuxFrame[] = [];
      let bytes = 16;
      let taken = 0;
      for (; taken < this.frames.length; taken++) {
        const size = this.sizes[taken]!;
        if (taken > 0 && bytes + size > MAX_MESSAGE_BYTES) break;
        bytes += size;
        this.pendingBytes -= size;
        const f = this.frames[taken]!;
        if (this.keep(f)) batch.push(f);
      }
      if (taken === this.frames.length) {
        this.frames = [];
        this.sizes = [];
      } else {
        this.frames = this.frames.slice(taken);
        this.sizes = this.sizes.slice(taken);
      }
      if (batch.length === 0) continue;
      this.inFlight += bytes;
      if (!this.sink.write({ frames: batch }, this.writtenThrough(bytes))) {
        this.waitingForDrain = true;
        this.sink.once('drain', () => this.drained());
      }
    }
    if (this.frames.length === 0) this.pendingBytes = 0;
    if (this.ending && !this.closed && !this.waitingForDrain && this.frames.length === 0) {
      this.closed = true;
      this.sink.end();
    }
    this.onFlushed();
  }

  /** The write callback of a batch of `bytes`: the writer goes on once the bytes under way are few enough. */
  private writtenThrough(bytes: number): () => void {
    return () => {
      const held = this.waiting;
      this.inFlight -= bytes;
      if (held && !this.waiting && !this.closed) this.schedule();
    };
  }

  private drained(): void {
    this.waitingForDrain = false;
    if (!this.closed) this.schedule();
  }
}
