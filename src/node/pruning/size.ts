/**
 * Database sizes: `--prune-size 30GB` and TIP-25's `targetDatabaseSize` read as Hornet's configuration reads them
 * (decimal units KB, MB, GB, TB = powers of 1000; binary KiB, MiB, GiB, TiB = powers of 1024; a bare number is bytes),
 * and the size of a store on disk (the files of its folder, as Hornet's `database.Size()` sums them).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KIB: 2 ** 10,
  MIB: 2 ** 20,
  GIB: 2 ** 30,
  TIB: 2 ** 40,
};

/** Bytes of a size like `30GB`, `500MiB`, `1.5 TB` or `1048576`; undefined when it is not one. */
export function parseSize(text: string): number | undefined {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*$/.exec(text);
  if (!m) return undefined;
  const unit = UNITS[m[2]!.toUpperCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

/** Human-readable bytes (decimal units), for logs. */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['TB', 1e12],
    ['GB', 1e9],
    ['MB', 1e6],
    ['KB', 1e3],
  ] as const)
    if (bytes >= size) return `${(bytes / size).toFixed(1)} ${unit}`;
  return `${bytes} B`;
}

/** Bytes of the files under `folder` (0 when it is missing). */
export function folderSize(folder: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return 0;
  }
  for (const name of names) {
    try {
      const st = statSync(join(folder, name));
      total += st.isDirectory() ? folderSize(join(folder, name)) : st.size;
    } catch {
      // a file the engine removed meanwhile (compaction) counts as gone
    }
  }
  return total;
}
