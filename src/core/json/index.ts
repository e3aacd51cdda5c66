/**
 * TIP-25 JSON ⇄ model for every Stardust object, in the exact shape Hornet / iota.go emit (docs/protocol.md §18,
 * docs/decisions.md §3, §8, §9, §20). `...ToJson(model)` builds plain JSON values (keys in the spec's table order,
 * empty optional fields omitted); `...FromJson(value)` takes an already-parsed JSON value and throws a ProtocolError
 * naming the JSON path.
 */
export type * from './types.ts';
export { blockFromJson, blockToJson, type BlockFromJsonOptions } from './block.ts';
export { payloadFromJson, payloadToJson } from './payload.ts';
export { essenceFromJson, essenceToJson } from './essence.ts';
export { outputFromJson, outputToJson } from './output.ts';
export { addressFromJson, addressToJson } from './address.ts';
export { featureFromJson, featureToJson } from './feature.ts';
export { unlockConditionFromJson, unlockConditionToJson } from './unlock-condition.ts';
export { inputFromJson, inputToJson } from './input.ts';
export { unlockFromJson, unlockToJson } from './unlock.ts';
export { signatureFromJson, signatureToJson } from './signature.ts';
export { tokenSchemeFromJson, tokenSchemeToJson } from './token-scheme.ts';
export { nativeTokenFromJson, nativeTokenToJson } from './native-token.ts';
export { milestoneOptionFromJson, milestoneOptionToJson } from './milestone-option.ts';
export { migratedFundsEntryFromJson, migratedFundsEntryToJson } from './migrated-funds.ts';
export {
  protocolParametersFromJson,
  protocolParametersToJson,
  rentStructureFromJson,
  rentStructureToJson,
} from './protocol.ts';
