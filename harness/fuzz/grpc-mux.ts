/**
 * The gRPC fuzz of the mux, NodeMux/Exchange (proto/mux.proto): a batch per case on a new stream of the node service
 * door's connection: a CALL frame carrying a mutated NodeService request (grpc.ts), frames with hostile fields
 * (kinds, call IDs, method names, metadata), or a valid batch mutated on the wire; then a probe CALL (GetInfo). Good:
 * every call the case watches and the probe are answered, or the node ends the stream with a status. Call failures
 * and the stream's status are judged as a unary call's status is (grpc-harness.ts judge). A case's `bytes` are the
 * batch it wrote.
 */
import type { Client, StatusObject } from '@grpc/grpc-js';
import { FrameKind, MuxBatch, type MetadataEntry, type MuxFrame } from '../../src/grpc/gen/mux.ts';
import { EXCHANGE, WIRE_NAME } from '../../src/grpc/mux.ts';
import { Rng } from './mutate.ts';
import {
  answerOf,
  asBuffer,
  CALL_DEADLINE_MS,
  freshAfterFailure,
  judge,
  judgeStreamEnd,
  rawStream,
  within,
} from './grpc-harness.ts';
import type { FuzzCase, RawDoor, Verdict } from './grpc-harness.ts';
import { NODE_METHODS, requestsFor, unaryCase, type BlockCorpus, type Known } from './grpc.ts';
import { hostilePayload, mutateMessage, PAYLOAD_KINDS } from './grpc-wire.ts';

export const MUX_TARGET = 'NodeMux/Exchange';

/** The call ID of the probe that follows every case's batch. */
const PROBE_ID = 0x7ffffff0;

export interface MuxCase extends FuzzCase {
  /** Call IDs whose answer (ANSWER or FAILURE frame) must come, besides the probe's. */
  watch: number[];
}

const frameOf = (f: Partial<MuxFrame>): MuxFrame => ({
  kind: FrameKind.FRAME_KIND_CALL,
  callId: 1,
  method: '',
  message: new Uint8Array(0),
  timeoutMs: 0,
  statusCode: 0,
  statusDetails: '',
  metadata: [],
  ...f,
});
const batchOf = (frames: MuxFrame[]): Uint8Array => MuxBatch.encode({ frames }).finish();

/** Keys grpc-js refuses, reserved ones, and one of 10,000 characters. */
const METADATA_KEYS = ['x-fuzz', 'Bad Key!', '', ':path', 'grpc-timeout', 'content-type', 'x-bin', 'k'.repeat(10_000)];
/** Method names that are not a NodeService method's wire name, however close. */
const METHOD_NAMES = ['', 'getBlock', '/ledger.v1.NodeService/GetBlock', 'GetBlock\u0000', '\u{1f600}'];
const LONG_NAME = 'x'.repeat(70_000);

/** Metadata entries with odd keys and hostile values (the node turns them into grpc-js metadata). */
function hostileMetadata(rng: Rng): MetadataEntry[] {
  const kinds = PAYLOAD_KINDS.filter((k) => k !== 'id1m');
  const entry = (): MetadataEntry => ({ key: rng.pick(METADATA_KEYS), value: hostilePayload(rng, rng.pick(kinds)) });
  return Array.from({ length: 1 + rng.int(3) }, entry);
}

/** The mux case `seed`: a CALL of a mutated request, hostile frames, or a valid batch mutated on the wire. */
export function muxCase(seed: number, k: Known, c: BlockCorpus): MuxCase {
  const rng = new Rng(seed);
  const shape = rng.pick(['call', 'call', 'frames', 'batch'] as const);
  const wireName = (): string => WIRE_NAME[rng.pick(NODE_METHODS)];
  if (shape === 'call') {
    const inner = unaryCase(rng.pick(NODE_METHODS), rng.int(0x7fffffff), k, c);
    const callId = 1 + rng.int(1000);
    const timeoutMs = rng.pick([0, 1, 3000, 0xffffffff]);
    const metadata = rng.bool(0.2) ? hostileMetadata(rng) : [];
    const frame = frameOf({ callId, method: WIRE_NAME[inner.method], message: inner.bytes, timeoutMs, metadata });
    const what = `CALL ${WIRE_NAME[inner.method]} seed ${inner.seed} (${inner.mutation}), timeout ${timeoutMs} ms`;
    const mutation = `${what}${metadata.length > 0 ? ', hostile metadata' : ''}`;
    return { target: MUX_TARGET, seed, mutation, bytes: batchOf([frame]), watch: [callId] };
  }
  if (shape === 'frames') {
    const frames = Array.from({ length: 1 + rng.int(3) }, () => {
      const method = rng.bool(0.6) ? wireName() : rng.pick([...METHOD_NAMES, LONG_NAME]);
      const known = NODE_METHODS.find((m) => WIRE_NAME[m] === method);
      const valid = known && rng.bool(0.6);
      const message = valid ? rng.pick(requestsFor(known, k, rng, c)) : hostilePayload(rng, rng.pick(PAYLOAD_KINDS));
      return frameOf({
        kind: rng.pick([0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 99]) as FrameKind, // 99: no kind of the enum
        callId: rng.pick([0, 1, 2, PROBE_ID - 1, 0xffffffff]),
        method,
        message,
        timeoutMs: rng.pick([0, 1, 5000, 0xffffffff]),
        statusCode: rng.pick([0, 2, 13, 99]),
        statusDetails: rng.pick(['', 'x'.repeat(5000), '\u0000']),
        metadata: rng.bool(0.3) ? hostileMetadata(rng) : [],
      });
    });
    const named = (f: MuxFrame): string => `${FrameKind[f.kind] ?? f.kind} ${f.callId} ${JSON.stringify(f.method)}`;
    const kinds = frames.map((f) => named({ ...f, method: f.method.slice(0, 40) }));
    return { target: MUX_TARGET, seed, mutation: `frames: ${kinds.join('; ')}`, bytes: batchOf(frames), watch: [] };
  }
  const calls = Array.from({ length: 1 + rng.int(3) }, (_, i) => {
    const method = rng.pick(NODE_METHODS);
    const message = rng.pick(requestsFor(method, k, rng, c));
    return frameOf({ callId: 1 + i, method: WIRE_NAME[method], message, timeoutMs: 3000 });
  });
  const m = mutateMessage(rng, batchOf(calls));
  const mutation = `batch of ${calls.map((f) => f.method).join(', ')}: ${m.mutation}`;
  return { target: MUX_TARGET, seed, mutation, bytes: m.bytes, watch: [] };
}

/** Sends one mux case on a new Exchange stream of `door`'s connection and judges what came back. */
export async function sendMux(door: RawDoor, c: MuxCase, deadlineMs = CALL_DEADLINE_MS): Promise<Verdict> {
  return freshAfterFailure(door, await exchange(door.channel, c, deadlineMs));
}

async function exchange(client: Client, c: MuxCase, deadlineMs: number): Promise<Verdict> {
  const t0 = performance.now();
  const stream = rawStream(client, EXCHANGE.path);
  const answers = new Map<number, MuxFrame>();
  let undecodable: string | undefined;
  let status: StatusObject | undefined;
  const done = new Promise<void>((resolve) => {
    const check = (): void => {
      if (status || (answers.has(PROBE_ID) && c.watch.every((id) => answers.has(id)))) resolve();
    };
    stream.on('data', (b: Buffer) => {
      try {
        for (const f of MuxBatch.decode(b).frames) if (f.kind !== FrameKind.FRAME_KIND_GOAWAY) answers.set(f.callId, f);
      } catch (e) {
        undecodable = (e as Error).message;
      }
      check();
    });
    stream.on('status', (s: StatusObject) => {
      status = s;
      check();
    });
    stream.on('error', () => undefined); // the status says it
  });
  stream.write(asBuffer(c.bytes));
  stream.write(asBuffer(batchOf([frameOf({ callId: PROBE_ID, method: WIRE_NAME.getInfo, timeoutMs: deadlineMs })])));
  const inTime = await within(done, deadlineMs);
  const ms = performance.now() - t0;
  stream.cancel();
  if (undecodable !== undefined) return { ok: false, label: 'bad answer', reason: `no MuxBatch: ${undecodable}` };
  const verdicts = new Map<number, Verdict>();
  for (const [id, f] of answers) {
    if (f.kind === FrameKind.FRAME_KIND_ANSWER) verdicts.set(id, { ok: true, label: 'OK' });
    if (f.kind !== FrameKind.FRAME_KIND_FAILURE) continue;
    const trailers = f.metadata.map((e): [string, Uint8Array] => [e.key, e.value]);
    const v = judge(answerOf(f.statusCode, f.statusDetails, trailers, ms, deadlineMs));
    if (!v.ok) return { ...v, reason: `call ${id}: ${v.reason}` };
    verdicts.set(id, v);
  }
  if (status) return judgeStreamEnd(status, ms, deadlineMs, 'stream');
  if (!inTime) {
    const missing = [...c.watch, PROBE_ID].filter((id) => !answers.has(id));
    const reason = `no answer to call(s) ${missing.join(', ')} and no end of the stream in ${deadlineMs} ms`;
    return { ok: false, label: 'no answer', reason };
  }
  return (c.watch.length > 0 ? verdicts.get(c.watch[0]!) : undefined) ?? { ok: true, label: 'probe answered' };
}
