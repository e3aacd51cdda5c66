/** Native tokens (docs/protocol.md §5): u8 count, then { Token ID Bytes[38], Amount u256 }, ascending by token ID. */
import type { NativeToken } from '../model/output.ts';
import { LIMITS, TOKEN_ID_LENGTH } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { ascendingBytesProblem, countProblem } from './rules.ts';
import { failAt, writeCount, writeFixed } from './common.ts';

export function readNativeTokens(r: ByteReader, field: string): NativeToken[] {
  const at = r.offset;
  const n = r.u8(field);
  const cp = countProblem('native tokens', n, LIMITS.nativeTokens);
  if (cp) failAt(r, cp, field, at, String(n));
  const out: NativeToken[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const start = r.offset;
    const id = r.fixed(TOKEN_ID_LENGTH, field);
    if (i > 0) {
      const p = ascendingBytesProblem('native token IDs', out[i - 1]!.id, id);
      if (p) failAt(r, p, field, start);
    }
    out[i] = { id, amount: r.u256(field) };
  }
  return out;
}

export function writeNativeTokens(w: ByteWriter, list: NativeToken[]): void {
  writeCount(w, list.length, 1, 'native tokens');
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!;
    writeFixed(w, t.id, TOKEN_ID_LENGTH, 'native token ID');
    w.u256(t.amount);
  }
}
