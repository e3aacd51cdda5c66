/**
 * Milestone signature check (docs/protocol.md §17.4, TIP-29), over an already computed milestone ID.
 *
 * Keys come from node configuration as ranges `{ publicKey, start, end }` (end 0 = open ended); the applicable set for
 * milestone index i is every key with start <= i and (end >= i or end = 0). A milestone is valid iff
 *   - the threshold (signatures needed) is met: 1 <= threshold <= signatures, and threshold <= applicable keys;
 *   - the public keys are sorted ascending and unique;
 *   - every key is in the applicable set;
 *   - every Ed25519 signature verifies (ZIP-215) over the 32-byte milestone ID.
 * Any failure throws ProtocolError INVALID_SIGNATURE naming the signature position and key.
 */
import { compareBytes, equalBytes, toHex0x } from '../bytes.ts';
import { ed25519Verify } from '../crypto/ed25519.ts';
import { reject } from '../errors.ts';
import type { Ed25519Signature } from '../model/transaction.ts';

export interface MilestoneKeyRange {
  publicKey: Uint8Array;
  /** First milestone index the key is valid for. */
  start: number;
  /** Last milestone index the key is valid for; 0 = no end. */
  end: number;
}

/** Public keys applicable to milestone `index`, in configuration order. */
export function applicableMilestoneKeys(keyRanges: readonly MilestoneKeyRange[], index: number): Uint8Array[] {
  return keyRanges.filter((r) => r.start <= index && (r.end === 0 || r.end >= index)).map((r) => r.publicKey);
}

function fail(index: number, why: string, field = 'signatures', value?: string): never {
  const details = value === undefined ? { field } : { field, value };
  return reject('INVALID_SIGNATURE', `Invalid milestone ${index}: ${why}`, details);
}

/** Throws INVALID_SIGNATURE unless `signatures` validly sign `milestoneId` for milestone `index` (see file comment). */
export function verifyMilestoneSignaturesOverId(
  milestoneId: Uint8Array,
  index: number,
  signatures: readonly Ed25519Signature[],
  keyRanges: readonly MilestoneKeyRange[],
  threshold: number,
): void {
  if (!Number.isInteger(threshold) || threshold < 1)
    throw new RangeError(`milestone signature threshold must be an integer >= 1, got ${threshold}`);
  const applicable = applicableMilestoneKeys(keyRanges, index);
  if (applicable.length < threshold) {
    fail(index, `only ${applicable.length} public keys apply to this index, fewer than the threshold ${threshold}`);
  }
  if (signatures.length < threshold) {
    fail(
      index,
      `${signatures.length} signature${signatures.length === 1 ? '' : 's'}, the threshold is ${threshold}`,
      'signatures',
      String(signatures.length),
    );
  }
  for (let i = 0; i < signatures.length; i++) {
    const { publicKey, signature } = signatures[i]!;
    const field = `signatures[${i}]`;
    if (i > 0) {
      const order = compareBytes(signatures[i - 1]!.publicKey, publicKey);
      if (order === 0) fail(index, `public key at ${field} duplicates the one before it`, field, toHex0x(publicKey));
      if (order > 0) fail(index, `public keys are not sorted ascending at ${field}`, field, toHex0x(publicKey));
    }
    if (!applicable.some((k) => equalBytes(k, publicKey))) {
      fail(index, `public key at ${field} is not applicable to this index`, field, toHex0x(publicKey));
    }
    if (!ed25519Verify(publicKey, milestoneId, signature)) {
      fail(
        index,
        `signature at ${field} does not verify over milestone ID ${toHex0x(milestoneId)}`,
        field,
        toHex0x(publicKey),
      );
    }
  }
}
