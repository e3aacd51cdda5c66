/**
 * Shape rules of Stardust objects, written once and called by both the binary decoder (which reports a byte
 * offset) and the syntactic validator (which reports a field path). Each rule returns `undefined` when the
 * value is fine, or a Problem (code + what went wrong) that the caller turns into a ProtocolError at its
 * own location. Problems are only allocated on failure, so the hot path stays allocation-free.
 */
import { compareBytes } from '../bytes.ts';
import type { ErrorCode } from '../errors.ts';
import { LIMITS } from '../model/limits.ts';
import { ADDRESS_ALIAS, ADDRESS_ED25519, ADDRESS_NFT } from '../model/address.ts';
import {
  FEATURE_ISSUER,
  FEATURE_METADATA,
  FEATURE_SENDER,
  FEATURE_TAG,
  OUTPUT_ALIAS,
  OUTPUT_BASIC,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  OUTPUT_TREASURY,
  TOKEN_SCHEME_SIMPLE,
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
} from '../model/output.ts';
import {
  PAYLOAD_MILESTONE,
  PAYLOAD_TAGGED_DATA,
  PAYLOAD_TRANSACTION,
  PAYLOAD_TREASURY_TRANSACTION,
  MILESTONE_OPTION_PROTOCOL_PARAMS,
  MILESTONE_OPTION_RECEIPT,
} from '../model/payload.ts';
import { INPUT_TREASURY, INPUT_UTXO, SIGNATURE_ED25519, UNLOCK_NFT } from '../model/transaction.ts';

export interface Problem {
  code: ErrorCode;
  /** What is wrong, without the location ("unknown output type 9"). */
  what: string;
}

function problem(code: ErrorCode, what: string): Problem {
  return { code, what };
}

// ---------------------------------------------------------------------------------------------------------------
// Counts, lengths, order

export interface Bounds {
  readonly min: number;
  readonly max: number;
}

export function countProblem(name: string, n: number, b: Bounds): Problem | undefined {
  if (n >= b.min && n <= b.max) return undefined;
  return problem('COUNT_OUT_OF_RANGE', `${name} count ${n} is outside ${b.min}..${b.max}`);
}

export function lengthProblem(name: string, n: number, b: Bounds): Problem | undefined {
  if (n >= b.min && n <= b.max) return undefined;
  return problem('LENGTH_OUT_OF_RANGE', `${name} length ${n} is outside ${b.min}..${b.max}`);
}

/** Lexical comparison of the complete serialized bytes (docs/protocol.md §0): <0, 0, >0 (= compareBytes). */
export const compareLexical: (a: Uint8Array, b: Uint8Array) => number = compareBytes;

/** `cur` must come strictly after `prev` (sorted and unique). */
export function ascendingBytesProblem(name: string, prev: Uint8Array, cur: Uint8Array): Problem | undefined {
  const c = compareLexical(prev, cur);
  if (c < 0) return undefined;
  return problem(
    'NOT_SORTED_UNIQUE',
    c === 0 ? `${name} are not unique` : `${name} are not in ascending lexical order`,
  );
}

/** Types in a list (unlock conditions, features, milestone options) strictly ascending: one per type. */
export function ascendingTypeProblem(name: string, prev: number, cur: number): Problem | undefined {
  if (cur > prev) return undefined;
  return problem(
    'NOT_SORTED_UNIQUE',
    cur === prev ? `${name} type ${cur} occurs twice` : `${name} type ${cur} follows type ${prev} (must ascend)`,
  );
}

export function fixedLengthProblem(name: string, value: unknown, n: number): Problem | undefined {
  if (value instanceof Uint8Array && value.length === n) return undefined;
  const got = value instanceof Uint8Array ? `${value.length} bytes` : typeof value;
  return problem('INVALID_FIELD', `${name} must be ${n} bytes, got ${got}`);
}

/** Unsigned integer of `bits` width held in a JS number (u8/u16/u32). */
export function uintProblem(name: string, v: unknown, bits: 8 | 16 | 32): Problem | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 2 ** bits) return undefined;
  return problem('VALUE_OUT_OF_RANGE', `${name} ${String(v)} is not a u${bits}`);
}

const U64_MAX = (1n << 64n) - 1n;
const U256_MAX = (1n << 256n) - 1n;

export function u64Problem(name: string, v: unknown): Problem | undefined {
  if (typeof v === 'bigint' && v >= 0n && v <= U64_MAX) return undefined;
  return problem('VALUE_OUT_OF_RANGE', `${name} ${String(v)} is not a u64`);
}

export function u256Problem(name: string, v: unknown): Problem | undefined {
  if (typeof v === 'bigint' && v >= 0n && v <= U256_MAX) return undefined;
  return problem('VALUE_OUT_OF_RANGE', `${name} ${String(v)} is not a u256`);
}

// ---------------------------------------------------------------------------------------------------------------
// Allowed kinds per context (docs/protocol.md §1.1, §1.2, §5)

/** Bit sets over small type codes. */
const bit = (t: number): number => 1 << t;

export type PayloadContext = 'block' | 'essence' | 'receipt' | 'any';

const KNOWN_PAYLOADS =
  bit(PAYLOAD_TREASURY_TRANSACTION) | bit(PAYLOAD_TAGGED_DATA) | bit(PAYLOAD_TRANSACTION) | bit(PAYLOAD_MILESTONE);
const PAYLOADS_BY_CONTEXT: Record<PayloadContext, number> = {
  block: bit(PAYLOAD_TAGGED_DATA) | bit(PAYLOAD_TRANSACTION) | bit(PAYLOAD_MILESTONE),
  essence: bit(PAYLOAD_TAGGED_DATA),
  receipt: bit(PAYLOAD_TREASURY_TRANSACTION),
  any: KNOWN_PAYLOADS,
};

function allowed(type: number, set: number): boolean {
  return type < 31 && (set & bit(type)) !== 0;
}

/** Only called once a type was found not allowed: unknown altogether, or known but out of context. */
function kindFailure(name: string, type: number, known: number, where: string): Problem {
  if (type >= 31 || (known & bit(type)) === 0) return problem('UNKNOWN_TYPE', `unknown ${name} type ${type}`);
  return problem('TYPE_NOT_ALLOWED', `${name} type ${type} is not allowed in ${where}`);
}

export function payloadKindProblem(context: PayloadContext, type: number): Problem | undefined {
  if (allowed(type, PAYLOADS_BY_CONTEXT[context])) return undefined;
  return kindFailure('payload', type, KNOWN_PAYLOADS, `a ${context === 'any' ? 'payload' : context}`);
}

export type OutputContext = 'essence' | 'treasury' | 'any';
const KNOWN_OUTPUTS =
  bit(OUTPUT_TREASURY) | bit(OUTPUT_BASIC) | bit(OUTPUT_ALIAS) | bit(OUTPUT_FOUNDRY) | bit(OUTPUT_NFT);
const OUTPUTS_BY_CONTEXT: Record<OutputContext, number> = {
  essence: bit(OUTPUT_BASIC) | bit(OUTPUT_ALIAS) | bit(OUTPUT_FOUNDRY) | bit(OUTPUT_NFT),
  treasury: bit(OUTPUT_TREASURY),
  any: KNOWN_OUTPUTS,
};
const OUTPUT_CONTEXT_NAME: Record<OutputContext, string> = {
  essence: 'a transaction essence',
  treasury: 'a treasury transaction',
  any: 'an output',
};

export function outputKindProblem(context: OutputContext, type: number): Problem | undefined {
  if (allowed(type, OUTPUTS_BY_CONTEXT[context])) return undefined;
  return kindFailure('output', type, KNOWN_OUTPUTS, OUTPUT_CONTEXT_NAME[context]);
}

export type InputContext = 'essence' | 'treasury' | 'any';
const KNOWN_INPUTS = bit(INPUT_UTXO) | bit(INPUT_TREASURY);
const INPUTS_BY_CONTEXT: Record<InputContext, number> = {
  essence: bit(INPUT_UTXO),
  treasury: bit(INPUT_TREASURY),
  any: KNOWN_INPUTS,
};

export function inputKindProblem(context: InputContext, type: number): Problem | undefined {
  if (allowed(type, INPUTS_BY_CONTEXT[context])) return undefined;
  return kindFailure(
    'input',
    type,
    KNOWN_INPUTS,
    context === 'essence' ? 'a transaction essence' : 'a treasury transaction',
  );
}

const KNOWN_UNLOCK_CONDITIONS = 0x7f; // 0..6
const UCS_BY_OUTPUT: Record<number, number> = {
  [OUTPUT_BASIC]: bit(UC_ADDRESS) | bit(UC_STORAGE_DEPOSIT_RETURN) | bit(UC_TIMELOCK) | bit(UC_EXPIRATION),
  [OUTPUT_ALIAS]: bit(UC_STATE_CONTROLLER) | bit(UC_GOVERNOR),
  [OUTPUT_FOUNDRY]: bit(UC_IMMUTABLE_ALIAS),
  [OUTPUT_NFT]: bit(UC_ADDRESS) | bit(UC_STORAGE_DEPOSIT_RETURN) | bit(UC_TIMELOCK) | bit(UC_EXPIRATION),
};
/** Unlock conditions every output of the kind must carry. */
const MANDATORY_UCS: Record<number, number> = {
  [OUTPUT_BASIC]: bit(UC_ADDRESS),
  [OUTPUT_ALIAS]: bit(UC_STATE_CONTROLLER) | bit(UC_GOVERNOR),
  [OUTPUT_FOUNDRY]: bit(UC_IMMUTABLE_ALIAS),
  [OUTPUT_NFT]: bit(UC_ADDRESS),
};

export const OUTPUT_NAMES: Record<number, string> = {
  [OUTPUT_TREASURY]: 'treasury output',
  [OUTPUT_BASIC]: 'basic output',
  [OUTPUT_ALIAS]: 'alias output',
  [OUTPUT_FOUNDRY]: 'foundry output',
  [OUTPUT_NFT]: 'NFT output',
};

/** Any known kind when `outputType` is negative (a standalone unlock condition). */
export function unlockConditionKindProblem(outputType: number, type: number): Problem | undefined {
  if (allowed(type, outputType < 0 ? KNOWN_UNLOCK_CONDITIONS : (UCS_BY_OUTPUT[outputType] ?? 0))) return undefined;
  return kindFailure('unlock condition', type, KNOWN_UNLOCK_CONDITIONS, `a ${OUTPUT_NAMES[outputType]}`);
}

/** After the list was read: `present` is the bit set of unlock condition types seen. */
export function mandatoryUnlockConditionsProblem(outputType: number, present: number): Problem | undefined {
  const missing = (MANDATORY_UCS[outputType] ?? 0) & ~present;
  if (missing === 0) return undefined;
  const t = 31 - Math.clz32(missing & -missing);
  return problem('MISSING_FIELD', `a ${OUTPUT_NAMES[outputType]} needs an unlock condition of type ${t}`);
}

const KNOWN_FEATURES = bit(FEATURE_SENDER) | bit(FEATURE_ISSUER) | bit(FEATURE_METADATA) | bit(FEATURE_TAG);
const FEATURES_BY_OUTPUT: Record<number, number> = {
  [OUTPUT_BASIC]: bit(FEATURE_SENDER) | bit(FEATURE_METADATA) | bit(FEATURE_TAG),
  [OUTPUT_ALIAS]: bit(FEATURE_SENDER) | bit(FEATURE_METADATA),
  [OUTPUT_FOUNDRY]: bit(FEATURE_METADATA),
  [OUTPUT_NFT]: bit(FEATURE_SENDER) | bit(FEATURE_METADATA) | bit(FEATURE_TAG),
};
const IMMUTABLE_FEATURES_BY_OUTPUT: Record<number, number> = {
  [OUTPUT_ALIAS]: bit(FEATURE_ISSUER) | bit(FEATURE_METADATA),
  [OUTPUT_FOUNDRY]: bit(FEATURE_METADATA),
  [OUTPUT_NFT]: bit(FEATURE_ISSUER) | bit(FEATURE_METADATA),
};

export function featureKindProblem(outputType: number, type: number, immutable: boolean): Problem | undefined {
  const table = immutable ? IMMUTABLE_FEATURES_BY_OUTPUT : FEATURES_BY_OUTPUT;
  if (allowed(type, table[outputType] ?? 0)) return undefined;
  return kindFailure(
    immutable ? 'immutable feature' : 'feature',
    type,
    KNOWN_FEATURES,
    `a ${OUTPUT_NAMES[outputType]}`,
  );
}

const BASIC_BOUNDS = { ...LIMITS.basic, immutableFeatures: { min: 0, max: 0 } };

/** Count bounds of the lists of an output kind. */
export function outputListBounds(outputType: number): {
  unlockConditions: Bounds;
  features: Bounds;
  immutableFeatures: Bounds;
} {
  switch (outputType) {
    case OUTPUT_BASIC:
      return BASIC_BOUNDS;
    case OUTPUT_ALIAS:
      return LIMITS.alias;
    case OUTPUT_FOUNDRY:
      return LIMITS.foundry;
    default:
      return LIMITS.nft;
  }
}

export type AddressContext = 'any' | 'alias' | 'ed25519';
export function addressKindProblem(context: AddressContext, type: number): Problem | undefined {
  if (type !== ADDRESS_ED25519 && type !== ADDRESS_ALIAS && type !== ADDRESS_NFT)
    return problem('UNKNOWN_TYPE', `unknown address type ${type}`);
  if (context === 'alias' && type !== ADDRESS_ALIAS)
    return problem('TYPE_NOT_ALLOWED', `address type ${type} is not allowed here (alias address required)`);
  if (context === 'ed25519' && type !== ADDRESS_ED25519)
    return problem('TYPE_NOT_ALLOWED', `address type ${type} is not allowed here (Ed25519 address required)`);
  return undefined;
}

export function unlockKindProblem(type: number): Problem | undefined {
  return type <= UNLOCK_NFT ? undefined : problem('UNKNOWN_TYPE', `unknown unlock type ${type}`);
}

export function signatureKindProblem(type: number): Problem | undefined {
  return type === SIGNATURE_ED25519 ? undefined : problem('UNKNOWN_TYPE', `unknown signature type ${type}`);
}

export function tokenSchemeKindProblem(type: number): Problem | undefined {
  return type === TOKEN_SCHEME_SIMPLE ? undefined : problem('UNKNOWN_TYPE', `unknown token scheme type ${type}`);
}

export function milestoneOptionKindProblem(type: number): Problem | undefined {
  return type === MILESTONE_OPTION_RECEIPT || type === MILESTONE_OPTION_PROTOCOL_PARAMS
    ? undefined
    : problem('UNKNOWN_TYPE', `unknown milestone option type ${type}`);
}

export function essenceKindProblem(type: number): Problem | undefined {
  return type === 1 ? undefined : problem('UNKNOWN_TYPE', `unknown transaction essence type ${type}`);
}

export function booleanByteProblem(name: string, v: number): Problem | undefined {
  return v === 0 || v === 1 ? undefined : problem('INVALID_FIELD', `${name} must be 0 or 1, got ${v}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Transaction-level list rules shared by decoder and validator

/** Whether two UTXO inputs reference the same output (same transaction ID and output index). */
export function sameUtxo(aTx: Uint8Array, aIndex: number, bTx: Uint8Array, bIndex: number): boolean {
  if (aIndex !== bIndex) return false;
  for (let i = 0; i < 32; i++) if (aTx[i] !== bTx[i]) return false;
  return true;
}

/** `a` and `b` must differ (milestone signature public keys, receipt tail transaction hashes). */
export function distinctProblem(name: string, a: Uint8Array, b: Uint8Array): Problem | undefined {
  return compareLexical(a, b) === 0 ? problem('DUPLICATE', `${name} occurs twice`) : undefined;
}

/** Output index of a UTXO input inside a transaction: 0..127 (the standalone input object only needs a u16). */
export function outputIndexProblem(index: number): Problem | undefined {
  return index <= LIMITS.maxOutputIndex
    ? undefined
    : problem('VALUE_OUT_OF_RANGE', `output index ${index} exceeds ${LIMITS.maxOutputIndex}`);
}
