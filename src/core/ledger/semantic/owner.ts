/**
 * Who must unlock a consumed output (TIP-18, iota.go `identToUnlock` + expiration):
 * - Basic / NFT: the Address unlock condition, or the Expiration's return address once `now >= unixTime`;
 * - Alias: the state controller when the alias is state-transitioned (state index + 1), the governor when it is
 *   governance-transitioned (same state index) or destroyed; any other state index is an invalid transition (12);
 * - Foundry: its Immutable Alias Address.
 */
import type { Address } from '../../model/address.ts';
import {
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  type AliasOutput,
  type CommonOutput,
} from '../../model/output.ts';
import { CONFLICT } from '../conflict.ts';
import { inputChain, describeChain } from './chains.ts';
import { findCondition } from './lookup.ts';
import { conflict } from './result.ts';
import type { SemanticResult } from './types.ts';
import type { WorkingSet } from './working-set.ts';

export type OwnerResult = { address: Address } | { failure: SemanticResult };

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new TypeError(`consumed output without ${what} (not syntactically valid)`);
  return value;
}

/** The state index that follows `i` (u32 arithmetic, as iota.go computes it). */
export function nextStateIndex(i: number): number {
  return (i + 1) >>> 0;
}

function aliasOwner(ws: WorkingSet, alias: AliasOutput, inputIndex: number): OwnerResult {
  const chain = inputChain(alias, ws.inputs[inputIndex]!.outputId, inputIndex);
  const next = ws.outChains.get(chain.key);
  const governor = required(findCondition(alias, UC_GOVERNOR), 'a governor').address;
  if (!next) return { address: governor };
  const nextAlias = next.output as AliasOutput;
  if (nextAlias.stateIndex === alias.stateIndex) return { address: governor };
  if (nextAlias.stateIndex === nextStateIndex(alias.stateIndex)) {
    return { address: required(findCondition(alias, UC_STATE_CONTROLLER), 'a state controller').address };
  }
  return {
    failure: conflict(
      CONFLICT.invalidChainStateTransition,
      `input ${inputIndex}: ${describeChain(chain)} goes from state index ${alias.stateIndex} to ` +
        `${nextAlias.stateIndex} in output ${next.index}; neither a state nor a governance transition`,
    ),
  };
}

export function ownerOf(ws: WorkingSet, output: CommonOutput, inputIndex: number): OwnerResult {
  let owner: OwnerResult;
  if (output.type === OUTPUT_ALIAS) owner = aliasOwner(ws, output, inputIndex);
  else if (output.type === OUTPUT_FOUNDRY)
    owner = { address: required(findCondition(output, UC_IMMUTABLE_ALIAS), 'an immutable alias address').address };
  else owner = { address: required(findCondition(output, UC_ADDRESS), 'an address unlock condition').address };
  if ('failure' in owner) return owner;
  const expiration = findCondition(output, UC_EXPIRATION);
  if (expiration && expiration.unixTime <= ws.now) return { address: expiration.returnAddress };
  return owner;
}
