/**
 * Which malloc the process runs on, from the libraries mapped into it (Linux's /proc/self/maps): jemalloc or tcmalloc
 * when one is preloaded (scripts/start.sh preloads jemalloc), else the C library's. Logged at start: on jemalloc the
 * node stores blocks faster and the LevelDB binding's leak of empty values is smaller (README, Pruning and snapshots).
 */
import { readFileSync } from 'node:fs';

export type Allocator = 'jemalloc' | 'tcmalloc' | 'mimalloc' | 'libc';

/** Undefined where the process's mappings cannot be read (not Linux). */
export function allocatorInUse(maps?: string): Allocator | undefined {
  let text = maps;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/maps', 'utf8');
    } catch {
      return undefined;
    }
  }
  if (/\/libjemalloc[^/\s]*\.so/.test(text)) return 'jemalloc';
  if (/\/libtcmalloc[^/\s]*\.so/.test(text)) return 'tcmalloc';
  if (/\/libmimalloc[^/\s]*\.so/.test(text)) return 'mimalloc';
  return 'libc';
}

/** The start-up line: the allocator, and what to do about glibc's. */
export function allocatorNote(allocator: Allocator | undefined): string | undefined {
  if (allocator === undefined) return undefined;
  if (allocator !== 'libc') return `memory allocator: ${allocator}`;
  return (
    "memory allocator: the C library's malloc; jemalloc stores blocks faster and keeps " +
    'memory lower, preload it for a long-running node (npm start does: scripts/ensure-jemalloc.sh)'
  );
}
