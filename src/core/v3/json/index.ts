/**
 * JSON <-> model for v3 objects, with the key names and value kinds iota-core emits (docs/protocol.md §V9).
 * `*ToJsonV3` returns plain JSON values (JSON.stringify-ready); `*FromJsonV3` accepts a parsed value or a JSON text.
 */
import { reject } from '../../errors.ts';
import type { BlockV3, OutputIdProofV3, SlotCommitmentV3 } from '../model/block.ts';
import type { OutputV3 } from '../model/output.ts';
import type { ProtocolParametersV3 } from '../model/params.ts';
import type { BlockPayloadV3, TransactionV3 } from '../model/transaction.ts';
import type { AddressV3 } from '../model/address.ts';
import { kinds } from '../codec/layouts.ts';
import { PROTOCOL_PARAMETERS_KIND } from '../codec/params.ts';
import type { Kind } from '../codec/schema.ts';
import { fromJsonKind, toJsonKind, type Json } from './generic.ts';

export type { Json };

function parse(json: unknown, subject: string): unknown {
  if (typeof json !== 'string') return json;
  try {
    return JSON.parse(json);
  } catch (e) {
    return reject('INVALID_JSON', `Cannot read ${subject} JSON: ${(e as Error).message}`);
  }
}

function pair<T>(kind: Kind, subject: string): [(v: T) => Json, (json: unknown) => T] {
  return [(v: T) => toJsonKind(kind, v), (json: unknown) => fromJsonKind(kind, parse(json, subject), subject) as T];
}

export const [blockToJsonV3, blockFromJsonV3] = pair<BlockV3>(kinds.block, 'block');
export const [payloadToJsonV3, payloadFromJsonV3] = pair<BlockPayloadV3>(kinds.payload, 'payload');
export const [transactionToJsonV3, transactionFromJsonV3] = pair<TransactionV3>(kinds.transaction, 'transaction');
export const [outputToJsonV3, outputFromJsonV3] = pair<OutputV3>(kinds.output, 'output');
export const [addressToJsonV3, addressFromJsonV3] = pair<AddressV3>(kinds.address, 'address');
export const [slotCommitmentToJsonV3, slotCommitmentFromJsonV3] = pair<SlotCommitmentV3>(
  kinds.slotCommitment,
  'slot commitment',
);
export const [outputIdProofToJsonV3, outputIdProofFromJsonV3] = pair<OutputIdProofV3>(
  kinds.outputIdProof,
  'output ID proof',
);
/** Protocol parameters as `/api/core/v3/info` serves them in `protocolParameters[].parameters`. */
export const [protocolParametersToJsonV3, protocolParametersFromJsonV3] = pair<ProtocolParametersV3>(
  PROTOCOL_PARAMETERS_KIND,
  'protocol parameters',
);

/**
 * The parameters of protocol `version` from a parsed `/api/core/v3/info` response
 * (`protocolParameters: [{ startEpoch, parameters }]`).
 */
export function protocolParametersFromInfoV3(info: unknown, version: number): ProtocolParametersV3 {
  const list = (parse(info, 'info') as { protocolParameters?: unknown } | null)?.protocolParameters;
  if (!Array.isArray(list))
    return reject('MISSING_FIELD', 'Cannot read info JSON at protocolParameters: missing or not an array', {
      field: 'protocolParameters',
    });
  const i = list.findIndex(
    (e) => (e as { parameters?: { version?: unknown } } | null)?.parameters?.version === version,
  );
  if (i < 0)
    return reject('MISSING_FIELD', `Cannot read info JSON at protocolParameters: no entry for version ${version}`, {
      field: 'protocolParameters',
      value: String(version),
    });
  return fromJsonKind(
    PROTOCOL_PARAMETERS_KIND,
    (list[i] as { parameters: unknown }).parameters,
    'protocol parameters',
  ) as ProtocolParametersV3;
}
