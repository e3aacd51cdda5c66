/**
 * The node's NodeMux server against malicious frames, sent over a real gRPC stream (proto/mux.proto,
 * src/node/grpc/mux-server.ts, docs/decisions.md §24): metadata grpc-js refuses, an unexpected failure, bytes that do
 * not decode, a flood of calls without deadlines from a client that never reads its answers (plain HTTP/2); the process goes on,
 * the calls under way, the bytes held and the work per turn stay bounded. Then the gateway's client under the limit:
 * it keeps its calls beyond it waiting instead of sending them.
 */
import { expect } from 'chai';
import { BinaryWriter } from '@bufbuild/protobuf/wire';
import { Server, ServerCredentials, status as Status } from '@grpc/grpc-js';
import { connect as connectHttp2, type IncomingHttpHeaders } from 'node:http2';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createMuxNodePort } from '../../gateway/mux-client.ts';
import type { NodeCallError } from '../../src/grpc/port.ts';
import { FrameKind, MuxBatch, type MetadataEntry, type MuxFrame } from '../../src/grpc/gen/mux.ts';
import { EXCHANGE, MAX_CALLS_IN_FLIGHT, MAX_MESSAGE_BYTES } from '../../src/grpc/mux.ts';
import { NODE_DOOR_MAX_CALL_MS } from '../../src/node/doors.ts';
import {
  MUX_MAX_CALL_MS,
  serveNodeMux,
  type NodeMuxHandle,
  type NodeMuxOptions,
} from '../../src/node/grpc/mux-server.ts';
import type { Logger } from '../../src/node/logger.ts';
import type { ServiceMethods } from '../../src/node/grpc/port.ts';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

const MiB = 1024 * 1024;
/** A service method that never answers. */
const never = (): Promise<never> => new Promise(() => undefined);

interface Rig {
  port: number;
  mux: NodeMuxHandle;
  errors: string[];
  stop(): void;
}

/** A grpc-js server with the node door's message limits serving NodeMux only, its unexpected failures collected. */
async function serve(service: object, options: NodeMuxOptions = {}): Promise<Rig> {
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
interface Raw {
  frames: MuxFrame[];
  status: { code: number; details: string } | undefined;
  write(batch: Buffer): void;
  /** Starts reading; `keep`: which frames are kept in `frames`. */
  read(keep?: (f: MuxFrame) => boolean): void;
  close(): void;
}

function exchange(port: number): Raw {
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

const call = (callId: number, method: string, metadata: MetadataEntry[] = [], timeoutMs = 0): MuxFrame => ({
  kind: FrameKind.FRAME_KIND_CALL,
  callId,
  method,
  message: new Uint8Array(0),
  timeoutMs,
  statusCode: 0,
  statusDetails: '',
  metadata,
});
const cancel = (callId: number): MuxFrame => ({ ...call(callId, ''), kind: FrameKind.FRAME_KIND_CANCEL });
const batch = (frames: MuxFrame[]): Buffer => Buffer.from(MuxBatch.encode({ frames }).finish());

/** `count` CALL frames of `method` without a deadline (timeout_ms 0), IDs from `first`, encoded as one batch. */
function callBatch(first: number, count: number, method = 'GetInfo'): Buffer {
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

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (uncaught.length > 0) throw uncaught[0];
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(10);
  }
}

/** Waits until `read()` stays the same for `quietMs`. */
async function settled<T>(read: () => T, quietMs = 300, timeoutMs = 10000): Promise<T> {
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

const byId = (frames: MuxFrame[]): Map<number, MuxFrame> => new Map(frames.map((f) => [f.callId, f]));
const answered = (json: string) => () => Promise.resolve({ json });

describe('NodeMux server under malicious frames (a real gRPC stream)', () => {
  before(() => process.on('uncaughtException', toProcess).on('unhandledRejection', toProcess));
  after(() => process.off('uncaughtException', toProcess).off('unhandledRejection', toProcess));
  afterEach(() => expect(uncaught.splice(0), 'exceptions that reached the process').to.deep.equal([]));

  it('metadata grpc-js refuses (bad key, control characters, not UTF-8): INVALID_ARGUMENT naming the key; the stream and the process go on', async () => {
    const rig = await serve({ getInfoV3: answered('ok') });
    const raw = exchange(rig.port);
    try {
      raw.read();
      const bad = (key: string, value: Uint8Array): MetadataEntry[] => [
        { key: 'x-fine', value: Buffer.from('1') },
        { key, value },
      ];
      raw.write(
        batch([
          call(1, 'GetInfoV3', bad('Bad Key!', Buffer.from('v'))),
          call(2, 'GetInfoV3', bad('x-text', Buffer.from('a\nb'))),
          call(3, 'GetInfoV3', bad('x-utf8', Uint8Array.of(0xff))),
          call(4, 'GetInfoV3', bad('x-bytes-bin', Buffer.from('a\nb'))),
        ]),
      );
      await until(() => raw.frames.length === 4);
      const frames = byId(raw.frames);
      for (const [id, key] of [
        [1, 'Bad Key!'],
        [2, 'x-text'],
        [3, 'x-utf8'],
      ] as const) {
        expect(frames.get(id)).to.include({ kind: FrameKind.FRAME_KIND_FAILURE, statusCode: Status.INVALID_ARGUMENT });
        expect(frames.get(id)!.statusDetails).to.include(JSON.stringify(key));
      }
      expect(frames.get(4)!.kind).to.equal(FrameKind.FRAME_KIND_ANSWER); // any bytes are fine in a -bin value
      raw.write(batch([call(5, 'GetInfoV3')]));
      await until(() => raw.frames.length === 5);
      expect(raw.frames[4]).to.include({ kind: FrameKind.FRAME_KIND_ANSWER, callId: 5 });
      expect(rig.errors).to.deep.equal([]);
    } finally {
      raw.close();
      rig.stop();
    }
  });

  it('an unexpected failure while dispatching a frame: that call INTERNAL, logged once; bytes that do not decode end only their stream', async () => {
    const service = { getInfoV3: answered('ok') };
    const throwing = (): never => {
      throw new Error('a service that throws');
    };
    Object.defineProperty(service, 'getTips', { enumerable: true, get: throwing });
    const rig = await serve(service);
    const raw = exchange(rig.port);
    const garbled = exchange(rig.port);
    try {
      raw.read();
      raw.write(batch([call(1, 'GetTips'), call(2, 'GetTips'), call(3, 'GetInfoV3')]));
      await until(() => raw.frames.length === 3);
      const frames = byId(raw.frames);
      for (const id of [1, 2])
        expect(frames.get(id)).to.include({
          kind: FrameKind.FRAME_KIND_FAILURE,
          statusCode: Status.INTERNAL,
          statusDetails: 'Internal error',
        });
      expect(frames.get(3)!.kind).to.equal(FrameKind.FRAME_KIND_ANSWER);
      expect(rig.errors).to.have.length(1);
      expect(rig.errors[0]).to.match(/a frame of call 1 failed unexpectedly .*a service that throws/);

      garbled.read();
      garbled.write(Buffer.concat([batch([call(7, 'GetInfoV3')]), Buffer.from([0x0a, 0x40, 0x08])])); // a frame cut short
      await until(() => garbled.status !== undefined);
      expect(garbled.status).to.include({ code: Status.INTERNAL, details: 'Error deserializing request' });
      raw.write(batch([call(4, 'GetInfoV3')]));
      await until(() => raw.frames.length === 4);
      expect(raw.frames[3]).to.include({ kind: FrameKind.FRAME_KIND_ANSWER, callId: 4 });
    } finally {
      raw.close();
      garbled.close();
      rig.stop();
    }
  });

  it(`at most ${MAX_CALLS_IN_FLIGHT} calls under way per stream: one more is RESOURCE_EXHAUSTED without running; a cancel frees a place`, async () => {
    let started = 0;
    const rig = await serve({
      getInfo: () => {
        started++;
        return never();
      },
    });
    const raw = exchange(rig.port);
    try {
      raw.read();
      raw.write(callBatch(1, MAX_CALLS_IN_FLIGHT + 76));
      await until(() => raw.frames.length === 76);
      expect(started).to.equal(MAX_CALLS_IN_FLIGHT);
      expect(raw.frames.map((f) => f.callId)).to.deep.equal(
        Array.from({ length: 76 }, (_, i) => MAX_CALLS_IN_FLIGHT + 1 + i),
      );
      expect(raw.frames[0]).to.include({
        kind: FrameKind.FRAME_KIND_FAILURE,
        statusCode: Status.RESOURCE_EXHAUSTED,
        statusDetails: 'Too many calls under way on this stream (at most 1024): wait for answers',
      });
      raw.write(batch([cancel(1), cancel(2), call(5000, 'GetInfo'), call(5001, 'GetInfo'), call(5002, 'GetInfo')]));
      await until(() => raw.frames.length === 77);
      expect([started, raw.frames[76]!.callId, rig.mux.stats().calls]).to.deep.equal([
        MAX_CALLS_IN_FLIGHT + 2,
        5002,
        MAX_CALLS_IN_FLIGHT,
      ]);
    } finally {
      raw.close();
      rig.stop();
    }
  });

  it('a call without a deadline (timeout_ms 0) or with a later one ends at the node door`s limit; the service`s signal aborts', async () => {
    expect(MUX_MAX_CALL_MS).to.equal(NODE_DOOR_MAX_CALL_MS);
    let cancelled = 0;
    const rig = await serve(
      {
        getInfo: (_r: unknown, signal: AbortSignal) => {
          signal.addEventListener('abort', () => cancelled++);
          return never();
        },
      },
      { maxCallMs: 300 },
    );
    const raw = exchange(rig.port);
    try {
      raw.read();
      const t0 = Date.now();
      raw.write(batch([call(1, 'GetInfo'), call(2, 'GetInfo', [], 3_600_000), call(3, 'GetInfo', [], 100)]));
      await until(() => raw.frames.length === 3 && cancelled === 3);
      expect(Date.now() - t0).to.be.at.least(280);
      const frames = byId(raw.frames);
      for (const id of [1, 2])
        expect(frames.get(id)).to.include({
          statusCode: Status.DEADLINE_EXCEEDED,
          statusDetails: 'Deadline exceeded (this node answers a call within 0.3 s)',
        });
      expect(frames.get(3)).to.include({ statusCode: Status.DEADLINE_EXCEEDED, statusDetails: 'Deadline exceeded' });
      expect(raw.frames[0]!.callId).to.equal(3);
      expect(rig.mux.stats().calls).to.equal(0);
    } finally {
      raw.close();
      rig.stop();
    }
  });

  it('300k CALL frames without deadlines from a client that never reads: 1,024 run, dispatch stops mid-batch, memory and event loop stay bounded; read, every other call is RESOURCE_EXHAUSTED', async function () {
    this.timeout(60000);
    let started = 0;
    const rig = await serve({
      getInfo: () => {
        started++;
        return never();
      },
    });
    const total = 300_000;
    const batches = [callBatch(1, total / 2), callBatch(total / 2 + 1, total / 2)];
    expect(batches[0]!.length)
      .to.be.above(2 * MiB)
      .and.below(MAX_MESSAGE_BYTES);
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const raw = exchange(rig.port);
    try {
      for (const b of batches) raw.write(b);
      await until(() => started === MAX_CALLS_IN_FLIGHT);
      const held = await settled(() => rig.mux.stats(), 1000); // a loaded box can pause the reads for 300 ms
      lag.disable();
      gc();
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
      expect(started).to.equal(MAX_CALLS_IN_FLIGHT);
      expect(held.calls).to.equal(MAX_CALLS_IN_FLIGHT);
      expect(held.queuedBytes, 'frames received and not dispatched')
        .to.be.above(0)
        .and.at.most(2 * MAX_MESSAGE_BYTES);
      expect(held.backlogBytes, 'answers waiting to be written')
        .to.be.above(4 * MiB)
        .and.below(5 * MiB);
      expect(heapGrowth, 'heap growth').to.be.below(64 * MiB);
      expect(lag.max / 1e6, 'longest event loop delay, ms').to.be.below(250);

      let exhausted = 0;
      raw.read((f) => {
        if (f.statusCode === Status.RESOURCE_EXHAUSTED) exhausted++;
        return false;
      });
      await until(() => exhausted === total - MAX_CALLS_IN_FLIGHT, 45000);
      expect(rig.mux.stats()).to.include({ calls: MAX_CALLS_IN_FLIGHT, queuedBytes: 0 });
      expect(started).to.equal(MAX_CALLS_IN_FLIGHT);
      raw.close();
      await until(() => rig.mux.stats().streams === 0);
      expect(rig.mux.stats().calls).to.equal(0);
    } finally {
      raw.close();
      rig.stop();
    }
  });

  it('more than maxQueuedBytes received and not dispatched: the stream ends RESOURCE_EXHAUSTED, its calls cancelled', async function () {
    this.timeout(20000);
    let cancelled = 0;
    const rig = await serve(
      {
        getInfo: (_r: unknown, signal: AbortSignal) => {
          signal.addEventListener('abort', () => cancelled++);
          return never();
        },
      },
      { maxQueuedBytes: 256 * 1024 },
    );
    const raw = exchange(rig.port);
    try {
      raw.write(callBatch(1, 100_000));
      await until(() => cancelled === MAX_CALLS_IN_FLIGHT);
      expect(rig.mux.stats()).to.deep.equal({ streams: 0, calls: 0, queuedBytes: 0, backlogBytes: 0 });
      raw.read(() => false);
      await until(() => raw.status !== undefined);
      expect(raw.status!.code).to.equal(Status.RESOURCE_EXHAUSTED);
      expect(raw.status!.details).to.match(
        /^Too much received and not yet dispatched \(\d+ bytes, at most 262144\): read the answers$/,
      );
    } finally {
      raw.close();
      rig.stop();
    }
  });
});

describe('the gateway`s mux client under the node`s limit', () => {
  it(`never has more than ${MAX_CALLS_IN_FLIGHT} calls under way on a stream: the others wait in order, expire or are cancelled there`, async function () {
    this.timeout(20000);
    const pending: ((answer: { json: string }) => void)[] = [];
    const rig = await serve({ getInfoV3: () => new Promise((resolve) => pending.push(resolve)) });
    const client = createMuxNodePort(`127.0.0.1:${rig.port}`);
    const outcomes: (string | number)[] = [];
    const invoke = (i: number, options: { deadline?: number; signal?: AbortSignal } = {}) =>
      client.getInfoV3({}, options).then(
        (r) => (outcomes[i] = r.json),
        (e: NodeCallError) => (outcomes[i] = e.grpcCode),
      );
    try {
      const n = MAX_CALLS_IN_FLIGHT + 200;
      for (let i = 0; i < n; i++) invoke(i);
      invoke(n, { deadline: Date.now() + 200 }); // waits behind the others until its deadline
      const cancelled = new AbortController();
      invoke(n + 1, { signal: cancelled.signal });
      await until(() => pending.length === MAX_CALLS_IN_FLIGHT);
      cancelled.abort();
      await until(() => outcomes[n] !== undefined && outcomes[n + 1] !== undefined);
      expect([outcomes[n], outcomes[n + 1]]).to.deep.equal([Status.DEADLINE_EXCEEDED, Status.CANCELLED]);
      expect(rig.mux.stats().calls).to.equal(MAX_CALLS_IN_FLIGHT);
      let answeredSoFar = 0;
      while (answeredSoFar < n) {
        const cbs = pending.splice(0);
        cbs.forEach((resolve, k) => {
          resolve({ json: `answer ${answeredSoFar + k}` });
        });
        answeredSoFar += cbs.length;
        expect(rig.mux.stats().calls).to.be.at.most(MAX_CALLS_IN_FLIGHT);
        await until(() => pending.length > 0 || outcomes.filter((o) => typeof o === 'string').length === n);
      }
      await until(() => outcomes.filter((o) => typeof o === 'string').length === n);
      expect(outcomes.slice(0, n)).to.deep.equal(Array.from({ length: n }, (_, i) => `answer ${i}`));
      expect(rig.errors).to.deep.equal([]);
    } finally {
      client.close();
      rig.stop();
    }
  });
});
