/**
 * Alias chain transitions (TIP-18 "Alias Output", iota.go `AliasOutput` STVF). Destruction has no rule of its own:
 * the governor had to unlock the input (step 3).
 */
import { equalBytes, toHex } from '../../bytes.ts';
import { addressEquals } from '../../codec/address.ts';
import {
  FEATURE_METADATA,
  OUTPUT_FOUNDRY,
  UC_GOVERNOR,
  UC_STATE_CONTROLLER,
  type AliasOutput,
} from '../../model/output.ts';
import { foundryAliasId, foundryIdOf } from './chains.ts';
import { featuresEqual, nativeTokensEqual } from './equality.ts';
import { issuerProblem } from './issuer.ts';
import { findCondition, findFeature } from './lookup.ts';
import { nextStateIndex } from './owner.ts';
import type { WorkingSet } from './working-set.ts';

export function aliasGenesisProblem(ws: WorkingSet, next: AliasOutput): string | undefined {
  return issuerProblem(ws, next);
}

/** Governance transition: only controllers and (mutable) features may change. */
function governanceProblem(cur: AliasOutput, next: AliasOutput): string | undefined {
  if (cur.amount !== next.amount) return `governance transition changes the amount (${cur.amount} to ${next.amount})`;
  if (!nativeTokensEqual(cur.nativeTokens, next.nativeTokens)) return 'governance transition changes the native tokens';
  if (!equalBytes(cur.stateMetadata, next.stateMetadata)) return 'governance transition changes the state metadata';
  if (cur.foundryCounter !== next.foundryCounter) {
    return `governance transition changes the foundry counter (${cur.foundryCounter} to ${next.foundryCounter})`;
  }
  return undefined;
}

function metadataFeatureProblem(cur: AliasOutput, next: AliasOutput): string | undefined {
  const a = findFeature(cur.features, FEATURE_METADATA);
  const b = findFeature(next.features, FEATURE_METADATA);
  if (!a && !b) return undefined;
  if (!a || !b || !equalBytes(a.data, b.data)) return 'state transition changes the metadata feature';
  return undefined;
}

/** Number of foundries of `aliasId` on the output side that are not consumed (i.e. created by this tx). */
function newFoundryCount(ws: WorkingSet, aliasId: Uint8Array): number {
  let n = 0;
  for (const output of ws.tx.essence.outputs) {
    if (output.type !== OUTPUT_FOUNDRY) continue;
    if (ws.inChains.has(toHex(foundryIdOf(output)))) continue;
    if (equalBytes(foundryAliasId(output), aliasId)) n++;
  }
  return n;
}

/**
 * State transition: state index + 1, controllers and metadata feature unchanged, counter grows by the new foundries.
 */
function stateProblem(ws: WorkingSet, cur: AliasOutput, next: AliasOutput): string | undefined {
  const curState = findCondition(cur, UC_STATE_CONTROLLER)!.address;
  const curGov = findCondition(cur, UC_GOVERNOR)!.address;
  if (!addressEquals(curState, findCondition(next, UC_STATE_CONTROLLER)!.address))
    return 'state transition changes the state controller';
  if (!addressEquals(curGov, findCondition(next, UC_GOVERNOR)!.address)) return 'state transition changes the governor';
  if (next.foundryCounter < cur.foundryCounter) {
    return `state transition lowers the foundry counter (${cur.foundryCounter} to ${next.foundryCounter})`;
  }
  if (next.stateIndex !== nextStateIndex(cur.stateIndex)) {
    return `state index ${cur.stateIndex} on the input side but ${next.stateIndex} on the output side`;
  }
  const meta = metadataFeatureProblem(cur, next);
  if (meta) return meta;
  if (next.foundryCounter === cur.foundryCounter) return undefined;
  const created = newFoundryCount(ws, next.aliasId);
  const expected = next.foundryCounter - cur.foundryCounter;
  if (created !== expected)
    return `foundry counter grows by ${expected} but ${created} new foundries of this alias are created`;
  return undefined;
}

export function aliasTransitionProblem(ws: WorkingSet, cur: AliasOutput, next: AliasOutput): string | undefined {
  if (!featuresEqual(cur.immutableFeatures, next.immutableFeatures)) return 'immutable features changed';
  if (cur.stateIndex === next.stateIndex) return governanceProblem(cur, next);
  return stateProblem(ws, cur, next);
}
