/**
 * Who owns an output, as inx-chronicle 1.0 decides it (`Output::owning_address`): the Address unlock condition of a
 * basic or NFT output, the state controller of an alias, the immutable alias of a foundry. A basic or NFT output spent
 * at or after its expiration time was spent by its expiration return address, and its "spent" ledger update goes to
 * that address. Treasury outputs have no owner. Also what the balance of an address needs of an output (balance.ts).
 */
import { encodeAddress } from '../../codec/address.ts';
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

function find<T extends UnlockCondition['type']>(
  ucs: readonly UnlockCondition[],
  type: T,
): Extract<UnlockCondition, { type: T }> | undefined {
  return ucs.find((u) => u.type === type) as Extract<UnlockCondition, { type: T }> | undefined;
}

/** The unlock condition naming the owner: state controller (alias), immutable alias (foundry), else Address. */
const OWNER_CONDITION = { [OUTPUT_ALIAS]: UC_STATE_CONTROLLER, [OUTPUT_FOUNDRY]: UC_IMMUTABLE_ALIAS } as const;

export function holdingOf(output: CommonOutput): Holding {
  const ucs = output.unlockConditions;
  const ownerType = OWNER_CONDITION[output.type as keyof typeof OWNER_CONDITION] ?? UC_ADDRESS;
  const ownerUc = ucs.find((u) => u.type === ownerType) as { address: Parameters<typeof encodeAddress>[0] } | undefined;
  if (ownerUc === undefined) throw new RangeError(`output of type ${output.type} has no owning unlock condition`);
  const h: Holding = {
    owner: encodeAddress(ownerUc.address),
    amount: output.amount,
    returnAmount: 0n,
    storageReturn: false,
  };
  const sdr = find(ucs, UC_STORAGE_DEPOSIT_RETURN);
  if (sdr !== undefined) {
    h.returnAmount = sdr.amount;
    h.storageReturn = true;
  }
  const exp = find(ucs, UC_EXPIRATION);
  if (exp !== undefined) h.expiration = { returnAddress: encodeAddress(exp.returnAddress), unixTime: exp.unixTime };
  const tl = find(ucs, UC_TIMELOCK);
  if (tl !== undefined) h.timelock = tl.unixTime;
  return h;
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
