/**
 * Output rules that need no parameters (iota.go OutputsSyntactical*: Account, Anchor, NFT, Delegation, Foundry,
 * AddressRestrictions, ImplicitAccountCreationAddress). They hold for every output the codec reads or writes.
 */
import { equalBytes, isZero } from '../../bytes.ts';
import type { CheckFailure, Check } from './schema.ts';

type Obj = Record<string, unknown>;
const bad = (code: CheckFailure['code'], message: string, field?: string): CheckFailure =>
  field === undefined ? { code, message } : { code, message, field };

const conditions = (o: Obj) => o.unlockConditions as Obj[];
const features = (o: Obj) => (o.features as Obj[] | undefined) ?? [];
const condition = (o: Obj, type: number) => conditions(o).find((c) => c.type === type);
const feature = (o: Obj, type: number) => features(o).find((f) => f.type === type);

/** Address capability bits (TIP-50): bit i of the little-endian bitmask allows receiving … */
export const ADDRESS_CAPABILITY = {
  nativeTokens: 0,
  mana: 1,
  timelock: 2,
  expiration: 3,
  storageDepositReturn: 4,
  accountOutputs: 5,
  anchorOutputs: 6,
  nftOutputs: 7,
  delegationOutputs: 8,
} as const;

function hasBit(mask: Uint8Array, bit: number): boolean {
  const byte = bit >> 3;
  return byte < mask.length && (mask[byte]! & (1 << (bit & 7))) !== 0;
}

/** What an address may not receive, or undefined when it has no restrictions. */
function restrictions(address: Obj): ((bit: number) => boolean) | undefined {
  if (address.type === 48) {
    const mask = address.allowedCapabilities as Uint8Array;
    return (bit) => !hasBit(mask, bit);
  }
  if (address.type === 32) return (bit) => bit !== ADDRESS_CAPABILITY.mana && bit !== ADDRESS_CAPABILITY.anchorOutputs;
  return undefined;
}

const OUTPUT_BIT: Record<number, number> = {
  1: ADDRESS_CAPABILITY.accountOutputs,
  2: ADDRESS_CAPABILITY.anchorOutputs,
  4: ADDRESS_CAPABILITY.nftOutputs,
  5: ADDRESS_CAPABILITY.delegationOutputs,
};

/**
 * The owner-like addresses of an output (address, state controller, governor, expiration return) may restrict what it
 * holds.
 */
export const addressRestrictions: Check = (o) => {
  for (const uc of conditions(o)) {
    if (uc.type !== 0 && uc.type !== 3 && uc.type !== 4 && uc.type !== 5) continue;
    const address = (uc.type === 3 ? uc.returnAddress : uc.address) as Obj;
    const cannot = restrictions(address);
    if (!cannot) continue;
    const field = `unlockConditions[${conditions(o).indexOf(uc)}]`;
    const what = address.type === 48 ? 'the restricted address' : 'an implicit account creation address';
    if (cannot(ADDRESS_CAPABILITY.nativeTokens) && feature(o, 5))
      return bad('INVALID_FIELD', `${what} cannot receive native tokens`, field);
    if (cannot(ADDRESS_CAPABILITY.mana) && typeof o.mana === 'bigint' && o.mana !== 0n)
      return bad('INVALID_FIELD', `${what} cannot receive Mana`, field);
    if (cannot(ADDRESS_CAPABILITY.timelock) && condition(o, 2))
      return bad('INVALID_FIELD', `${what} cannot receive outputs with a timelock`, field);
    if (cannot(ADDRESS_CAPABILITY.expiration) && condition(o, 3))
      return bad('INVALID_FIELD', `${what} cannot receive outputs with an expiration`, field);
    if (cannot(ADDRESS_CAPABILITY.storageDepositReturn) && condition(o, 1))
      return bad('INVALID_FIELD', `${what} cannot receive outputs with a storage deposit return`, field);
    const bit = OUTPUT_BIT[o.type as number];
    if (bit !== undefined && cannot(bit)) return bad('INVALID_FIELD', `${what} cannot receive this output type`, field);
  }
  return undefined;
};

/** Only Basic Outputs may be owned by an Implicit Account Creation address. */
export const noImplicitOwner: Check = (o) => {
  const i = conditions(o).findIndex((uc) => uc.type === 0 && (uc.address as Obj).type === 32);
  return i >= 0
    ? bad(
        'TYPE_NOT_ALLOWED',
        'an implicit account creation address can only own a basic output',
        `unlockConditions[${i}].address`,
      )
    : undefined;
};

function ownAddress(
  o: Obj,
  ucType: number,
  addressType: number,
  idField: string,
  idKey: string,
): CheckFailure | undefined {
  const id = o[idField] as Uint8Array;
  if (isZero(id)) return undefined;
  const i = conditions(o).findIndex(
    (uc) =>
      uc.type === ucType &&
      (uc.address as Obj).type === addressType &&
      equalBytes((uc.address as Obj)[idKey] as Uint8Array, id),
  );
  return i >= 0
    ? bad('INVALID_FIELD', `the output cannot be owned by its own ${idKey}`, `unlockConditions[${i}].address`)
    : undefined;
}

export const accountRules: Check = (o) => {
  if (isZero(o.accountId as Uint8Array) && o.foundryCounter !== 0)
    return bad('INVALID_FIELD', 'a new account (zero accountId) must have foundryCounter 0', 'foundryCounter');
  const staking = feature(o, 7);
  if (staking && (o.amount as bigint) < (staking.stakedAmount as bigint))
    return bad('VALUE_OUT_OF_RANGE', 'amount is below the staked amount', 'amount');
  return ownAddress(o, 0, 8, 'accountId', 'accountId');
};

export const anchorRules: Check = (o) => {
  if (isZero(o.anchorId as Uint8Array)) {
    return o.stateIndex !== 0
      ? bad('INVALID_FIELD', 'a new anchor (zero anchorId) must have stateIndex 0', 'stateIndex')
      : undefined;
  }
  return ownAddress(o, 4, 24, 'anchorId', 'anchorId') ?? ownAddress(o, 5, 24, 'anchorId', 'anchorId');
};

export const nftRules: Check = (o) => ownAddress(o, 0, 16, 'nftId', 'nftId');

export const delegationRules: Check = (o) =>
  isZero((o.validatorAddress as Obj).accountId as Uint8Array)
    ? bad('INVALID_FIELD', 'the validator account ID must not be zero', 'validatorAddress')
    : undefined;

/**
 * A foundry's Native Token Feature must carry the foundry's own token ID (0x08 ‖ account ‖ serial LE ‖ scheme).
 */
export const foundryRules: Check = (o) => {
  const nt = feature(o, 5);
  if (!nt) return undefined;
  const account = (conditions(o)[0]!.address as Obj).accountId as Uint8Array;
  const id = new Uint8Array(38);
  id[0] = 8;
  id.set(account, 1);
  new DataView(id.buffer).setUint32(33, o.serialNumber as number, true);
  id[37] = (o.tokenScheme as Obj).type as number;
  return equalBytes(id, nt.id as Uint8Array)
    ? undefined
    : bad(
        'INVALID_FIELD',
        'the native token feature ID differs from the foundry ID',
        `features[${features(o).indexOf(nt)}].id`,
      );
};
