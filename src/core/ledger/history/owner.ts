/**
 * Who owns an output, as inx-chronicle 1.0 decides it (`Output::owning_address`): the Address unlock condition of a
 * basic or NFT output, the state controller of an alias, the immutable alias of a foundry. A basic or NFT output spent
 * at or after its expiration time was spent by its expiration return address, and its "spent" ledger update goes to
 * that address. Treasury outputs have no owner. Also what the balance of an address needs of an output (balance.ts).
 */
import { addressId, encodeAddress } from '../../codec/address.ts';
import type { Address } from '../../model/address.ts';
import { byteKey } from './keys.ts';
import {
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
  type CommonOutput,
  type UnlockCondition,
} from '../../model/output.ts';

/** What an output holds for its owner and for its expiration return address. */
export interface Holding {
  /** The owning address, serialized (33 bytes). */
  owner: Uint8Array;
  amount: bigint;
  /** The Storage Deposit Return amount (0 without one). */
  returnAmount: bigint;
  /** Whether it has a Storage Deposit Return unlock condition. */
  storageReturn: boolean;
  expiration?: { returnAddress: Uint8Array; unixTime: number };
  timelock?: number;
}

/** The unlock condition naming the owner: state controller (alias), immutable alias (foundry), else Address. */
const OWNER_CONDITION: Readonly<Record<number, number>> = {
  [OUTPUT_ALIAS]: UC_STATE_CONTROLLER,
  [OUTPUT_FOUNDRY]: UC_IMMUTABLE_ALIAS,
};

type Condition<T extends UnlockCondition['type']> = Extract<UnlockCondition, { type: T }>;

/**
 * One pass over the unlock conditions (the first of each type counts; a confirmation reads thousands of outputs).
 * `encode` serializes its addresses (an AddressArrays' `of` shares one array per address).
 */
export function holdingOf(output: CommonOutput, encode: (a: Address) => Uint8Array = encodeAddress): Holding {
  const ownerType = OWNER_CONDITION[output.type] ?? UC_ADDRESS;
  let ownerUc: { address: Address } | undefined;
  let sdr: Condition<typeof UC_STORAGE_DEPOSIT_RETURN> | undefined;
  let exp: Condition<typeof UC_EXPIRATION> | undefined;
  let tl: Condition<typeof UC_TIMELOCK> | undefined;
  for (const u of output.unlockConditions) {
    if (u.type === ownerType) ownerUc ??= u as { address: Address };
    else if (u.type === UC_STORAGE_DEPOSIT_RETURN) sdr ??= u;
    else if (u.type === UC_EXPIRATION) exp ??= u;
    else if (u.type === UC_TIMELOCK) tl ??= u;
  }
  if (ownerUc === undefined) throw new RangeError(`output of type ${output.type} has no owning unlock condition`);
  const h: Holding = {
    owner: encode(ownerUc.address),
    amount: output.amount,
    returnAmount: sdr === undefined ? 0n : sdr.amount,
    storageReturn: sdr !== undefined,
  };
  if (exp !== undefined) h.expiration = { returnAddress: encode(exp.returnAddress), unixTime: exp.unixTime };
  if (tl !== undefined) h.timelock = tl.unixTime;
  return h;
}

/**
 * Serialized addresses, one array per distinct address (looked up by the 32 bytes of its ID, per type), so the
 * thousands of holdings of one confirmation allocate an array per address, not per output, and the maps keyed by
 * address content (keys.ts BytesMap) find each by identity.
 */
export class AddressArrays {
  private readonly byType = new Map<number, Map<string, Uint8Array>>();

  of(a: Address): Uint8Array {
    let arrays = this.byType.get(a.type);
    if (arrays === undefined) {
      arrays = new Map();
      this.byType.set(a.type, arrays);
    }
    const key = byteKey(addressId(a));
    let bytes = arrays.get(key);
    if (bytes === undefined) {
      bytes = encodeAddress(a);
      arrays.set(key, bytes);
    }
    return bytes;
  }
}

/** The owner of the output, or (spent at `spentAt`, at or after its expiration) its expiration return address. */
export function ownerOf(output: CommonOutput, spentAt?: number): Uint8Array {
  const h = holdingOf(output);
  if (spentAt !== undefined && h.expiration !== undefined && spentAt >= h.expiration.unixTime)
    return h.expiration.returnAddress;
  return h.owner;
}

/** Whether the owner's balance of the output depends on its unlock conditions (a return, an expiration, a timelock). */
export function isSpecial(h: Holding): boolean {
  return h.storageReturn || h.expiration !== undefined || h.timelock !== undefined;
}
