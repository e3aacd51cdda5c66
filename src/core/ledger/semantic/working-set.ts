/** Everything the semantic steps share, computed once per transaction (iota.go's SemValiContextWorkingSet). */
import { equalBytes, toHex0x } from '../../bytes.ts';
import { essenceHash } from '../../ids/of-model.ts';
import { outputId } from '../../ids/output-id.ts';
import type { TransactionPayload } from '../../model/payload.ts';
import { inputChain, isChainOutput, outputChain, type ChainEntry } from './chains.ts';
import { UnlockedIdentities } from './identities.ts';
import type { SemanticContext, SemanticInput } from './types.ts';

export interface WorkingSet {
  tx: TransactionPayload;
  inputs: SemanticInput[];
  /** The confirming milestone's timestamp (Unix seconds). */
  now: number;
  /** BLAKE2b-256 of the serialized essence: what every signature unlock signs. */
  essenceHash: Uint8Array;
  /** Chains consumed, by chain key (implicit IDs resolved). */
  inChains: Map<string, ChainEntry>;
  /** Chains on the output side that carry an explicit ID (every foundry; aliases/NFTs with a non-zero ID). */
  outChains: Map<string, ChainEntry>;
  unlocked: UnlockedIdentities;
  /** Native token sums by token ID hex, filled by the native token step (the foundry rules read them). */
  inTokens: Map<string, bigint>;
  outTokens: Map<string, bigint>;
}

/** Throws RangeError when the resolved inputs do not belong to the essence (a caller mistake, not a conflict). */
function checkInputsMatch(tx: TransactionPayload, inputs: SemanticInput[]): void {
  const refs = tx.essence.inputs;
  if (inputs.length !== refs.length) {
    throw new RangeError(
      `validateTransactionSemantics: ${inputs.length} resolved inputs for an essence with ${refs.length} inputs`,
    );
  }
  for (let i = 0; i < refs.length; i++) {
    const expected = outputId(refs[i]!.transactionId, refs[i]!.transactionOutputIndex);
    if (!equalBytes(expected, inputs[i]!.outputId)) {
      throw new RangeError(
        `validateTransactionSemantics: resolved input ${i} is ` +
          `${toHex0x(inputs[i]!.outputId)}, the essence references ${toHex0x(expected)}`,
      );
    }
  }
}

export function buildWorkingSet(tx: TransactionPayload, inputs: SemanticInput[], ctx: SemanticContext): WorkingSet {
  checkInputsMatch(tx, inputs);
  const inChains = new Map<string, ChainEntry>();
  inputs.forEach((input, i) => {
    if (isChainOutput(input.output)) {
      const c = inputChain(input.output, input.outputId, i);
      inChains.set(c.key, c);
    }
  });
  const outChains = new Map<string, ChainEntry>();
  tx.essence.outputs.forEach((output, i) => {
    if (!isChainOutput(output)) return;
    const c = outputChain(output, i);
    if (c) outChains.set(c.key, c);
  });
  return {
    tx,
    inputs,
    now: ctx.milestoneTimestamp,
    essenceHash: essenceHash(tx.essence),
    inChains,
    outChains,
    unlocked: new UnlockedIdentities(),
    inTokens: new Map(),
    outTokens: new Map(),
  };
}
