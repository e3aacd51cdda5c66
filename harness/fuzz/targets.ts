/**
 * Fuzz targets over the real vectors: each target has a seed corpus (bytes or parsed JSON), runs one input through
 * a decoder or JSON mapper, and checks the one allowed outcome besides a ProtocolError: an accepted input is
 * canonical (bytes re-encode identically; accepted JSON reads back from its own rendering to the same bytes).
 * `runCase` classifies an input as accepted / rejected:<code>, or returns a failure (any other exception, a broken
 * canonical round trip, or a decode slower than the time bound). Runtime-neutral (Node and Deno).
 */
import { toHex } from '../../src/core/bytes.ts';
import {
  decodeBlock,
  decodePayload,
  decodeOutput,
  encodeBlock,
  encodePayload,
  encodeOutput,
} from '../../src/core/codec/index.ts';
import { ProtocolError } from '../../src/core/errors.ts';
import {
  blockFromJson,
  blockToJson,
  outputFromJson,
  outputToJson,
  payloadFromJson,
  payloadToJson,
} from '../../src/core/json/index.ts';
import * as V3 from '../../src/core/v3/index.ts';
import { loadVectors } from '../vectors.ts';
import {
  JSON_MUTATIONS,
  BYTE_MUTATIONS,
  mutateBytes,
  mutateJson,
  Rng,
  type ByteMutation,
  type JsonMutation,
} from './mutate.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;

const hexBytes = (s: string): Uint8Array => {
  const t = s.startsWith('0x') ? s.slice(2) : s;
  const out = new Uint8Array(t.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(t.slice(2 * i, 2 * i + 2), 16);
  return out;
};
const roundTrip = (v: unknown): J => JSON.parse(JSON.stringify(v));

interface BytesTarget {
  name: string;
  input: 'bytes';
  corpus: Uint8Array[];
  /** Decodes and returns the canonical re-encoding. */
  run(bytes: Uint8Array): Uint8Array;
}

interface JsonTarget {
  name: string;
  input: 'json';
  corpus: J[];
  /** Maps JSON to a model; returns its bytes and the bytes of the model read back from its own JSON rendering. */
  run(json: J): { bytes: Uint8Array; again: Uint8Array };
}

export type Target = BytesTarget | JsonTarget;

/** A decoder's target: an accepted input must `encode` to its own bytes again. */
function bytesTarget<T>(
  name: string,
  corpus: Uint8Array[],
  decode: (bytes: Uint8Array) => T,
  encode: (value: T) => Uint8Array,
): BytesTarget {
  return { name, input: 'bytes', corpus, run: (b) => encode(decode(b)) };
}

/** A JSON mapper's target: `from` maps JSON to a model, `to` renders it, `encode` gives the bytes of both. */
function jsonTarget<T>(
  name: string,
  corpus: J[],
  from: (json: J) => T,
  to: (value: T) => unknown,
  encode: (value: T) => Uint8Array,
): JsonTarget {
  return {
    name,
    input: 'json',
    corpus,
    run: (j) => {
      const v = from(j);
      return { bytes: encode(v), again: encode(from(roundTrip(to(v)))) };
    },
  };
}

function tryAll<T>(items: Iterable<T>, f: (x: T) => void): void {
  for (const x of items) {
    try {
      f(x);
    } catch {
      // corpus entries a decoder rejects are left out of that decoder's corpus
    }
  }
}

/** The vectors of a v3 vector file that `decode` accepts: their bytes and their JSON renderings. */
function v3Corpus<T>(
  file: string,
  decode: (bytes: Uint8Array) => T,
  toJson: (value: T) => unknown,
): { bytes: Uint8Array[]; json: J[] } {
  const bytes: Uint8Array[] = [];
  const json: J[] = [];
  tryAll(loadVectors(file).vectors as J[], (v) => {
    const b = hexBytes(v.bytes);
    json.push(roundTrip(toJson(decode(b))));
    bytes.push(b);
  });
  return { bytes, json };
}

/** Loads every target with its corpus from the test vectors (test/vectors). */
export function loadTargets(): Target[] {
  // ---- v2 (Stardust)
  const blockHex: string[] = loadVectors('stardust/blocks.json').vectors.map((v: J) => v.bytes);
  const shimmer = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
  for (const m of shimmer.milestones as J[])
    for (const b of (m.coneInWhiteFlagOrder as J[]).slice(0, 8)) blockHex.push(b.bytes);
  const v2Blocks: Uint8Array[] = [];
  const v2BlockJson: J[] = [];
  const v2Payloads: Uint8Array[] = [];
  const v2PayloadJson: J[] = [];
  const v2Outputs: Uint8Array[] = [];
  const v2OutputJson: J[] = [];
  tryAll(blockHex, (h) => {
    const bytes = hexBytes(h);
    const block = decodeBlock(bytes);
    v2Blocks.push(bytes);
    v2BlockJson.push(roundTrip(blockToJson(block)));
    if (block.payload) {
      v2Payloads.push(encodePayload(block.payload));
      v2PayloadJson.push(roundTrip(payloadToJson(block.payload)));
      if (block.payload.type === 6)
        for (const o of block.payload.essence.outputs.slice(0, 4)) v2Outputs.push(encodeOutput(o));
    }
  });
  const ms = loadVectors('stardust/milestones.json');
  tryAll(ms.vectors as J[], (v) => {
    if (v.payloadBytes) v2Payloads.push(hexBytes(v.payloadBytes));
  });
  tryAll(loadVectors('stardust/transactions.json').vectors as J[], (v) => {
    if (v.derived.transactionPayloadHex) v2Payloads.push(hexBytes(v.derived.transactionPayloadHex));
    if (v.derived.inputOutputHex) v2Outputs.push(hexBytes(v.derived.inputOutputHex));
  });
  tryAll(loadVectors('stardust/outputs.json').serialization as J[], (v) => {
    const o = decodeOutput(hexBytes(v.bytes));
    v2Outputs.push(hexBytes(v.bytes));
    v2OutputJson.push(roundTrip(outputToJson(o)));
  });
  tryAll(v2Outputs, (b) => v2OutputJson.push(roundTrip(outputToJson(decodeOutput(b)))));

  // ---- v3 (IOTA 2.0)
  const params = V3.protocolParametersFromJsonV3(loadVectors('nova-v3/ids-and-misc.json').protocolParameters[0].json);
  const v3Block = v3Corpus('nova-v3/blocks.json', (b) => V3.decodeBlockV3(b, params), V3.blockToJsonV3);
  const v3Payload = v3Corpus('nova-v3/transactions.json', V3.decodePayloadV3, V3.payloadToJsonV3);
  const v3Output = v3Corpus('nova-v3/outputs.json', V3.decodeOutputV3, V3.outputToJsonV3);

  return [
    bytesTarget('v2 decodeBlock', v2Blocks, decodeBlock, encodeBlock),
    bytesTarget(
      'v2 decodeBlock (allowNoParents)',
      v2Blocks,
      (b) => decodeBlock(b, { allowNoParents: true }),
      encodeBlock,
    ),
    bytesTarget('v2 decodePayload', v2Payloads, decodePayload, encodePayload),
    bytesTarget('v2 decodeOutput', v2Outputs, decodeOutput, encodeOutput),
    jsonTarget('v2 blockFromJson', v2BlockJson, blockFromJson, blockToJson, encodeBlock),
    jsonTarget(
      'v2 blockFromJson (submission)',
      v2BlockJson,
      (j) => blockFromJson(j, { submission: true }),
      blockToJson,
      encodeBlock,
    ),
    jsonTarget('v2 payloadFromJson', v2PayloadJson, payloadFromJson, payloadToJson, encodePayload),
    jsonTarget('v2 outputFromJson', v2OutputJson, outputFromJson, outputToJson, encodeOutput),
    bytesTarget('v3 decodeBlockV3', v3Block.bytes, (b) => V3.decodeBlockV3(b, params), V3.encodeBlockV3),
    bytesTarget('v3 decodePayloadV3', v3Payload.bytes, V3.decodePayloadV3, V3.encodePayloadV3),
    bytesTarget(
      'v3 decodeSignedTransactionV3',
      v3Payload.bytes,
      V3.decodeSignedTransactionV3,
      V3.encodeSignedTransactionV3,
    ),
    bytesTarget('v3 decodeOutputV3', v3Output.bytes, V3.decodeOutputV3, V3.encodeOutputV3),
    jsonTarget('v3 blockFromJsonV3', v3Block.json, V3.blockFromJsonV3, V3.blockToJsonV3, V3.encodeBlockV3),
    jsonTarget('v3 payloadFromJsonV3', v3Payload.json, V3.payloadFromJsonV3, V3.payloadToJsonV3, V3.encodePayloadV3),
    jsonTarget('v3 outputFromJsonV3', v3Output.json, V3.outputFromJsonV3, V3.outputToJsonV3, V3.encodeOutputV3),
  ];
}

/** A generated input: which corpus entry, which mutation, and the input itself. */
export interface FuzzInput {
  seed: number;
  mutation: ByteMutation | JsonMutation;
  bytes?: Uint8Array;
  json?: J;
}

/** The input for `seed` on `target`: a corpus entry picked and mutated by the seeded PRNG. */
export function generate(target: Target, seed: number): FuzzInput {
  const rng = new Rng(seed);
  if (target.input === 'bytes') {
    const base = rng.pick(target.corpus);
    const mutation = rng.pick(BYTE_MUTATIONS);
    return { seed, mutation, bytes: mutateBytes(rng, base, target.corpus, mutation) };
  }
  const base = rng.pick(target.corpus);
  const mutation = rng.pick(JSON_MUTATIONS);
  return { seed, mutation, json: mutateJson(rng, base, mutation) };
}

export type Outcome = { kind: 'accepted' } | { kind: 'rejected'; code: string } | { kind: 'failure'; reason: string };

/** Largest time one decode or mapping may take. */
export const CASE_TIME_BOUND_MS = 50;

const describeInput = (input: FuzzInput): string =>
  input.bytes
    ? `bytes ${toHex(input.bytes).slice(0, 400)}${input.bytes.length > 200 ? '...' : ''}`
    : `json ${JSON.stringify(input.json)?.slice(0, 400)}`;

/** Runs one input; everything but `accepted` and `rejected` is a failure that names the seed. */
export function runCase(target: Target, input: FuzzInput, timeBoundMs = CASE_TIME_BOUND_MS): Outcome {
  const fail = (why: string): Outcome => ({
    kind: 'failure',
    reason: `${target.name}, seed ${input.seed}, mutation ${input.mutation}: ${why}\n  ${describeInput(input)}`,
  });
  const t0 = performance.now();
  let outcome: Outcome;
  try {
    if (target.input === 'bytes') {
      const again = target.run(input.bytes!);
      outcome =
        toHex(again) === toHex(input.bytes!)
          ? { kind: 'accepted' }
          : fail(`accepted but not canonical: re-encodes to ${toHex(again).slice(0, 200)}`);
    } else {
      const { bytes, again } = target.run(input.json);
      outcome =
        toHex(again) === toHex(bytes)
          ? { kind: 'accepted' }
          : fail('accepted JSON does not read back from its own rendering to the same bytes');
    }
  } catch (e) {
    if (e instanceof ProtocolError) outcome = { kind: 'rejected', code: e.code };
    else outcome = fail(`threw ${(e as Error)?.name ?? typeof e}: ${String((e as Error)?.message ?? e).slice(0, 300)}`);
  }
  let ms = performance.now() - t0;
  // A garbage collection or a first compilation can pause one run: over the bound, the fastest of two more counts.
  for (let retry = 0; retry < 2 && ms > timeBoundMs && outcome.kind !== 'failure'; retry++) {
    const t1 = performance.now();
    try {
      if (target.input === 'bytes') target.run(input.bytes!);
      else target.run(input.json);
    } catch {
      // same outcome as the first run
    }
    ms = Math.min(ms, performance.now() - t1);
  }
  if (ms > timeBoundMs && outcome.kind !== 'failure') return fail(`took ${ms.toFixed(1)} ms (bound ${timeBoundMs} ms)`);
  return outcome;
}

/** Outcome counts of a run, by target and outcome label. */
export class Tally {
  readonly counts = new Map<string, Map<string, number>>();
  readonly failures: string[] = [];
  total = 0;
  add(target: Target, outcome: Outcome): void {
    this.total++;
    const label = outcome.kind === 'rejected' ? `rejected:${outcome.code}` : outcome.kind;
    const m = this.counts.get(target.name) ?? new Map<string, number>();
    m.set(label, (m.get(label) ?? 0) + 1);
    this.counts.set(target.name, m);
    if (outcome.kind === 'failure') this.failures.push(outcome.reason);
  }
  render(): string {
    const lines: string[] = [];
    for (const [name, m] of this.counts) {
      const n = [...m.values()].reduce((a, b) => a + b, 0);
      const parts = [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
      lines.push(`${name}: ${n} cases: ${parts.join(', ')}`);
    }
    return lines.join('\n');
  }
}
