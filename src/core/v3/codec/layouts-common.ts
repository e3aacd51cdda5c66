/**
 * The v3 layout tables, first part: ordering rules and the families every object uses — addresses, unlock conditions,
 * features (docs/protocol.md §V6.3–§V6.5). layouts-outputs.ts holds outputs, signatures and unlocks; layouts.ts
 * transactions, payloads, blocks and commitments.
 */
import { compareBytes, toHex0x } from '../../bytes.ts';
import * as C from '../model/codes.ts';
import {
  bytes,
  entries,
  family,
  fixed,
  list,
  member,
  u16,
  u256,
  u32,
  u64,
  u8,
  union,
  type Check,
  type CheckFailure,
  type Order,
  type StructSchema,
} from './schema.ts';

export type Obj = Record<string, unknown>;
export const bad = (code: CheckFailure['code'], message: string, field?: string): CheckFailure =>
  field === undefined ? { code, message } : { code, message, field };

// ---------------------------------------------------------------------------------------------------------------
// orders

export const byBytes: Order = (_a, _b, ab, bb) => compareBytes(ab, bb);
export const byType: Order = (a, b) => ((a as Obj).type as number) - ((b as Obj).type as number);
export const byField =
  (name: string): Order =>
  (a, b) =>
    compareBytes((a as Obj)[name] as Uint8Array, (b as Obj)[name] as Uint8Array);
/** Context inputs: by type, then by the type's key (commitment: none, BIC: account ID, reward: index). */
export const contextInputOrder: Order = (a, b) => {
  const x = a as Obj;
  const y = b as Obj;
  if (x.type !== y.type) return (x.type as number) - (y.type as number);
  if (x.type === C.CONTEXT_INPUT_BLOCK_ISSUANCE_CREDIT)
    return compareBytes(x.accountId as Uint8Array, y.accountId as Uint8Array);
  if (x.type === C.CONTEXT_INPUT_REWARD) return (x.index as number) - (y.index as number);
  return 0; // two commitment inputs are duplicates
};
/** Multi address entries: by serialized address (the entry minus its weight byte), unique. */
const multiAddressOrder: Order = (_a, _b, ab, bb) =>
  compareBytes(ab.subarray(0, ab.length - 1), bb.subarray(0, bb.length - 1));
/** Distinct, in any order: used where the protocol requires uniqueness only (UTXO inputs). */
export function findDuplicate(items: Uint8Array[]): number {
  const seen = new Set<string>();
  for (let i = 0; i < items.length; i++) {
    const k = toHex0x(items[i]!);
    if (seen.has(k)) return i;
    seen.add(k);
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------------
// addresses (§V6.5)

export const ADDRESS = family('address');
const SIMPLE_ADDRESSES = [C.ADDRESS_ED25519, C.ADDRESS_ACCOUNT, C.ADDRESS_NFT, C.ADDRESS_ANCHOR];
member(ADDRESS, C.ADDRESS_ED25519, 'Ed25519 address', [fixed('pubKeyHash', 32)]);
member(ADDRESS, C.ADDRESS_ACCOUNT, 'account address', [fixed('accountId', 32)]);
member(ADDRESS, C.ADDRESS_NFT, 'NFT address', [fixed('nftId', 32)]);
member(ADDRESS, C.ADDRESS_ANCHOR, 'anchor address', [fixed('anchorId', 32)]);
member(ADDRESS, C.ADDRESS_IMPLICIT_ACCOUNT_CREATION, 'implicit account creation address', [fixed('pubKeyHash', 32)]);
const weightedAddress: StructSchema = {
  name: 'weighted address',
  fields: [union('address', ADDRESS, SIMPLE_ADDRESSES), u8('weight', 1)],
};
member(
  ADDRESS,
  C.ADDRESS_MULTI,
  'multi address',
  [
    list(
      'addresses',
      { k: 'struct', schema: weightedAddress },
      { prefix: 1, min: 2, max: 10, order: multiAddressOrder, orderName: 'sorted by address, unique' },
    ),
    u16('threshold', 1),
  ],
  [
    (v) => {
      let sum = 0;
      for (const e of v.addresses as Obj[]) sum += e.weight as number;
      return (v.threshold as number) > sum
        ? bad('VALUE_OUT_OF_RANGE', `threshold ${String(v.threshold)} exceeds the sum of weights ${sum}`, 'threshold')
        : undefined;
    },
  ],
);
member(
  ADDRESS,
  C.ADDRESS_RESTRICTED,
  'restricted address',
  [union('address', ADDRESS, [...SIMPLE_ADDRESSES, C.ADDRESS_MULTI]), bytes('allowedCapabilities', 1, 0, 2, true)],
  [noTrailingZero('allowedCapabilities')],
);

/** Every address kind, and the kinds allowed where an Implicit Account Creation address is not. */
const ANY_ADDRESS = [...SIMPLE_ADDRESSES, C.ADDRESS_IMPLICIT_ACCOUNT_CREATION, C.ADDRESS_MULTI, C.ADDRESS_RESTRICTED];
const NOT_IMPLICIT = [...SIMPLE_ADDRESSES, C.ADDRESS_MULTI, C.ADDRESS_RESTRICTED];

export function noTrailingZero(field: string): Check {
  return (v) => {
    const b = v[field] as Uint8Array;
    return b.length > 0 && b[b.length - 1] === 0
      ? bad('INVALID_FIELD', `${field} must not end with a zero byte`, field)
      : undefined;
  };
}

// ---------------------------------------------------------------------------------------------------------------
// unlock conditions (§V6.3)

export const UNLOCK_CONDITION = family('unlock condition');
const positiveSlot: Check = (v) =>
  (v.slot as number) === 0 ? bad('VALUE_OUT_OF_RANGE', 'slot must be > 0', 'slot') : undefined;
member(UNLOCK_CONDITION, C.UC_ADDRESS, 'address unlock condition', [union('address', ADDRESS, ANY_ADDRESS)]);
member(UNLOCK_CONDITION, C.UC_STORAGE_DEPOSIT_RETURN, 'storage deposit return unlock condition', [
  union('returnAddress', ADDRESS, NOT_IMPLICIT),
  u64('amount'),
]);
member(UNLOCK_CONDITION, C.UC_TIMELOCK, 'timelock unlock condition', [u32('slot')], [positiveSlot]);
member(
  UNLOCK_CONDITION,
  C.UC_EXPIRATION,
  'expiration unlock condition',
  [union('returnAddress', ADDRESS, NOT_IMPLICIT), u32('slot')],
  [positiveSlot],
);
member(UNLOCK_CONDITION, C.UC_STATE_CONTROLLER, 'state controller address unlock condition', [
  union('address', ADDRESS, NOT_IMPLICIT),
]);
member(UNLOCK_CONDITION, C.UC_GOVERNOR, 'governor address unlock condition', [union('address', ADDRESS, NOT_IMPLICIT)]);
member(UNLOCK_CONDITION, C.UC_IMMUTABLE_ACCOUNT, 'immutable account address unlock condition', [
  union('address', ADDRESS, [C.ADDRESS_ACCOUNT]),
]);

// ---------------------------------------------------------------------------------------------------------------
// features (§V6.4)

export const FEATURE = family('feature');
export const BLOCK_ISSUER_KEY = family('block issuer key');
member(BLOCK_ISSUER_KEY, C.BLOCK_ISSUER_KEY_ED25519, 'Ed25519 public key hash block issuer key', [
  fixed('pubKeyHash', 32),
]);
member(FEATURE, C.FEATURE_SENDER, 'sender feature', [union('address', ADDRESS, ANY_ADDRESS)]);
member(FEATURE, C.FEATURE_ISSUER, 'issuer feature', [union('address', ADDRESS, ANY_ADDRESS)]);
member(FEATURE, C.FEATURE_METADATA, 'metadata feature', [entries('entries')]);
member(FEATURE, C.FEATURE_STATE_METADATA, 'state metadata feature', [entries('entries')]);
member(FEATURE, C.FEATURE_TAG, 'tag feature', [bytes('tag', 1, 1, 64)]);
member(
  FEATURE,
  C.FEATURE_NATIVE_TOKEN,
  'native token feature',
  [fixed('id', C.TOKEN_ID_LENGTH), u256('amount')],
  [(v) => ((v.amount as bigint) === 0n ? bad('VALUE_OUT_OF_RANGE', 'amount must be > 0', 'amount') : undefined)],
);
member(FEATURE, C.FEATURE_BLOCK_ISSUER, 'block issuer feature', [
  u32('expirySlot'),
  list('blockIssuerKeys', { k: 'union', family: BLOCK_ISSUER_KEY }, { prefix: 1, min: 1, max: 128, order: byBytes }),
]);
member(FEATURE, C.FEATURE_STAKING, 'staking feature', [
  u64('stakedAmount'),
  u64('fixedCost'),
  u32('startEpoch'),
  u32('endEpoch'),
]);
