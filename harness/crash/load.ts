/**
 * Load for the crash test and the soak (scripts/crash-test.ts, scripts/soak.ts, crash.test.ts): a REST client over
 * plain fetch with timeouts, tagged-data blocks and signed transfers from the dev wallet, all posted as JSON with no
 * parents and nonce "0" (the node selects tips and does the proof of work). Every 201 is recorded with the payload
 * bytes that were sent, so a later check can prove the node still serves exactly that block.
 *
 * Transfers run in lanes: the dev wallet's genesis output is first split into one output per lane; each lane spends
 * its output (one output to a random address, the change back) and only builds the next transfer once it knows the
 * outcome: the transaction's included block (GET /transactions/{id}/included-block) moves the lane to the change
 * output; a conflicting or lost attempt (a POST cut off by a kill has an unknown outcome) leaves the output and is
 * re-checked later, so an attempt that lands after all is still picked up.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromHex0x, toHex0x } from '../../src/core/bytes.ts';
import { encodePayload } from '../../src/core/codec/index.ts';
import { blake2b256, ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../src/core/crypto/index.ts';
import { networkIdFromName, outputId, transactionIdOf } from '../../src/core/ids/index.ts';
import { outputFromJson, payloadToJson } from '../../src/core/json/index.ts';
import type { CommonOutput, Ed25519Address, Payload, TransactionPayload } from '../../src/core/model/index.ts';
import { basicOutput, signedTransaction, type Spendable } from '../fixtures/transactions.ts';

export const SERIALIZER_V1 = 'application/vnd.iota.serializer-v1';

export interface Ack {
  blockId: string;
  /** The payload bytes as sent. */
  payload: Uint8Array;
  kind: 'tagged' | 'transfer';
}

export interface Result {
  status: number;
  ms: number;
  body?: unknown;
}

/** The current REST base (changes when the node restarts on new ports); undefined while the node is down. */
export interface Target {
  base: string | undefined;
}

export async function request(
  target: Target,
  path: string,
  init: RequestInit & { timeoutMs?: number } = {},
): Promise<Result> {
  const started = performance.now();
  if (target.base === undefined) return { status: 0, ms: 0 };
  try {
    const res = await fetch(`${target.base}${path}`, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 10000) });
    const type = res.headers.get('content-type') ?? '';
    const body = type.includes('json') ? await res.json() : new Uint8Array(await res.arrayBuffer());
    return { status: res.status, ms: performance.now() - started, body };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

const enc = new TextEncoder();
const hex = (b: Uint8Array): string => toHex0x(b);

export async function postPayload(target: Target, payload: Payload): Promise<Result & { blockId?: string }> {
  const body = JSON.stringify({ protocolVersion: 2, parents: [], payload: payloadToJson(payload), nonce: '0' });
  const r = await request(target, '/api/core/v2/blocks', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body,
    timeoutMs: 20000,
  });
  const id = (r.body as { blockId?: string } | undefined)?.blockId;
  return r.status === 201 && typeof id === 'string' ? { ...r, blockId: id } : r;
}

export function taggedPayload(tag: string, data: string): Payload {
  return { type: 5, tag: enc.encode(tag), data: enc.encode(data) };
}

/** Posts a tagged-data block; records the ack on 201. */
export async function postTagged(target: Target, acks: Ack[], tag: string, data: string): Promise<Result> {
  const payload = taggedPayload(tag, data);
  const r = await postPayload(target, payload);
  if (r.blockId) acks.push({ blockId: r.blockId, payload: encodePayload(payload), kind: 'tagged' });
  return r;
}

type Owned = Spendable;

export interface DevWalletInfo {
  seed: Uint8Array;
  networkId: bigint;
  genesisOutput: Owned;
}

/** The dev wallet and its genesis output from `<dataDir>/genesis.json`. */
export function readDevWallet(dataDir: string): DevWalletInfo {
  const g = JSON.parse(readFileSync(join(dataDir, 'genesis.json'), 'utf8')) as {
    protocol: { networkName: string };
    devWallet: { seed: string };
    outputs: { outputId: string; output: unknown }[];
  };
  const seed = fromHex0x(g.devWallet.seed, 'devWallet.seed');
  const mine = toHex0x(ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(seed)).pubKeyHash);
  const out = g.outputs.find((o) => JSON.stringify(o.output).includes(mine.slice(2)));
  if (!out) throw new Error('genesis.json: no output of the dev wallet');
  return {
    seed,
    networkId: networkIdFromName(g.protocol.networkName),
    genesisOutput: {
      outputId: fromHex0x(out.outputId, 'outputId'),
      output: outputFromJson(out.output) as CommonOutput,
    },
  };
}

/** A signed transaction spending `input` into `amounts` to random addresses plus the change to the wallet (last). */
export function buildTransfer(w: DevWalletInfo, input: Owned, amounts: bigint[], toSelf = false): TransactionPayload {
  const self = ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(w.seed));
  const random = (): Ed25519Address => ({
    type: 0,
    pubKeyHash: blake2b256(crypto.getRandomValues(new Uint8Array(32))),
  });
  const total = amounts.reduce((a, b) => a + b, 0n);
  const outputs: CommonOutput[] = amounts.map((a) => basicOutput(a, toSelf ? self : random()));
  outputs.push(basicOutput(input.output.amount - total, self));
  return signedTransaction(w.networkId, w.seed, [input], outputs);
}

interface Attempt {
  txId: string;
  change: Owned;
  sentAt: number;
  /** Set on 201. */
  blockId?: string;
  resolved: boolean;
}

/** One transfer lane (see file comment). */
export class Lane {
  private attempts: Attempt[] = [];
  constructor(
    private readonly w: DevWalletInfo,
    private output: Owned,
    private readonly amount = 1_000_000n,
  ) {}

  /**
   * Does one step: checks outcomes, or sends a transfer when nothing is pending. Returns the POST result if it sent.
   */
  async step(target: Target, acks: Ack[], resolveMs = 4000): Promise<Result | undefined> {
    for (const a of this.attempts) {
      const r = await request(target, `/api/core/v2/transactions/${a.txId}/included-block/metadata`, {
        headers: { accept: 'application/json' },
      });
      if (r.status === 200) {
        this.output = a.change;
        this.attempts = [];
        break;
      }
      if (r.status === 0) return undefined; // node down: try later
      if (!a.resolved && a.blockId) {
        const md = await request(target, `/api/core/v2/blocks/${a.blockId}/metadata`, {
          headers: { accept: 'application/json' },
        });
        const state = (md.body as { ledgerInclusionState?: string } | undefined)?.ledgerInclusionState;
        if (state === 'conflicting' || state === 'noTransaction') a.resolved = true;
      } else if (!a.resolved && Date.now() - a.sentAt > resolveMs) a.resolved = true;
    }
    if (this.attempts.some((a) => !a.resolved)) return undefined;
    if (this.attempts.length > 20) this.attempts = this.attempts.slice(-20);
    const tx = buildTransfer(this.w, this.output, [this.amount]);
    const txId = transactionIdOf(tx);
    const attempt: Attempt = {
      txId: hex(txId),
      change: { outputId: outputId(txId, 1), output: tx.essence.outputs[1]! },
      sentAt: Date.now(),
      resolved: false,
    };
    this.attempts.push(attempt);
    const r = await postPayload(target, tx);
    if (r.blockId) {
      attempt.blockId = r.blockId;
      acks.push({ blockId: r.blockId, payload: encodePayload(tx), kind: 'transfer' });
    }
    return r;
  }
}

/** Splits the genesis output into `n` lane outputs (waits until the split is included); returns the lanes. */
export async function makeLanes(
  target: Target,
  acks: Ack[],
  w: DevWalletInfo,
  n: number,
  timeoutMs = 60000,
): Promise<Lane[]> {
  const share = w.genesisOutput.output.amount / BigInt(n + 1);
  const tx = buildTransfer(
    w,
    w.genesisOutput,
    Array.from({ length: n }, () => share),
    true,
  );
  const txId = transactionIdOf(tx);
  const until = Date.now() + timeoutMs;
  let posted = false;
  for (;;) {
    if (!posted) {
      const r = await postPayload(target, tx);
      if (r.blockId) {
        acks.push({ blockId: r.blockId, payload: encodePayload(tx), kind: 'transfer' });
        posted = true;
      }
    }
    const inc = await request(target, `/api/core/v2/transactions/${hex(txId)}/included-block/metadata`);
    if (inc.status === 200) break;
    if (Date.now() > until)
      throw new Error(`the split transaction ${hex(txId)} was not included within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return tx.essence.outputs.slice(0, n).map((o, i) => new Lane(w, { outputId: outputId(txId, i), output: o }));
}

/** Checks every acknowledged block: raw bytes hash to its ID and carry the payload sent. Returns the problems. */
export async function verifyAcks(target: Target, acks: readonly Ack[], concurrency = 8): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < acks.length) {
      const a = acks[next++]!;
      const r = await request(target, `/api/core/v2/blocks/${a.blockId}`, { headers: { accept: SERIALIZER_V1 } });
      if (r.status !== 200 || !(r.body instanceof Uint8Array)) {
        problems.push(`${a.kind} block ${a.blockId}: GET answered ${r.status}`);
        continue;
      }
      const bytes = r.body;
      if (hex(blake2b256(bytes)) !== a.blockId)
        problems.push(`${a.blockId}: served bytes hash to ${hex(blake2b256(bytes))}`);
      // Block layout: version (1) ‖ parents count (1) ‖ parents (32 each) ‖ payload length u32 ‖ payload ‖ nonce (8).
      const at = 2 + bytes[1]! * 32;
      const len = new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true);
      if (hex(bytes.subarray(at + 4, at + 4 + len)) !== hex(a.payload))
        problems.push(`${a.blockId}: served payload differs from the payload sent`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return problems;
}

/** A small seeded PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
