/**
 * Treasury transaction payload (docs/protocol.md §3.4):
 * `{ type: 4, input (treasury input), output (treasury output) }`.
 */
import { PAYLOAD_TREASURY_TRANSACTION, type TreasuryOutput, type TreasuryTransactionPayload } from '../model/index.ts';
import { parseTreasuryInput, treasuryInputToJson } from './input.ts';
import { IN_TREASURY_TRANSACTION, outputToJson, parseOutput } from './output.ts';
import type { JsonPath } from './path.ts';
import { required, type JsonObject } from './read.ts';
import type { TreasuryOutputJson, TreasuryTransactionPayloadJson } from './types.ts';

export function treasuryTransactionToJson(t: TreasuryTransactionPayload): TreasuryTransactionPayloadJson {
  return {
    type: PAYLOAD_TREASURY_TRANSACTION,
    input: treasuryInputToJson(t.input),
    output: outputToJson(t.output) as TreasuryOutputJson,
  };
}

/** The body after the type was read and checked. */
export function parseTreasuryTransactionBody(o: JsonObject, p: JsonPath): TreasuryTransactionPayload {
  return {
    type: PAYLOAD_TREASURY_TRANSACTION,
    input: parseTreasuryInput(required(o, 'input', p), p.key('input')),
    output: parseOutput(required(o, 'output', p), p.key('output'), IN_TREASURY_TRANSACTION) as TreasuryOutput,
  };
}
