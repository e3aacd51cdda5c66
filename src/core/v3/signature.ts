/**
 * Block signature verification (docs/protocol.md §V3.4, §V7.3): the Ed25519 signature must verify over
 * headerHash ‖ bodyHash, and BLAKE2b-256 of its public key must be one of the issuer account's block issuer keys
 * (taken by the caller from the account state at the block's slot commitment).
 */
import { blake2b256 } from '../crypto/blake2b.ts';
import { ed25519Verify } from '../crypto/ed25519.ts';
import { equalBytes } from '../bytes.ts';
import { reject } from '../errors.ts';
import type { BlockV3 } from './model/block.ts';
import type { BlockIssuerKeyV3 } from './model/output.ts';
import { encodeBlockV3 } from './codec/index.ts';
import { blockHashesV3 } from './ids/block-id.ts';

/** Why a block signature is not acceptable, or undefined when it is. */
export type BlockSignatureProblemV3 = 'UNKNOWN_KEY' | 'BAD_SIGNATURE';

/**
 * Checks a block's signature against the issuer's block issuer keys. `block` may be the serialized bytes (as
 * received) or a model (re-encoded canonically). Returns undefined when valid, else the problem.
 */
export function blockSignatureProblemV3(
  block: BlockV3 | Uint8Array,
  blockIssuerKeys: readonly (BlockIssuerKeyV3 | Uint8Array)[],
): BlockSignatureProblemV3 | undefined {
  const bytes = block instanceof Uint8Array ? block : encodeBlockV3(block);
  const h = blockHashesV3(bytes);
  const sig = h.signatureBytes;
  if (sig[0] !== 0) return 'BAD_SIGNATURE';
  const publicKey = sig.subarray(1, 33);
  const keyHash = blake2b256(publicKey);
  const known = blockIssuerKeys.some((k) => equalBytes(k instanceof Uint8Array ? k : k.pubKeyHash, keyHash));
  if (!known) return 'UNKNOWN_KEY';
  return ed25519Verify(publicKey, h.signingMessage, sig.subarray(33)) ? undefined : 'BAD_SIGNATURE';
}

/** True when the block signature is valid and made with one of `blockIssuerKeys` (pub-key hashes). */
export function verifyBlockSignatureV3(
  block: BlockV3 | Uint8Array,
  blockIssuerKeys: readonly (BlockIssuerKeyV3 | Uint8Array)[],
): boolean {
  return blockSignatureProblemV3(block, blockIssuerKeys) === undefined;
}

/** Like verifyBlockSignatureV3 but throws ProtocolError INVALID_SIGNATURE naming the problem. */
export function assertBlockSignatureV3(
  block: BlockV3 | Uint8Array,
  blockIssuerKeys: readonly (BlockIssuerKeyV3 | Uint8Array)[],
): void {
  const p = blockSignatureProblemV3(block, blockIssuerKeys);
  if (p === 'UNKNOWN_KEY')
    reject(
      'INVALID_SIGNATURE',
      'Cannot accept block: the signature public key is not a block issuer key of the issuer account',
      { field: 'signature.publicKey' },
    );
  if (p === 'BAD_SIGNATURE')
    reject(
      'INVALID_SIGNATURE',
      'Cannot accept block: the Ed25519 signature does not verify over headerHash ‖ bodyHash',
      { field: 'signature.signature' },
    );
}
