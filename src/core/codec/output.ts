/** Outputs (docs/protocol.md §5): treasury (2), basic (3), alias (4), foundry (5), NFT (6). */
import {
  OUTPUT_ALIAS,
  OUTPUT_BASIC,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  OUTPUT_TREASURY,
  type CommonOutput,
  type Output,
  type TreasuryOutput,
} from '../model/output.ts';
import { ID_LENGTH, LIMITS } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readNativeTokens, writeNativeTokens } from './native-token.ts';
import { readUnlockConditions, writeUnlockConditions } from './unlock-condition.ts';
import { readFeatures, writeFeatures } from './feature.ts';
import { readTokenScheme, writeTokenScheme } from './token-scheme.ts';
import { outputKindProblem, type OutputContext } from './rules.ts';
import { decodeWhole, encodedLength, encodeWith, failAt, writeFixed, writePrefixed } from './common.ts';

const B = LIMITS.basic;
const A = LIMITS.alias;
const F = LIMITS.foundry;
const N = LIMITS.nft;

/** One output of a kind allowed in `context` ('essence': 3-6, 'treasury': 2, 'any': 2-6). */
export function readOutput(r: ByteReader, field: string, context: OutputContext = 'any'): Output {
  const at = r.offset;
  const type = r.u8(field);
  const p = outputKindProblem(context, type);
  if (p) failAt(r, p, field, at, String(type));
  const amount = r.u64('output.amount');
  switch (type) {
    case OUTPUT_TREASURY:
      return { type, amount };
    case OUTPUT_BASIC:
      return {
        type,
        amount,
        nativeTokens: readNativeTokens(r, 'output.nativeTokens'),
        unlockConditions: readUnlockConditions(r, 'output.unlockConditions', type, B.unlockConditions),
        features: readFeatures(r, 'output.features', type, false, B.features),
      };
    case OUTPUT_ALIAS:
      return {
        type,
        amount,
        nativeTokens: readNativeTokens(r, 'output.nativeTokens'),
        aliasId: r.fixed(ID_LENGTH, 'output.aliasId'),
        stateIndex: r.u32('output.stateIndex'),
        stateMetadata: r.prefixed(
          2,
          'output.stateMetadata',
          LIMITS.aliasStateMetadata.min,
          LIMITS.aliasStateMetadata.max,
        ),
        foundryCounter: r.u32('output.foundryCounter'),
        unlockConditions: readUnlockConditions(r, 'output.unlockConditions', type, A.unlockConditions),
        features: readFeatures(r, 'output.features', type, false, A.features),
        immutableFeatures: readFeatures(r, 'output.immutableFeatures', type, true, A.immutableFeatures),
      };
    case OUTPUT_FOUNDRY:
      return {
        type,
        amount,
        nativeTokens: readNativeTokens(r, 'output.nativeTokens'),
        serialNumber: r.u32('output.serialNumber'),
        tokenScheme: readTokenScheme(r, 'output.tokenScheme'),
        unlockConditions: readUnlockConditions(r, 'output.unlockConditions', type, F.unlockConditions),
        features: readFeatures(r, 'output.features', type, false, F.features),
        immutableFeatures: readFeatures(r, 'output.immutableFeatures', type, true, F.immutableFeatures),
      };
    default:
      return {
        type: OUTPUT_NFT,
        amount,
        nativeTokens: readNativeTokens(r, 'output.nativeTokens'),
        nftId: r.fixed(ID_LENGTH, 'output.nftId'),
        unlockConditions: readUnlockConditions(r, 'output.unlockConditions', OUTPUT_NFT, N.unlockConditions),
        features: readFeatures(r, 'output.features', OUTPUT_NFT, false, N.features),
        immutableFeatures: readFeatures(r, 'output.immutableFeatures', OUTPUT_NFT, true, N.immutableFeatures),
      };
  }
}

export function writeOutput(w: ByteWriter, o: Output): void {
  w.u8(o.type);
  w.u64(o.amount);
  switch (o.type) {
    case OUTPUT_TREASURY:
      return;
    case OUTPUT_BASIC:
      writeNativeTokens(w, o.nativeTokens);
      break;
    case OUTPUT_ALIAS:
      writeNativeTokens(w, o.nativeTokens);
      writeFixed(w, o.aliasId, ID_LENGTH, 'alias ID');
      w.u32(o.stateIndex);
      writePrefixed(w, o.stateMetadata, 2, 'alias state metadata');
      w.u32(o.foundryCounter);
      break;
    case OUTPUT_FOUNDRY:
      writeNativeTokens(w, o.nativeTokens);
      w.u32(o.serialNumber);
      writeTokenScheme(w, o.tokenScheme);
      break;
    case OUTPUT_NFT:
      writeNativeTokens(w, o.nativeTokens);
      writeFixed(w, o.nftId, ID_LENGTH, 'NFT ID');
      break;
    default:
      throw new RangeError(`Cannot encode output: unknown type ${String((o as Output).type)}`);
  }
  // Every kind but treasury ends with its lists; all but basic carry immutable features.
  writeUnlockConditions(w, o.unlockConditions);
  writeFeatures(w, o.features);
  if (o.type !== OUTPUT_BASIC) writeFeatures(w, o.immutableFeatures);
}

export function encodeOutput(o: Output): Uint8Array {
  return encodeWith(writeOutput, o);
}

/** Serialized length of an output (for the storage deposit), without keeping the bytes. */
export function outputLength(o: Output): number {
  return encodedLength(writeOutput, o);
}

/** Any output kind (2-6), strict. */
export function decodeOutput(bytes: Uint8Array): Output {
  return decodeWhole(bytes, 'output', (r) => readOutput(r, 'output'));
}

/** An output a transaction essence may carry (3-6). */
export function decodeCommonOutput(bytes: Uint8Array): CommonOutput {
  return decodeWhole(bytes, 'output', (r) => readOutput(r, 'output', 'essence') as CommonOutput);
}

export function readTreasuryOutput(r: ByteReader, field: string): TreasuryOutput {
  return readOutput(r, field, 'treasury') as TreasuryOutput;
}
