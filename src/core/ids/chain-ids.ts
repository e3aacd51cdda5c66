/**
 * Chain identifiers (docs/protocol.md §12.5, §12.6).
 * - Alias ID / NFT ID = BLAKE2b-256 of the 34-byte Output ID of the output that created the alias / NFT.
 * - Foundry ID = Native Token ID (38 bytes) = serialized Alias Address (0x08 ‖ alias ID) ‖ serial number u32 LE ‖
 *   token scheme type u8.
 */
import { isZero } from '../bytes.ts';
import { blake2b256 } from '../crypto/blake2b.ts';
import { ADDRESS_ALIAS } from '../model/address.ts';
import { ID_LENGTH, OUTPUT_ID_LENGTH, TOKEN_ID_LENGTH } from '../model/limits.ts';
import { OUTPUT_ALIAS, OUTPUT_FOUNDRY, OUTPUT_NFT, UC_IMMUTABLE_ALIAS, type CommonOutput } from '../model/output.ts';

function checkOutputId(outputId: Uint8Array, fn: string): void {
  if (outputId.length !== OUTPUT_ID_LENGTH)
    throw new RangeError(`${fn}: output ID must be ${OUTPUT_ID_LENGTH} bytes, got ${outputId.length}`);
}

export function aliasIdFromOutputId(outputId: Uint8Array): Uint8Array {
  checkOutputId(outputId, 'aliasIdFromOutputId');
  return blake2b256(outputId);
}

export function nftIdFromOutputId(outputId: Uint8Array): Uint8Array {
  checkOutputId(outputId, 'nftIdFromOutputId');
  return blake2b256(outputId);
}

/** Foundry ID (= token ID) of the foundry `serialNumber` (u32) controlled by `aliasId`, with token scheme type u8. */
export function foundryId(aliasId: Uint8Array, serialNumber: number, tokenSchemeType: number): Uint8Array {
  if (aliasId.length !== ID_LENGTH)
    throw new RangeError(`foundryId: alias ID must be ${ID_LENGTH} bytes, got ${aliasId.length}`);
  if (!Number.isInteger(serialNumber) || serialNumber < 0 || serialNumber > 0xffffffff) {
    throw new RangeError(`foundryId: serial number ${serialNumber} is not a u32`);
  }
  if (!Number.isInteger(tokenSchemeType) || tokenSchemeType < 0 || tokenSchemeType > 0xff) {
    throw new RangeError(`foundryId: token scheme type ${tokenSchemeType} is not a u8`);
  }
  const out = new Uint8Array(TOKEN_ID_LENGTH);
  out[0] = ADDRESS_ALIAS;
  out.set(aliasId, 1);
  new DataView(out.buffer).setUint32(1 + ID_LENGTH, serialNumber, true);
  out[TOKEN_ID_LENGTH - 1] = tokenSchemeType;
  return out;
}

/**
 * The chain of an alias, NFT or foundry output: its alias or NFT ID, or the one derived from `outputId` when the
 * output's is zero (the output created the chain, TIP-18/19); a foundry's ID. `undefined` for a basic output, and for a
 * foundry without its Immutable Alias Address unlock condition (not syntactically valid). An explicit alias or NFT ID
 * is the output's own array.
 */
export function chainIdOf(outputId: Uint8Array, output: CommonOutput): Uint8Array | undefined {
  switch (output.type) {
    case OUTPUT_ALIAS:
      return isZero(output.aliasId) ? aliasIdFromOutputId(outputId) : output.aliasId;
    case OUTPUT_NFT:
      return isZero(output.nftId) ? nftIdFromOutputId(outputId) : output.nftId;
    case OUTPUT_FOUNDRY: {
      const alias = output.unlockConditions.find((uc) => uc.type === UC_IMMUTABLE_ALIAS);
      return alias && foundryId(alias.address.aliasId, output.serialNumber, output.tokenScheme.type);
    }
    default:
      return undefined;
  }
}
