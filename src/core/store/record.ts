/**
 * Versioned binary records. A record starts with a u8 version; a version adds fields only at the end.
 * Reading the current version requires the exact length. A newer version (written by newer code) is read as far
 * as this code knows it and the rest is ignored, so an older node can still read what a newer one wrote.
 */
import type { ByteReader } from '../codec/reader.ts';

/** Reads the version byte; versions from `oldest` to `current` are readable (the caller defaults what is missing). */
export function readVersion(r: ByteReader, current: number, oldest = current): number {
  const at = r.offset;
  const version = r.u8('version');
  if (version < 1) r.fail('VALUE_OUT_OF_RANGE', `version ${version} is outside 1..255`, 'version', at, String(version));
  if (version < oldest) {
    r.fail(
      'VALUE_OUT_OF_RANGE',
      `version ${version} is older than the oldest readable version ${oldest}`,
      'version',
      at,
      String(version),
    );
  }
  return version;
}

/** A known version must end exactly here; a newer one may carry fields this code does not know. */
export function endRecord(r: ByteReader, version: number, current: number): void {
  if (version <= current) r.end();
}
