/**
 * Unlock conditions (docs/protocol.md §7). The Storage Deposit Return amount is `amount` (docs/decisions.md §8;
 * TIP-25 says `returnAmount`).
 */
import {
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
  type UnlockCondition,
} from '../model/index.ts';
import { addressToJson, aliasAddressToJson, parseAddress, parseAliasAddress } from './address.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readObject, readU32, readU64, required } from './read.ts';
import { readType, type TypeFamily } from './type.ts';
import type { UnlockConditionJson } from './types.ts';
import { u64ToJson } from './write.ts';

export const UNLOCK_CONDITION_TYPES: TypeFamily = {
  what: 'unlock condition',
  names: {
    [UC_ADDRESS]: 'address',
    [UC_STORAGE_DEPOSIT_RETURN]: 'storage deposit return',
    [UC_TIMELOCK]: 'timelock',
    [UC_EXPIRATION]: 'expiration',
    [UC_STATE_CONTROLLER]: 'state controller address',
    [UC_GOVERNOR]: 'governor address',
    [UC_IMMUTABLE_ALIAS]: 'immutable alias address',
  },
};

export function unlockConditionToJson(c: UnlockCondition): UnlockConditionJson {
  switch (c.type) {
    case UC_ADDRESS:
    case UC_STATE_CONTROLLER:
    case UC_GOVERNOR:
      return { type: c.type, address: addressToJson(c.address) };
    case UC_STORAGE_DEPOSIT_RETURN:
      return { type: c.type, returnAddress: addressToJson(c.returnAddress), amount: u64ToJson(c.amount) };
    case UC_TIMELOCK:
      return { type: c.type, unixTime: c.unixTime };
    case UC_EXPIRATION:
      return { type: c.type, returnAddress: addressToJson(c.returnAddress), unixTime: c.unixTime };
    case UC_IMMUTABLE_ALIAS:
      return { type: c.type, address: aliasAddressToJson(c.address) };
    default:
      throw new TypeError(
        `unlockConditionToJson: unknown unlock condition type ${String((c as { type: unknown }).type)}`,
      );
  }
}

export function parseUnlockCondition(v: unknown, p: JsonPath): UnlockCondition {
  const o = readObject(v, p);
  const type = readType(o, p, UNLOCK_CONDITION_TYPES);
  const address = (key: string) => parseAddress(required(o, key, p), p.key(key));
  switch (type) {
    case UC_ADDRESS:
    case UC_STATE_CONTROLLER:
    case UC_GOVERNOR:
      return { type, address: address('address') } as UnlockCondition;
    case UC_STORAGE_DEPOSIT_RETURN:
      return {
        type,
        returnAddress: address('returnAddress'),
        amount: readU64(required(o, 'amount', p), p.key('amount')),
      };
    case UC_TIMELOCK:
      return { type, unixTime: readU32(required(o, 'unixTime', p), p.key('unixTime')) };
    case UC_EXPIRATION:
      return {
        type,
        returnAddress: address('returnAddress'),
        unixTime: readU32(required(o, 'unixTime', p), p.key('unixTime')),
      };
    default:
      return { type: UC_IMMUTABLE_ALIAS, address: parseAliasAddress(required(o, 'address', p), p.key('address')) };
  }
}

export function unlockConditionFromJson(json: unknown): UnlockCondition {
  return fromJson('unlock condition', json, parseUnlockCondition);
}
