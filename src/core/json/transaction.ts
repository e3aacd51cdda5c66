/** Transaction payload (docs/protocol.md §3.2): `{ type: 6, essence, unlocks }`. */
import { LIMITS, PAYLOAD_TRANSACTION, type TransactionPayload } from '../model/index.ts';
import { essenceToJson, parseEssence } from './essence.ts';
import type { JsonPath } from './path.ts';
import { readList, required, type JsonObject } from './read.ts';
import type { TransactionPayloadJson } from './types.ts';
import { parseUnlock, unlockToJson } from './unlock.ts';

export function transactionToJson(t: TransactionPayload): TransactionPayloadJson {
  return { type: PAYLOAD_TRANSACTION, essence: essenceToJson(t.essence), unlocks: t.unlocks.map(unlockToJson) };
}

/** The body after the type was read and checked. Unlocks count = inputs count is the validator's rule. */
export function parseTransactionBody(o: JsonObject, p: JsonPath): TransactionPayload {
  return {
    type: PAYLOAD_TRANSACTION,
    essence: parseEssence(required(o, 'essence', p), p.key('essence')),
    unlocks: readList(required(o, 'unlocks', p), p.key('unlocks'), LIMITS.inputs.max, parseUnlock),
  };
}
