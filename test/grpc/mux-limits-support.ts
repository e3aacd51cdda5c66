/**
 * A NodeMux server on a real gRPC stream for the limit tests, and a raw HTTP/2 Exchange stream against it that writes
 * what a malicious gateway would and reads only when told; waits, and a guard against exceptions reaching the process.
 */
import { expect } from 'chai';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { connect as connectHttp2, type IncomingHttpHeaders } from 'node:http2';
import { FrameKind, MuxBatch, type MetadataEntry, type MuxFrame } from '../../src/grpc/gen/mux.ts';
import { EXCHANGE, MAX_MESSAGE_BYTES } from '../../src/grpc/mux.ts';
import { serveNodeMux, type NodeMuxHandle, type NodeMuxOptions } from '../../src/node/grpc/mux-server.ts';
import type { Logger } from '../../src/node/logger.ts';
import type { ServiceMethods } from '../../src/node/grpc/port.ts';

export const MiB = 1024 * 1024;
/** A service method that never answers. */
export const never = (): Promise<never> => new Promise(() => undefined);

export interface Rig {
  port: number;
  mux: NodeMuxHandle;
  errors: string[];
  stop(): void;
}

/** A grpc-js server with the node door's message limits serving NodeMux only, its unexpected failures collected. */
export async function serve(service: object, options: NodeMuxOptions = {}): Promise<Rig> {
  const server = new Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const errors: string[] = [];
  const logger: Logger = {
    info: () => undefined,
    warn: () => undefined,
    error: (m, e) => errors.push(`${m} ${String(e)}`),
  };
  const mux = serveNodeMux(server, service as Partial<ServiceMethods>, { logger, ...options });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { port, mux, errors, stop: () => server.forceShutdown() };
}

/**
 * An Exchange stream over plain HTTP/2 (node:http2), as a malicious gateway would open it: batches written as given
 * bytes; nothing read until `read()`, so HTTP/2 flow control holds the node's answers back after 64 KiB (a grpc-js
 * client would take up to 16 messages of 4 MiB into its own buffers first).
 */
export interface Raw {
  frames: MuxFrame[];
  status: { code: number; details: string } | undefined;
  write(batch: Buffer): void;
  /** Starts reading; `keep`: which frames are kept in `frames`. */
  read(keep?: (f: MuxFrame) => boolean): void;
  close(): void;
}

export function exchange(port: number): Raw {
  const session = connectHttp2(`http://127.0.0.1:${port}`);
  session.on('error', () => undefined);
  const req = session.request({
    ':method': 'POST',
    ':path': EXCHANGE.path,
    'content-type': 'application/grpc',
    te: 'trailers',
  });
  req.on('error', () => undefined);
  const chunks: Buffer[] = [];
  let held = 0;
  const raw: Raw = {
    frames: [],
    status: undefined,
    write(batch) {
      const head = Buffer.alloc(5);
      head.writeUInt32BE(batch.length, 1);
      req.write(Buffer.concat([head, batch]));
    },
    read(keep = () => true) {
      req.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        held += chunk.length;
        while (held >= 5) {
          if (chunks.length > 1) chunks.splice(0, chunks.length, Buffer.concat(chunks));
          const n = chunks[0]!.readUInt32BE(1);
          if (held < 5 + n) break;
          const all = Buffer.concat(chunks.splice(0));
          for (const f of MuxBatch.decode(all.subarray(5, 5 + n)).frames) if (keep(f)) raw.frames.push(f);
          held = all.length - 5 - n;
          if (held > 0) chunks.push(all.subarray(5 + n));
        }
      });
    },
    close() {
      req.close();
      session.close();
    },
  };
  const status = (h: IncomingHttpHeaders): void => {
    if (h['grpc-status'] !== undefined)
      raw.status = { code: Number(h['grpc-status']), details: decodeURIComponent(String(h['grpc-message'] ?? '')) };
  };
  req.on('response', status);
  req.on('trailers', status);
  return raw;
}

export const call = (callId: number, method: string, metadata: MetadataEntry[] = [], timeoutMs = 0): MuxFrame => ({
  kind: FrameKind.FRAME_KIND_CALL,
  callId,
  method,
  message: new Uint8Array(0),
  timeoutMs,
  statusCode: 0,
  statusDetails: '',
  metadata,
});
export const cancel = (callId: number): MuxFrame => ({ ...call(callId, ''), kind: FrameKind.FRAME_KIND_CANCEL });
export const batch = (frames: MuxFrame[]): Buffer => Buffer.from(MuxBatch.encode({ frames }).finish());

/** `count` CALL frames of `method` without a deadline (timeout_ms 0), IDs from `first`, encoded as one batch. */
export function callBatch(first: number, count: number, method = 'GetInfo'): Buffer {
  const w = new BinaryWriter();
  for (let id = first; id < first + count; id++)
    w.uint32(10)
      .fork()
      .uint32(8)
      .int32(FrameKind.FRAME_KIND_CALL)
      .uint32(16)
      .uint32(id)
      .uint32(26)
      .string(method)
      .join();
  return Buffer.from(w.finish());
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Exceptions that reached the process (what crashes a node): none may. */
const uncaught: unknown[] = [];
const toProcess = (e: unknown): number => uncaught.push(e);

/** Fails each test of the suite after which an exception reached the process (the listeners are the suite's own). */
export function failOnUncaught(): void {
  before(() => process.on('uncaughtException', toProcess).on('unhandledRejection', toProcess));
  after(() => process.off('uncaughtException', toProcess).off('unhandledRejection', toProcess));
  afterEach(() => expect(uncaught.splice(0), 'exceptions that reached the process').to.deep.equal([]));
}

/** Waits until `check()` holds; throws the first exception that reached the process meanwhile. */
export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (uncaught.length > 0) throw uncaught[0];
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** Waits until `read()` stays the same for `quietMs`. */
export async function settled<T>(read: () => T, quietMs = 300, timeoutMs = 10000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last = JSON.stringify(read());
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    if (Date.now() > end) throw new Error('never settled');
    await sleep(20);
    const now = JSON.stringify(read());
    if (now !== last) [last, since] = [now, Date.now()];
  }
  return read();
}

/** The frames by call ID. */
export const byId = (frames: MuxFrame[]): Map<number, MuxFrame> => new Map(frames.map((f) => [f.callId, f]));
/** A service method that answers `json`. */
export const answered = (json: string) => () => Promise.resolve({ json });
