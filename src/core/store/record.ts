/**
 * Versioned binary records. A record starts with a u8 version; a version adds fields only at the end.
 * Reading the current version requires the exact length. A newer version (written by newer code) is read as far
 * as this code knows it and the rest is ignored, so an older node can still read what a newer one wrote.
 */
import type { ByteReader } from '../codec/reader.ts';

export function readVersion(r: ByteReader, current: number): number {
  const at = r.offset;
  const version = r.u8('version');
  if (version < 1) r.fail('VALUE_OUT_OF_RANGE', `version ${version} is outside 1..255`, 'version', at, String(version));
  if (version < current) {
    // No older versions exist yet; when they do, their missing fields get defaults here.
    r.fail('VALUE_OUT_OF_RANGE', `version ${version} is older than the oldest readable version ${current}`, 'version', at, String(version));
  }
  return version;
}

export function endRecord(r: ByteReader, version: number, current: number): void {
  if (version === current) r.end();
}
