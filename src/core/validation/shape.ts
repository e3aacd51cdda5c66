/**
 * Shape checks on a model object (one that may come from JSON rather than bytes): everything the binary decoder
 * enforces — kinds per context, counts, lengths, lexical order, one-per-type, integer widths — through the same
 * shared rules the decoder calls, reported with field paths.
 */
import type { Address } from '../model/address.ts';
import { ADDRESS_ALIAS, ADDRESS_ED25519 } from '../model/address.ts';
import {
  FEATURE_METADATA,
  FEATURE_TAG,
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  OUTPUT_TREASURY,
  UC_EXPIRATION,
  UC_IMMUTABLE_ALIAS,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
  type Feature,
  type NativeToken,
  type Output,
  type UnlockCondition,
} from '../model/output.ts';
import type { Input, Unlock } from '../model/transaction.ts';
import { INPUT_UTXO, UNLOCK_SIGNATURE } from '../model/transaction.ts';
import {
  ED25519_PUBLIC_KEY_LENGTH,
  ED25519_SIGNATURE_LENGTH,
  ID_LENGTH,
  LIMITS,
  TOKEN_ID_LENGTH,
} from '../model/limits.ts';
import type { Signature } from '../model/transaction.ts';
import {
  addressKindProblem,
  ascendingBytesProblem,
  ascendingTypeProblem,
  countProblem,
  featureKindProblem,
  fixedLengthProblem,
  inputKindProblem,
  lengthProblem,
  mandatoryUnlockConditionsProblem,
  outputKindProblem,
  outputListBounds,
  signatureKindProblem,
  tokenSchemeKindProblem,
  u256Problem,
  u64Problem,
  uintProblem,
  unlockConditionKindProblem,
  unlockKindProblem,
  type AddressContext,
  type Bounds,
  type InputContext,
  type OutputContext,
} from '../codec/rules.ts';
import { addressId } from '../codec/address.ts';
import { check, invalid } from './fail.ts';

export function checkList(list: unknown, name: string, bounds: Bounds, path: string): void {
  if (!Array.isArray(list)) invalid('INVALID_FIELD', `${name} must be a list`, path);
  check(countProblem(name, list.length, bounds), path, list.length);
}

export function checkBytes(b: unknown, n: number, name: string, path: string): void {
  check(fixedLengthProblem(name, b, n), path, b);
}

export function checkVarBytes(b: unknown, name: string, bounds: Bounds, path: string): void {
  if (!(b instanceof Uint8Array)) invalid('INVALID_FIELD', `${name} must be a byte string`, path);
  check(lengthProblem(name, b.length, bounds), path, b.length);
}

export function checkAddress(a: Address, path: string, context: AddressContext = 'any'): void {
  if (a === null || typeof a !== 'object') invalid('MISSING_FIELD', 'address is missing', path);
  check(addressKindProblem(context, a.type), `${path}.type`, a.type);
  const idField = a.type === ADDRESS_ED25519 ? 'pubKeyHash' : a.type === ADDRESS_ALIAS ? 'aliasId' : 'nftId';
  checkBytes(addressId(a), ID_LENGTH, `address ${idField}`, `${path}.${idField}`);
}

export function checkSignature(s: Signature, path: string): void {
  check(signatureKindProblem(s.type), `${path}.type`, s.type);
  checkBytes(s.publicKey, ED25519_PUBLIC_KEY_LENGTH, 'public key', `${path}.publicKey`);
  checkBytes(s.signature, ED25519_SIGNATURE_LENGTH, 'signature', `${path}.signature`);
}

export function checkInput(i: Input, path: string, context: InputContext): void {
  check(inputKindProblem(context, i.type), `${path}.type`, i.type);
  if (i.type === INPUT_UTXO) {
    checkBytes(i.transactionId, ID_LENGTH, 'transaction ID', `${path}.transactionId`);
    check(uintProblem('output index', i.transactionOutputIndex, 16), `${path}.transactionOutputIndex`);
  } else {
    checkBytes(i.milestoneId, ID_LENGTH, 'milestone ID', `${path}.milestoneId`);
  }
}

export function checkUnlock(u: Unlock, path: string): void {
  check(unlockKindProblem(u.type), `${path}.type`, u.type);
  if (u.type === UNLOCK_SIGNATURE) checkSignature(u.signature, `${path}.signature`);
  else check(uintProblem('unlock reference', u.reference, 16), `${path}.reference`);
}

function checkNativeTokens(list: NativeToken[], path: string): void {
  checkList(list, 'native tokens', LIMITS.nativeTokens, `${path}.nativeTokens`);
  for (let i = 0; i < list.length; i++) {
    const p = `${path}.nativeTokens[${i}]`;
    checkBytes(list[i]!.id, TOKEN_ID_LENGTH, 'token ID', `${p}.id`);
    check(u256Problem('native token amount', list[i]!.amount), `${p}.amount`);
    if (i > 0) check(ascendingBytesProblem('native token IDs', list[i - 1]!.id, list[i]!.id), `${p}.id`, list[i]!.id);
  }
}

function checkUnlockCondition(uc: UnlockCondition, outputType: number, path: string): void {
  check(unlockConditionKindProblem(outputType, uc.type), `${path}.type`, uc.type);
  switch (uc.type) {
    case UC_STORAGE_DEPOSIT_RETURN:
      checkAddress(uc.returnAddress, `${path}.returnAddress`);
      check(u64Problem('return amount', uc.amount), `${path}.amount`);
      return;
    case UC_TIMELOCK:
      check(uintProblem('unix time', uc.unixTime, 32), `${path}.unixTime`);
      return;
    case UC_EXPIRATION:
      checkAddress(uc.returnAddress, `${path}.returnAddress`);
      check(uintProblem('unix time', uc.unixTime, 32), `${path}.unixTime`);
      return;
    default:
      checkAddress(uc.address, `${path}.address`, uc.type === UC_IMMUTABLE_ALIAS ? 'alias' : 'any');
  }
}

function checkFeature(f: Feature, outputType: number, immutable: boolean, path: string): void {
  check(featureKindProblem(outputType, f.type, immutable), `${path}.type`, f.type);
  if (f.type === FEATURE_METADATA) checkVarBytes(f.data, 'metadata feature', LIMITS.metadataFeature, `${path}.data`);
  else if (f.type === FEATURE_TAG) checkVarBytes(f.tag, 'tag feature', LIMITS.tagFeature, `${path}.tag`);
  else checkAddress(f.address, `${path}.address`);
}

function checkFeatures(list: Feature[], outputType: number, immutable: boolean, bounds: Bounds, path: string): void {
  const name = immutable ? 'immutable features' : 'features';
  checkList(list, name, bounds, path);
  for (let i = 0; i < list.length; i++) {
    checkFeature(list[i]!, outputType, immutable, `${path}[${i}]`);
    if (i > 0)
      check(
        ascendingTypeProblem(immutable ? 'immutable feature' : 'feature', list[i - 1]!.type, list[i]!.type),
        `${path}[${i}].type`,
        list[i]!.type,
      );
  }
}

/** Everything the decoder checks on an output, on a model. */
export function checkOutputShape(o: Output, path: string, context: OutputContext): void {
  check(outputKindProblem(context, o.type), `${path}.type`, o.type);
  check(u64Problem('amount', o.amount), `${path}.amount`);
  if (o.type === OUTPUT_TREASURY) return;
  const bounds = outputListBounds(o.type);
  checkNativeTokens(o.nativeTokens, path);
  const ucs = o.unlockConditions;
  checkList(ucs, 'unlock conditions', bounds.unlockConditions, `${path}.unlockConditions`);
  let present = 0;
  for (let i = 0; i < ucs.length; i++) {
    const p = `${path}.unlockConditions[${i}]`;
    checkUnlockCondition(ucs[i]!, o.type, p);
    if (i > 0)
      check(ascendingTypeProblem('unlock condition', ucs[i - 1]!.type, ucs[i]!.type), `${p}.type`, ucs[i]!.type);
    present |= 1 << ucs[i]!.type;
  }
  check(mandatoryUnlockConditionsProblem(o.type, present), `${path}.unlockConditions`);
  checkFeatures(o.features, o.type, false, bounds.features, `${path}.features`);
  if (o.type === OUTPUT_ALIAS) {
    checkBytes(o.aliasId, ID_LENGTH, 'alias ID', `${path}.aliasId`);
    check(uintProblem('state index', o.stateIndex, 32), `${path}.stateIndex`);
    checkVarBytes(o.stateMetadata, 'state metadata', LIMITS.aliasStateMetadata, `${path}.stateMetadata`);
    check(uintProblem('foundry counter', o.foundryCounter, 32), `${path}.foundryCounter`);
  } else if (o.type === OUTPUT_FOUNDRY) {
    check(uintProblem('serial number', o.serialNumber, 32), `${path}.serialNumber`);
    const s = o.tokenScheme;
    check(tokenSchemeKindProblem(s.type), `${path}.tokenScheme.type`, s.type);
    check(u256Problem('minted tokens', s.mintedTokens), `${path}.tokenScheme.mintedTokens`);
    check(u256Problem('melted tokens', s.meltedTokens), `${path}.tokenScheme.meltedTokens`);
    check(u256Problem('maximum supply', s.maximumSupply), `${path}.tokenScheme.maximumSupply`);
  } else if (o.type === OUTPUT_NFT) {
    checkBytes(o.nftId, ID_LENGTH, 'NFT ID', `${path}.nftId`);
  }
  if (o.type === OUTPUT_ALIAS || o.type === OUTPUT_FOUNDRY || o.type === OUTPUT_NFT) {
    checkFeatures(o.immutableFeatures, o.type, true, bounds.immutableFeatures, `${path}.immutableFeatures`);
  }
}
