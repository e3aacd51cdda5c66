/**
 * Files that after a crash are either absent (or as before) or complete: written to `<file>.tmp`, fsynced, renamed
 * over `<file>`, and the folder fsynced so that the rename itself is on disk.
 */
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Renames `from` (complete and fsynced) to `to`, then fsyncs the folder of `to`. */
export function renameDurably(from: string, to: string): void {
  renameSync(from, to);
  const dir = openSync(dirname(to), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/**
 * Writes `text` to `file` through `<file>.tmp` (fsync, rename, fsync the folder). `mode` is that of a newly created
 * temp file (e.g. 0o600 for a file that may hold private keys); without it, the default (0o666 less the umask).
 */
export function writeFileDurably(file: string, text: string, mode?: number): void {
  const tmp = `${file}.tmp`;
  rmSync(tmp, { force: true }); // a temp file left by a crash would keep its mode
  writeFileSync(tmp, text, mode === undefined ? undefined : { mode });
  const fd = openSync(tmp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameDurably(tmp, file);
}
