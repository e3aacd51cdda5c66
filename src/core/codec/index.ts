/** Strict binary codec of every Stardust object (docs/protocol.md §1-§11). */
export { ByteReader } from './reader.ts';
export { ByteWriter } from './writer.ts';
export { decodeBlock, encodeBlock, writeBlock, type DecodeBlockOptions } from './block.ts';
export { decodePayload, decodeBlockPayload, encodePayload, readPayload, writePayload } from './payload.ts';
export { decodeTransactionEssence, encodeTransactionEssence, readEssence, writeEssence } from './essence.ts';
export {
  decodeMigratedFundsEntry,
  decodeMilestoneOption,
  encodeMigratedFundsEntry,
  encodeMilestoneEssence,
  encodeMilestoneOption,
} from './milestone.ts';
export { decodeCommonOutput, decodeOutput, encodeOutput, outputLength, readOutput, writeOutput } from './output.ts';
export { ADDRESS_LENGTH, addressEquals, addressId, decodeAddress, encodeAddress } from './address.ts';
export { decodeFeature, decodeFeatures, encodeFeature, encodeFeatures } from './feature.ts';
export { decodeUnlockCondition, encodeUnlockCondition } from './unlock-condition.ts';
export { decodeInput, encodeInput } from './input.ts';
export { decodeUnlock, encodeUnlock } from './unlock.ts';
export { decodeSignature, encodeSignature } from './signature.ts';
export { decodeTokenScheme, encodeTokenScheme } from './token-scheme.ts';
export { decodeProtocolParameters, encodeProtocolParameters } from './protocol-parameters.ts';
export { decodeTaggedData, encodeTaggedData } from './tagged-data.ts';
export { compareLexical } from './rules.ts';
