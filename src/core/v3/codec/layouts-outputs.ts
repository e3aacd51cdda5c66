/**
 * The v3 layout tables, second part: outputs and their token scheme (docs/protocol.md §V6.1, §V6.2), signatures and
 * unlocks (§V3.4, §V5.8), on the families of layouts-common.ts. layouts.ts holds transactions, payloads, blocks and
 * commitments, and re-exports these.
 */
import * as C from '../model/codes.ts';
import {
  accountRules,
  addressRestrictions,
  anchorRules,
  delegationRules,
  foundryRules,
  nftRules,
  noImplicitOwner,
} from './output-rules.ts';
import {
  family,
  fixed,
  list,
  member,
  u16,
  u256,
  u32,
  u64,
  union,
  type Check,
  type Kind,
  type StructSchema,
} from './schema.ts';
import { ADDRESS, FEATURE, UNLOCK_CONDITION, bad, byType, type Obj } from './layouts-common.ts';

// ---------------------------------------------------------------------------------------------------------------
// outputs (§V6.1, §V6.2)

export const TOKEN_SCHEME = family('token scheme');
member(
  TOKEN_SCHEME,
  C.TOKEN_SCHEME_SIMPLE,
  'simple token scheme',
  [u256('mintedTokens'), u256('meltedTokens'), u256('maximumSupply')],
  [
    (v) => {
      const minted = v.mintedTokens as bigint;
      const melted = v.meltedTokens as bigint;
      const max = v.maximumSupply as bigint;
      if (max === 0n) return bad('VALUE_OUT_OF_RANGE', 'maximumSupply must be > 0', 'maximumSupply');
      if (melted > minted) return bad('VALUE_OUT_OF_RANGE', 'meltedTokens exceeds mintedTokens', 'meltedTokens');
      if (minted - melted > max)
        return bad('VALUE_OUT_OF_RANGE', 'circulating supply (minted - melted) exceeds maximumSupply', 'mintedTokens');
      return undefined;
    },
  ],
);

function conditions(allowed: number[], min: number, max: number): Kind {
  return {
    k: 'list',
    prefix: 1,
    min,
    max,
    item: { k: 'union', family: UNLOCK_CONDITION, allowed },
    order: byType,
    orderName: 'sorted by type, one per type',
  };
}
function features(allowed: number[]): Kind {
  return {
    k: 'list',
    prefix: 1,
    min: 0,
    max: allowed.length,
    item: { k: 'union', family: FEATURE, allowed },
    order: byType,
    orderName: 'sorted by type, one per type',
  };
}
function requires(field: string, ...types: number[]): Check {
  return (v) => {
    const have = new Set((v[field] as Obj[]).map((x) => x.type as number));
    for (const t of types) if (!have.has(t)) return bad('MISSING_FIELD', `${field} must contain type ${t}`, field);
    return undefined;
  };
}

export const OUTPUT = family('output');
member(
  OUTPUT,
  C.OUTPUT_BASIC,
  'basic output',
  [
    u64('amount'),
    u64('mana'),
    { name: 'unlockConditions', kind: conditions([0, 1, 2, 3], 1, 4) },
    { name: 'features', kind: features([0, 2, 4, 5]), omitEmpty: true },
  ],
  [requires('unlockConditions', C.UC_ADDRESS), addressRestrictions],
);
member(
  OUTPUT,
  C.OUTPUT_ACCOUNT,
  'account output',
  [
    u64('amount'),
    u64('mana'),
    fixed('accountId', 32),
    u32('foundryCounter'),
    { name: 'unlockConditions', kind: conditions([0], 1, 1) },
    { name: 'features', kind: features([0, 2, 6, 7]), omitEmpty: true },
    { name: 'immutableFeatures', kind: features([1, 2]), omitEmpty: true },
  ],
  [noImplicitOwner, accountRules, addressRestrictions],
);
member(
  OUTPUT,
  C.OUTPUT_ANCHOR,
  'anchor output',
  [
    u64('amount'),
    u64('mana'),
    fixed('anchorId', 32),
    u32('stateIndex'),
    { name: 'unlockConditions', kind: conditions([4, 5], 2, 2) },
    { name: 'features', kind: features([2, 3]), omitEmpty: true },
    { name: 'immutableFeatures', kind: features([1, 2]), omitEmpty: true },
  ],
  [anchorRules, addressRestrictions],
);
member(
  OUTPUT,
  C.OUTPUT_FOUNDRY,
  'foundry output',
  [
    u64('amount'),
    u32('serialNumber'),
    union('tokenScheme', TOKEN_SCHEME),
    { name: 'unlockConditions', kind: conditions([6], 1, 1) },
    { name: 'features', kind: features([2, 5]), omitEmpty: true },
    { name: 'immutableFeatures', kind: features([2]), omitEmpty: true },
  ],
  [foundryRules],
);
member(
  OUTPUT,
  C.OUTPUT_NFT,
  'NFT output',
  [
    u64('amount'),
    u64('mana'),
    fixed('nftId', 32),
    { name: 'unlockConditions', kind: conditions([0, 1, 2, 3], 1, 4) },
    { name: 'features', kind: features([0, 2, 4]), omitEmpty: true },
    { name: 'immutableFeatures', kind: features([1, 2]), omitEmpty: true },
  ],
  [requires('unlockConditions', C.UC_ADDRESS), noImplicitOwner, nftRules, addressRestrictions],
);
member(
  OUTPUT,
  C.OUTPUT_DELEGATION,
  'delegation output',
  [
    u64('amount'),
    u64('delegatedAmount'),
    fixed('delegationId', 32),
    union('validatorAddress', ADDRESS, [C.ADDRESS_ACCOUNT]),
    u32('startEpoch'),
    u32('endEpoch'),
    { name: 'unlockConditions', kind: conditions([0], 1, 1) },
  ],
  [noImplicitOwner, delegationRules, addressRestrictions],
);

// ---------------------------------------------------------------------------------------------------------------
// signatures and unlocks (§V3.4, §V5.8)

export const SIGNATURE = family('signature');
member(SIGNATURE, C.SIGNATURE_ED25519, 'Ed25519 signature', [fixed('publicKey', 32), fixed('signature', 64)]);

export const UNLOCK = family('unlock');
const reference = (): StructSchema['fields'] => [u16('reference')];
member(UNLOCK, C.UNLOCK_SIGNATURE, 'signature unlock', [union('signature', SIGNATURE)]);
member(UNLOCK, C.UNLOCK_REFERENCE, 'reference unlock', reference());
member(UNLOCK, C.UNLOCK_ACCOUNT, 'account unlock', reference());
member(UNLOCK, C.UNLOCK_ANCHOR, 'anchor unlock', reference());
member(UNLOCK, C.UNLOCK_NFT, 'NFT unlock', reference());
member(UNLOCK, C.UNLOCK_MULTI, 'multi unlock', [
  list('unlocks', { k: 'union', family: UNLOCK, allowed: [0, 1, 2, 3, 4, 6] }, { prefix: 1, min: 2, max: 10 }),
]);
member(UNLOCK, C.UNLOCK_EMPTY, 'empty unlock', []);
