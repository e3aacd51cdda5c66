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

function tryAll<T>(items: Iterable<T>, f: (x: T) => void): void {
  for (const x of items) {
    try {
      f(x);
    } catch {
      // corpus entries a decoder rejects are left out of that decoder's corpus
    }
  }
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
  const v3Blocks: Uint8Array[] = [];
  const v3BlockJson: J[] = [];
  tryAll(loadVectors('nova-v3/blocks.json').vectors as J[], (v) => {
    const bytes = hexBytes(v.bytes);
    const block = V3.decodeBlockV3(bytes, params);
    v3Blocks.push(bytes);
    v3BlockJson.push(roundTrip(V3.blockToJsonV3(block)));
  });
  const v3Payloads: Uint8Array[] = [];
  const v3PayloadJson: J[] = [];
  tryAll(loadVectors('nova-v3/transactions.json').vectors as J[], (v) => {
    const bytes = hexBytes(v.bytes);
    v3PayloadJson.push(roundTrip(V3.payloadToJsonV3(V3.decodePayloadV3(bytes))));
    v3Payloads.push(bytes);
  });
  const v3Outputs: Uint8Array[] = [];
  const v3OutputJson: J[] = [];
  tryAll(loadVectors('nova-v3/outputs.json').vectors as J[], (v) => {
    const bytes = hexBytes(v.bytes);
    v3OutputJson.push(roundTrip(V3.outputToJsonV3(V3.decodeOutputV3(bytes))));
    v3Outputs.push(bytes);
  });

  return [
    { name: 'v2 decodeBlock', input: 'bytes', corpus: v2Blocks, run: (b) => encodeBlock(decodeBlock(b)) },
    {
      name: 'v2 decodeBlock (allowNoParents)',
      input: 'bytes',
      corpus: v2Blocks,
      run: (b) => encodeBlock(decodeBlock(b, { allowNoParents: true })),
    },
    { name: 'v2 decodePayload', input: 'bytes', corpus: v2Payloads, run: (b) => encodePayload(decodePayload(b)) },
    { name: 'v2 decodeOutput', input: 'bytes', corpus: v2Outputs, run: (b) => encodeOutput(decodeOutput(b)) },
    {
      name: 'v2 blockFromJson',
      input: 'json',
      corpus: v2BlockJson,
      run: (j) => {
        const b = blockFromJson(j);
        return { bytes: encodeBlock(b), again: encodeBlock(blockFromJson(roundTrip(blockToJson(b)))) };
      },
    },
    {
      name: 'v2 blockFromJson (submission)',
      input: 'json',
      corpus: v2BlockJson,
      run: (j) => {
        const b = blockFromJson(j, { submission: true });
        return {
          bytes: encodeBlock(b),
          again: encodeBlock(blockFromJson(roundTrip(blockToJson(b)), { submission: true })),
        };
      },
    },
    {
      name: 'v2 payloadFromJson',
      input: 'json',
      corpus: v2PayloadJson,
      run: (j) => {
        const p = payloadFromJson(j);
        return { bytes: encodePayload(p), again: encodePayload(payloadFromJson(roundTrip(payloadToJson(p)))) };
      },
    },
    {
      name: 'v2 outputFromJson',
      input: 'json',
      corpus: v2OutputJson,
      run: (j) => {
        const o = outputFromJson(j);
        return { bytes: encodeOutput(o), again: encodeOutput(outputFromJson(roundTrip(outputToJson(o)))) };
      },
    },
    {
      name: 'v3 decodeBlockV3',
      input: 'bytes',
      corpus: v3Blocks,
      run: (b) => V3.encodeBlockV3(V3.decodeBlockV3(b, params)),
    },
    {
      name: 'v3 decodePayloadV3',
      input: 'bytes',
      corpus: v3Payloads,
      run: (b) => V3.encodePayloadV3(V3.decodePayloadV3(b)),
    },
    {
      name: 'v3 decodeSignedTransactionV3',
      input: 'bytes',
      corpus: v3Payloads,
      run: (b) => V3.encodeSignedTransactionV3(V3.decodeSignedTransactionV3(b)),
    },
    {
      name: 'v3 decodeOutputV3',
      input: 'bytes',
      corpus: v3Outputs,
      run: (b) => V3.encodeOutputV3(V3.decodeOutputV3(b)),
    },
    {
      name: 'v3 blockFromJsonV3',
      input: 'json',
      corpus: v3BlockJson,
      run: (j) => {
        const b = V3.blockFromJsonV3(j);
        return {
          bytes: V3.encodeBlockV3(b),
          again: V3.encodeBlockV3(V3.blockFromJsonV3(roundTrip(V3.blockToJsonV3(b)))),
        };
      },
    },
    {
      name: 'v3 payloadFromJsonV3',
      input: 'json',
      corpus: v3PayloadJson,
      run: (j) => {
        const p = V3.payloadFromJsonV3(j);
        return {
          bytes: V3.encodePayloadV3(p),
          again: V3.encodePayloadV3(V3.payloadFromJsonV3(roundTrip(V3.payloadToJsonV3(p)))),
        };
      },
    },
    {
      name: 'v3 outputFromJsonV3',
      input: 'json',
      corpus: v3OutputJson,
      run: (j) => {
        const o = V3.outputFromJsonV3(j);
        return {
          bytes: V3.encodeOutputV3(o),
          again: V3.encodeOutputV3(V3.outputFromJsonV3(roundTrip(V3.outputToJsonV3(o)))),
        };
      },
    },
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
