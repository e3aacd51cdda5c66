/**
 * What the gRPC fuzz (grpc.ts: the NodeService; grpc-mux.ts; grpc-peer.ts) shares: how an answer is judged, the
 * tally, the case runner and seeds, and RawDoor, a grpc-js client that sends raw bytes (identity serializers), so
 * malformed protobuf reaches the server.
 *
 * A call is good when it gets a status before its deadline, with details that are well-formed text of at most
 * MAX_DETAILS_CHARS and trailers of at most MAX_TRAILER_BYTES; a call without an answer, a connection or stream the
 * transport dropped, or an INTERNAL answer (the node's word for a defect) is a failure. grpc-js's own refusals of a
 * request (not protobuf, too large, no such method) are answers, counted apart in the tally.
 */
import {
  Client,
  credentials,
  Metadata,
  status as Status,
  type ClientDuplexStream,
  type StatusObject,
} from '@grpc/grpc-js';
import { decodeStatusDetails, STATUS_DETAILS_KEY } from '../../src/grpc/status.ts';
import { Rng } from './mutate.ts';
import { hexPreview } from './grpc-wire.ts';

/** Longest status details a node may answer (its messages are a sentence, quoting a short piece of the input). */
export const MAX_DETAILS_CHARS = 2048;
/** Most bytes of trailers (keys and values, the ErrorInfo trailer included) a node may answer. */
export const MAX_TRAILER_BYTES = 8192;
/** The deadline of each call, and how long a stream case may take. */
export const CALL_DEADLINE_MS = 5000;

/** What came back for a call or a stream: its status, or nothing before the deadline. */
export interface Answer {
  code: Status;
  details: string;
  trailerBytes: number;
  /** The domain code of the node's ErrorInfo trailer (src/grpc/status.ts), when one came. */
  errorCode?: string;
  ms: number;
  timedOut: boolean;
}

export type Verdict = { ok: true; label: string } | { ok: false; label: string; reason: string };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** grpc-js's own answers to a request it would not take: malformed protobuf, too large, an unknown method. */
const TRANSPORT_REFUSALS = new RegExp(
  ['^Error deserializing request', '^Received message larger than max', '^The server does not implement'].join('|'),
);
/** Codes that, without the node's ErrorInfo and not one of those refusals, mean a connection or stream broke. */
const BROKEN = new Set([Status.UNAVAILABLE, Status.CANCELLED, Status.UNKNOWN, Status.INTERNAL]);

/** An Answer from a status and its trailers (grpc-js metadata, or a mux frame's entries). */
export function answerOf(
  code: Status,
  details: string,
  trailers: [string, string | Uint8Array][],
  ms: number,
  deadlineMs: number,
): Answer {
  let trailerBytes = 0;
  let errorCode: string | undefined;
  for (const [key, value] of trailers) {
    trailerBytes += key.length + value.length;
    if (key === STATUS_DETAILS_KEY && value instanceof Uint8Array) errorCode = decodeStatusDetails(value)?.info.code;
  }
  const timedOut = code === Status.DEADLINE_EXCEEDED && errorCode === undefined && ms >= deadlineMs - 50;
  return { code, details, trailerBytes, ...(errorCode !== undefined ? { errorCode } : {}), ms, timedOut };
}

export const entriesOf = (m: Metadata | undefined): [string, string | Uint8Array][] =>
  Object.entries(m?.toJSON() ?? {}).flatMap(([k, vs]) => vs.map((v): [string, string | Uint8Array] => [k, v]));

/** Judges one answer; the label is what the tally counts (the status name, or the kind of failure). */
export function judge(a: Answer): Verdict {
  const name = Status[a.code] ?? `code ${a.code}`;
  const quoted = JSON.stringify(a.details.slice(0, 160));
  const fail = (label: string, reason: string): Verdict => ({ ok: false, label, reason });
  if (a.timedOut) return fail('no answer', `no status within ${Math.round(a.ms)} ms`);
  if (LONE_SURROGATE.test(a.details)) return fail('details not UTF-8', `${name}, a lone surrogate in ${quoted}`);
  if (a.details.length > MAX_DETAILS_CHARS) {
    return fail('long details', `${name} with ${a.details.length} chars of details ${quoted}`);
  }
  if (a.trailerBytes > MAX_TRAILER_BYTES) return fail('long trailers', `${name}, ${a.trailerBytes} bytes of trailers`);
  if (a.errorCode === 'INTERNAL') return fail('INTERNAL', `the node failed unexpectedly: ${quoted}`);
  if (a.errorCode === undefined && TRANSPORT_REFUSALS.test(a.details)) {
    const why = a.details.startsWith('Error deserializing') ? 'not protobuf' : 'transport';
    return { ok: true, label: `${name} (${why})` };
  }
  if (a.errorCode === undefined && BROKEN.has(a.code)) {
    return fail('dropped', `${name} from the transport, not the node: ${quoted}`);
  }
  return { ok: true, label: name };
}

/** Outcome counts per target (or per group of cases, such as the fixed ones), and every failure. */
export class GrpcTally {
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly failed = new Map<string, number>();
  readonly failures: string[] = [];
  total = 0;
  add(group: string, label: string, failure?: string): void {
    const m = this.counts.get(group) ?? new Map<string, number>();
    m.set(label, (m.get(label) ?? 0) + 1);
    this.counts.set(group, m);
    this.total++;
    if (failure === undefined) return;
    this.failures.push(failure);
    this.failed.set(group, (this.failed.get(group) ?? 0) + 1);
  }
  line(group: string): string {
    const m = this.counts.get(group) ?? new Map<string, number>();
    const n = [...m.values()].reduce((a, b) => a + b, 0);
    const parts = [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
    return `${group}: ${n} cases, ${this.failed.get(group) ?? 0} failures: ${parts.join(', ')}`;
  }
  render(): string {
    return [...this.counts.keys()].map((t) => this.line(t)).join('\n');
  }
}

/** One generated case: which door, the seed that made it, what was mutated, and the request's bytes. */
export interface FuzzCase {
  target: string;
  seed: number;
  mutation: string;
  bytes: Uint8Array;
}

export const caseLabel = (c: FuzzCase): string =>
  `${c.target} seed ${c.seed} (${c.mutation}) request ${hexPreview(c.bytes)}`;

/**
 * Sends `cases` one after the other and counts them; stops after `maxFailures` failures (a node that stalls would
 * otherwise cost a deadline per case). `check` may turn a verdict into a failure (the test: something was thrown);
 * `group` counts the cases under one name instead of their targets'.
 */
export async function runCases<C extends FuzzCase>(
  cases: Iterable<C>,
  send: (c: C) => Promise<Verdict>,
  tally: GrpcTally,
  options: { maxFailures?: number; check?: (c: C, v: Verdict) => Verdict; group?: string } = {},
): Promise<string[]> {
  const failures: string[] = [];
  for (const c of cases) {
    let v = await send(c);
    if (options.check) v = options.check(c, v);
    const failure = v.ok ? undefined : `${caseLabel(c)}: ${v.reason}`;
    tally.add(options.group ?? c.target, v.label, failure);
    if (failure !== undefined && failures.push(failure) >= (options.maxFailures ?? Infinity)) break;
  }
  return failures;
}

/** A seed sequence per target from one master seed (FNV-1a of the target's name mixed in). */
export function targetSeeds(master: number, target: string, n: number): number[] {
  let h = 0x811c9dc5;
  for (const ch of target) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  const rng = new Rng((master ^ h) >>> 0);
  return Array.from({ length: n }, () => rng.int(0x7fffffff));
}

/** The serializer of raw bytes: the request goes out as generated, malformed or not. */
export const identity = (b: Buffer): Buffer => b;
/** A Buffer over the same bytes (grpc-js writes Buffers). */
export const asBuffer = (b: Uint8Array): Buffer => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** A bidirectional stream of raw bytes (identity serializers) on `client`'s connection to the method at `path`. */
export const rawStream = (client: Client, path: string): ClientDuplexStream<Buffer, Buffer> =>
  client.makeBidiStreamRequest(path, identity, identity) as ClientDuplexStream<Buffer, Buffer>;

/**
 * The status a stream ended with, judged as a unary call's (`judge`) after `ms` of its `deadlineMs`; a good end is
 * labelled `${ended} ${label}`, a bad one's reason starts with "the stream".
 */
export function judgeStreamEnd(status: StatusObject, ms: number, deadlineMs: number, ended: string): Verdict {
  const v = judge(answerOf(status.code, status.details, entriesOf(status.metadata), ms, deadlineMs));
  return v.ok ? { ok: true, label: `${ended} ${v.label}` } : { ...v, reason: `the stream: ${v.reason}` };
}

/** Resolves true when `done` settles within `ms`, false when the time ran out first. */
export async function within(done: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const inTime = await Promise.race([done.then(() => true), late]);
  clearTimeout(timer);
  return inTime;
}

/** A grpc-js client of one address that sends raw request bytes and returns the raw answer. */
export class RawDoor {
  private client: Client;
  constructor(
    readonly address: string,
    readonly deadlineMs = CALL_DEADLINE_MS,
  ) {
    this.client = new Client(address, credentials.createInsecure());
  }

  /** Whatever the server answers, the Answer; `response` when it is OK. */
  call(path: string, bytes: Uint8Array, deadlineMs = this.deadlineMs): Promise<{ answer: Answer; response?: Buffer }> {
    const t0 = performance.now();
    const request = asBuffer(bytes);
    const options = { deadline: Date.now() + deadlineMs };
    return new Promise((resolve) => {
      this.client.makeUnaryRequest(path, identity, identity, request, new Metadata(), options, (err, res) => {
        const ms = performance.now() - t0;
        if (err) resolve({ answer: answerOf(err.code, err.details ?? '', entriesOf(err.metadata), ms, deadlineMs) });
        else resolve({ answer: answerOf(Status.OK, '', [], ms, deadlineMs), response: res! });
      });
    });
  }

  /** A new connection: after a failed case, so that one stalled connection does not fail every later case. */
  reconnect(): void {
    this.client.close();
    this.client = new Client(this.address, credentials.createInsecure());
  }

  /** The underlying client (the mux sends its streams over the same connection). */
  get channel(): Client {
    return this.client;
  }

  close(): void {
    this.client.close();
  }
}

/** `v`, after giving `door` a new connection when `v` is a failure (a stalled connection would fail later cases). */
export function freshAfterFailure(door: RawDoor, v: Verdict): Verdict {
  if (!v.ok) door.reconnect();
  return v;
}

/** `v`, or a failure when it is a status other than INVALID_ARGUMENT (what an oversized or malformed field gets). */
export function wantInvalidArgument(v: Verdict): Verdict {
  return v.ok && v.label !== 'INVALID_ARGUMENT'
    ? { ok: false, label: v.label, reason: `${v.label}, expected INVALID_ARGUMENT` }
    : v;
}
