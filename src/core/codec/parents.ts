/** Parent lists of blocks and milestones: u8 count, then 32-byte IDs in strictly ascending order. */
import { ID_LENGTH, LIMITS } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { ascendingBytesProblem } from './rules.ts';
import { failAt, writeCount, writeFixed } from './common.ts';

export function readParents(r: ByteReader, field: string, min: number): Uint8Array[] {
  const n = r.count(1, field, min, LIMITS.parents.max);
  const parents: Uint8Array[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const start = r.offset;
    const p = r.fixed(ID_LENGTH, field);
    if (i > 0) {
      const pr = ascendingBytesProblem('parents', parents[i - 1]!, p);
      if (pr) failAt(r, pr, field, start);
    }
    parents[i] = p;
  }
  return parents;
}

export function writeParents(w: ByteWriter, parents: Uint8Array[]): void {
  writeCount(w, parents.length, 1, 'parents');
  for (let i = 0; i < parents.length; i++) writeFixed(w, parents[i]!, ID_LENGTH, 'parent');
}
