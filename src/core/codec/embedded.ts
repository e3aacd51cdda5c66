/**
 * The embedded-payload container (docs/protocol.md §1.2): u32 length (0 = none), then the payload from its u32 type.
 * The payload's own parser must consume exactly `length` bytes (hive.go ReadPayload).
 */
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { payloadKindProblem, type PayloadContext } from './rules.ts';
import { failAt } from './common.ts';

/**
 * Reads the length prefix and checks the payload type allowed in `context` (without consuming the type).
 * Returns the declared length; 0 means no payload.
 */
export function readEmbeddedHeader(r: ByteReader, field: string, context: PayloadContext): number {
  const at = r.offset;
  const length = r.u32(field);
  if (length === 0) return 0;
  const typeAt = r.offset;
  const type = r.peekU32(field);
  const p = payloadKindProblem(context, type);
  if (p) failAt(r, p, field, typeAt, String(type));
  if (r.remaining < length) {
    r.fail(
      'TRUNCATED',
      `${field} length prefix says ${length} bytes, only ${r.remaining} left`,
      field,
      at,
      String(length),
    );
  }
  return length;
}

/** After the payload was parsed from `start`: its size must equal the declared length. */
export function checkEmbeddedEnd(r: ByteReader, field: string, start: number, length: number): void {
  const used = r.offset - start;
  if (used !== length) {
    r.fail(
      'PAYLOAD_LENGTH_MISMATCH',
      `${field} length prefix says ${length} bytes but the payload occupies ${used}`,
      field,
      start - 4,
      String(length),
    );
  }
}

/** Writes `u32 length ‖ payload`, patching the length after the payload was written. */
export function writeEmbedded<T>(w: ByteWriter, write: (w: ByteWriter, p: T) => void, p: T | undefined): void {
  if (p === undefined || p === null) {
    w.u32(0);
    return;
  }
  const at = w.reserveU32();
  const start = w.length;
  write(w, p);
  w.patchU32(at, w.length - start);
}
