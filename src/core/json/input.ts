/**
 * Inputs (docs/protocol.md §4): UTXO `{ type: 0, transactionId, transactionOutputIndex }`,
 * treasury `{ type: 1, milestoneId }`.
 */
import {
  ID_LENGTH,
  INPUT_TREASURY,
  INPUT_UTXO,
  type Input,
  type TreasuryInput,
  type UtxoInput,
} from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readFixed, readObject, readU16, required } from './read.ts';
import { readType, type TypeContext, type TypeFamily } from './type.ts';
import type { InputJson, TreasuryInputJson, UtxoInputJson } from './types.ts';
import { bytesToJson } from './write.ts';

export const INPUT_TYPES: TypeFamily = { what: 'input', names: { [INPUT_UTXO]: 'UTXO', [INPUT_TREASURY]: 'treasury' } };

const IN_ESSENCE: TypeContext = { allowed: [INPUT_UTXO], where: 'a transaction essence' };
const IN_TREASURY_TRANSACTION: TypeContext = { allowed: [INPUT_TREASURY], where: 'a treasury transaction' };

export function inputToJson(i: Input): InputJson {
  switch (i.type) {
    case INPUT_UTXO:
      return {
        type: i.type,
        transactionId: bytesToJson(i.transactionId),
        transactionOutputIndex: i.transactionOutputIndex,
      };
    case INPUT_TREASURY:
      return { type: i.type, milestoneId: bytesToJson(i.milestoneId) };
    default:
      throw new TypeError(`inputToJson: unknown input type ${String((i as { type: unknown }).type)}`);
  }
}

export function parseInput(v: unknown, p: JsonPath, context?: TypeContext): Input {
  const o = readObject(v, p);
  const type = readType(o, p, INPUT_TYPES, context);
  if (type === INPUT_UTXO) {
    return {
      type,
      transactionId: readFixed(required(o, 'transactionId', p), p.key('transactionId'), ID_LENGTH),
      // u16 on the wire; the 0..127 range is the syntactic validator's rule.
      transactionOutputIndex: readU16(required(o, 'transactionOutputIndex', p), p.key('transactionOutputIndex')),
    };
  }
  return {
    type: INPUT_TREASURY,
    milestoneId: readFixed(required(o, 'milestoneId', p), p.key('milestoneId'), ID_LENGTH),
  };
}

export function parseUtxoInput(v: unknown, p: JsonPath): UtxoInput {
  return parseInput(v, p, IN_ESSENCE) as UtxoInput;
}

export function parseTreasuryInput(v: unknown, p: JsonPath): TreasuryInput {
  return parseInput(v, p, IN_TREASURY_TRANSACTION) as TreasuryInput;
}

export function utxoInputToJson(i: UtxoInput): UtxoInputJson {
  return inputToJson(i) as UtxoInputJson;
}

export function treasuryInputToJson(i: TreasuryInput): TreasuryInputJson {
  return inputToJson(i) as TreasuryInputJson;
}

export function inputFromJson(json: unknown): Input {
  return fromJson('input', json, (v, p) => parseInput(v, p));
}
