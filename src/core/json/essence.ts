/**
 * Transaction essence (docs/protocol.md §3.2): type 1; inputs, inputs commitment, outputs, optional tagged data
 * payload.
 */
import { ESSENCE_REGULAR, ID_LENGTH, LIMITS, type TransactionEssence } from '../model/index.ts';
import { fromJson } from './entry.ts';
import { parseUtxoInput, utxoInputToJson } from './input.ts';
import { commonOutputToJson, parseCommonOutput } from './output.ts';
import type { JsonPath } from './path.ts';
import { PAYLOAD_IN_ESSENCE, PAYLOAD_TYPES } from './payload-type.ts';
import { optional, readFixed, readList, readObject, readU64, required } from './read.ts';
import { parseTaggedDataBody, taggedDataToJson } from './tagged-data.ts';
import { readType, type TypeFamily } from './type.ts';
import type { TransactionEssenceJson } from './types.ts';
import { bytesToJson, u64ToJson } from './write.ts';

export const ESSENCE_TYPES: TypeFamily = { what: 'transaction essence', names: { [ESSENCE_REGULAR]: 'regular' } };

export function essenceToJson(e: TransactionEssence): TransactionEssenceJson {
  return {
    type: ESSENCE_REGULAR,
    networkId: u64ToJson(e.networkId),
    inputs: e.inputs.map(utxoInputToJson),
    inputsCommitment: bytesToJson(e.inputsCommitment),
    outputs: e.outputs.map(commonOutputToJson),
    ...(e.payload !== undefined ? { payload: taggedDataToJson(e.payload) } : {}),
  };
}

export function parseEssence(v: unknown, p: JsonPath): TransactionEssence {
  const o = readObject(v, p);
  readType(o, p, ESSENCE_TYPES);
  const essence: TransactionEssence = {
    type: ESSENCE_REGULAR,
    networkId: readU64(required(o, 'networkId', p), p.key('networkId')),
    inputs: readList(required(o, 'inputs', p), p.key('inputs'), LIMITS.inputs.max, parseUtxoInput),
    inputsCommitment: readFixed(required(o, 'inputsCommitment', p), p.key('inputsCommitment'), ID_LENGTH),
    outputs: readList(required(o, 'outputs', p), p.key('outputs'), LIMITS.outputs.max, parseCommonOutput),
  };
  const payload = optional(o, 'payload');
  if (payload !== undefined) {
    const pp = p.key('payload');
    const po = readObject(payload, pp);
    readType(po, pp, PAYLOAD_TYPES, PAYLOAD_IN_ESSENCE);
    essence.payload = parseTaggedDataBody(po, pp);
  }
  return essence;
}

export function essenceFromJson(json: unknown): TransactionEssence {
  return fromJson('transaction essence', json, parseEssence);
}
