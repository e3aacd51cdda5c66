/**
 * The snapshot file as it travels between peers: exactly what snapshot/snapshot.ts writes, the genesis/snapshot JSON
 * that `--genesis` reads, laid out as
 *
 *   {                                  the head: every key but `outputs`, pretty-printed (2 spaces)
 *     ...,
 *     "outputs": [                     on a line of its own
 *       {"outputId": ..., ...},        one output per line, in ascending output ID order
 *       {"outputId": ..., ...}
 *     ]
 *   }
 *
 * `readSnapshotFile` reads it back as a stream with bounded memory (the head at most MAX_HEAD_BYTES, a line at most
 * MAX_LINE_BYTES, outputs handed on in chunks) and computes on the way the BLAKE2b-256 of the file's bytes and the
 * ledger state hash:
 *
 *   BLAKE2b-256( "ledger-node ledger state v1" || milestone index (u32 LE)
 *                || treasury: 0, or 1 || milestone ID (32) || amount (u64 LE)
 *                || per unspent output, ascending by output ID: output ID (34) || block ID (32)
 *                   || milestone index booked (u32 LE) || milestone timestamp booked (u32 LE)
 *                   || length (u32 LE) || the output's serialized bytes )
 *
 * Hornet's `LedgerStateSHA256Sum` in the same spirit (ledger index, then every unspent output sorted by ID): no
 * milestone commits to it, but every honest node computes the same value for the same milestone, so two peers'
 * ledgers can be compared without moving them (docs/decisions.md §30).
 */
import { createReadStream } from 'node:fs';
import { blake2b } from '@noble/hashes/blake2.js';
import { compareBytes, toHex0x } from '../../core/bytes.ts';
import { encodeOutput } from '../../core/codec/index.ts';
import type { GenesisOutput } from '../../core/ledger/index.ts';
import { genesisFromJson, type Genesis } from '../genesis/genesis.ts';
import { ledgerGenesisOf } from '../genesis/genesis-ledger.ts';

export const MAX_HEAD_BYTES = 64 * 1024 * 1024;
export const MAX_LINE_BYTES = 1024 * 1024;
const OUTPUTS_OPEN = '  "outputs": [';
const DOMAIN = new TextEncoder().encode('ledger-node ledger state v1');

/** The file is not a snapshot in this layout, or its content is invalid. */
export class SnapshotFormatError extends Error {}

function fail(message: string): never {
  throw new SnapshotFormatError(message);
}

/** Incremental ledger state hash (see the file comment). */
export class LedgerHasher {
  private readonly h = blake2b.create({ dkLen: 32 });
  private readonly scratch = new DataView(new ArrayBuffer(12));
  private last: Uint8Array | undefined;
  count = 0;
  total = 0n;

  constructor(index: number, treasury: { milestoneId: Uint8Array; amount: bigint } | undefined) {
    this.h.update(DOMAIN);
    this.u32(index);
    if (treasury === undefined) this.h.update(Uint8Array.of(0));
    else {
      this.h.update(Uint8Array.of(1));
      this.h.update(treasury.milestoneId);
      const b = new DataView(new ArrayBuffer(8));
      b.setBigUint64(0, treasury.amount, true);
      this.h.update(new Uint8Array(b.buffer));
      this.total += treasury.amount;
    }
  }

  private u32(v: number): void {
    this.scratch.setUint32(0, v, true);
    this.h.update(new Uint8Array(this.scratch.buffer, 0, 4));
  }

  /** Adds the next output; they must come in strictly ascending output ID order. */
  add(o: GenesisOutput): void {
    if (this.last !== undefined && compareBytes(this.last, o.outputId) >= 0)
      fail(`output ${toHex0x(o.outputId)} is out of order or listed twice (outputs must ascend by ID)`);
    this.last = o.outputId;
    const bytes = encodeOutput(o.output);
    this.h.update(o.outputId);
    this.h.update(o.blockId);
    this.u32(o.milestoneIndexBooked);
    this.u32(o.milestoneTimestampBooked);
    this.u32(bytes.length);
    this.h.update(bytes);
    this.count++;
    this.total += o.output.amount;
  }

  digest(): Uint8Array {
    return this.h.digest();
  }
}

/** Lines of a file (without '\n'), each at most `max` bytes; the raw bytes also go to `onBytes`. */
async function* linesOf(file: string, max: number, onBytes: (b: Uint8Array) => void): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    onBytes(chunk);
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      pending.push(chunk.subarray(start, nl));
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      pendingBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      pending.push(chunk.subarray(start));
      pendingBytes += chunk.length - start;
      if (pendingBytes > max) fail(`a line longer than ${max} bytes`);
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending).toString('utf8');
}

export interface SnapshotReading {
  /** The head, parsed and checked by genesisFromJson (`outputs` empty). */
  head: Genesis;
  outputs: number;
  /** Sum of the outputs' amounts and the treasury. */
  total: bigint;
  fileHash: Uint8Array;
  ledgerHash: Uint8Array;
  bytes: number;
}

export interface ReadOptions {
  /** Gets the outputs in order, `chunk` at a time, parsed and checked like a genesis file's. */
  onOutputs?: (outputs: GenesisOutput[]) => Promise<void> | void;
  /** Gets the parsed head before any output. */
  onHead?: (head: Genesis) => Promise<void> | void;
  chunk?: number;
  /** Bytes read so far. */
  progress?: (bytes: number) => void;
}

/** Reads and checks a snapshot file of the layout above; any deviation is a SnapshotFormatError. */
export async function readSnapshotFile(file: string, options: ReadOptions = {}): Promise<SnapshotReading> {
  const chunkSize = options.chunk ?? 1000;
  const fileHash = blake2b.create({ dkLen: 32 });
  let bytes = 0;
  const lines = linesOf(file, MAX_LINE_BYTES, (b) => {
    fileHash.update(b);
    bytes += b.length;
    options.progress?.(bytes);
  });
  const headLines: string[] = [];
  let headBytes = 0;
  let empty = false;
  for (;;) {
    const { value, done } = await lines.next();
    if (done) fail('the file ends before its "outputs" line');
    if (value === OUTPUTS_OPEN || value === `${OUTPUTS_OPEN}]`) {
      empty = value !== OUTPUTS_OPEN;
      break;
    }
    headBytes += value.length + 1;
    if (headBytes > MAX_HEAD_BYTES) fail(`a head of more than ${MAX_HEAD_BYTES} bytes`);
    headLines.push(value);
  }
  const text = headLines.join('\n').trimEnd();
  if (!text.startsWith('{') || !text.endsWith(',')) fail('the head is not the start of a JSON object followed by ","');
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(`${text.slice(0, -1)}\n}`) as Record<string, unknown>;
  } catch (e) {
    fail(`the head is not JSON: ${(e as Error).message}`);
  }
  if ('outputs' in json) fail('the head has an "outputs" key of its own');
  const head = genesisFromJson({ ...json, outputs: [] });
  await options.onHead?.(head);
  const hasher = new LedgerHasher(head.milestone.index, head.treasury);
  let batch: unknown[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length === 0) return;
    let parsed: GenesisOutput[];
    try {
      parsed = ledgerGenesisOf({ ...head, outputs: batch }).unspentOutputs;
    } catch (e) {
      fail(`output ${hasher.count + 1} and the ${batch.length - 1} after it: ${(e as Error).message}`);
    }
    for (const o of parsed) {
      if (o.milestoneIndexBooked > head.milestone.index)
        fail(
          `output ${toHex0x(o.outputId)} is booked at milestone ` +
            `${o.milestoneIndexBooked}, after the snapshot's ${head.milestone.index}`,
        );
      hasher.add(o);
    }
    batch = [];
    await options.onOutputs?.(parsed);
  };
  let comma = true;
  if (!empty) {
    for (;;) {
      const { value, done } = await lines.next();
      if (done) fail('the file ends inside "outputs"');
      if (value === '  ]') {
        if (comma)
          fail(
            hasher.count + batch.length === 0
              ? 'an empty "outputs" list spread over lines'
              : 'a "," after the last output',
          );
        break;
      }
      if (!comma) fail('outputs not separated by ","');
      if (!value.startsWith('    {'))
        fail(`output line ${hasher.count + batch.length + 1} does not start with 4 spaces and "{"`);
      comma = value.endsWith(',');
      try {
        batch.push(JSON.parse(comma ? value.slice(0, -1) : value));
      } catch (e) {
        fail(`output line ${hasher.count + batch.length + 1} is not JSON: ${(e as Error).message}`);
      }
      if (batch.length >= chunkSize) await flush();
    }
  }
  await flush();
  const close = await lines.next();
  if (close.done || close.value !== '}') fail('the outputs are not followed by the closing "}"');
  const rest = await lines.next();
  if (!rest.done && rest.value !== '') fail('data after the closing "}"');
  if (!(await lines.next()).done) fail('data after the closing "}"');
  return {
    head,
    outputs: hasher.count,
    total: hasher.total,
    fileHash: fileHash.digest(),
    ledgerHash: hasher.digest(),
    bytes,
  };
}
