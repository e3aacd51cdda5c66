/** Minimum storage deposit (TIP-19, docs/protocol.md §15). */
import type { Output } from '../model/output.ts';
import type { Address } from '../model/address.ts';
import type { RentStructure } from '../model/protocol.ts';
import { OUTPUT_ID_LENGTH } from '../model/limits.ts';
import { outputLength } from '../codec/output.ts';

/** Bytes of booking metadata stored with every output: block ID (32), milestone index (4), timestamp (4). */
const METADATA_BYTES = 40;

/** vByteCost × (factorKey × 34 + factorData × (40 + serialized length)). */
export function minStorageDeposit(output: Output, rent: RentStructure): bigint {
  const vBytes =
    rent.vByteFactorKey * OUTPUT_ID_LENGTH + rent.vByteFactorData * (METADATA_BYTES + outputLength(output));
  return BigInt(rent.vByteCost) * BigInt(vBytes);
}

/**
 * The smallest Storage Deposit Return amount: the deposit of a basic output that holds only an Address unlock
 * condition for the return address (no native tokens, no features).
 */
export function minStorageDepositReturn(returnAddress: Address, rent: RentStructure): bigint {
  return minStorageDeposit(
    { type: 3, amount: 0n, nativeTokens: [], unlockConditions: [{ type: 0, address: returnAddress }], features: [] },
    rent,
  );
}
