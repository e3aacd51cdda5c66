/**
 * Step 7 (TIP-18 chain constraints, iota.go `TxSemanticSTVFOnChains`), all conflict 12:
 * every consumed chain is either transitioned (same chain ID on the output side) or destroyed; then every chain on the
 * output side that was not consumed is a creation, which for an alias/NFT requires a zero ID (so every non-zero ID on
 * the output side comes from an input, explicitly or as the implicit ID of a zero-ID input).
 */
import { isZero } from '../../bytes.ts';
import {
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  type AliasOutput,
  type FoundryOutput,
  type NftOutput,
} from '../../model/output.ts';
import { CONFLICT } from '../conflict.ts';
import { aliasGenesisProblem, aliasTransitionProblem } from './alias.ts';
import { describeChain, isChainOutput, outputChain, type ChainEntry, type ChainOutput } from './chains.ts';
import { foundryDestructionProblem, foundryGenesisProblem, foundryTransitionProblem } from './foundry.ts';
import { nftGenesisProblem, nftTransitionProblem } from './nft.ts';
import { conflict, type StepResult } from './result.ts';
import type { WorkingSet } from './working-set.ts';

function transitionProblem(ws: WorkingSet, cur: ChainOutput, next: ChainOutput): string | undefined {
  // Chain keys encode the output kind, so `next` has the same type as `cur`.
  if (cur.type === OUTPUT_ALIAS) return aliasTransitionProblem(ws, cur, next as AliasOutput);
  if (cur.type === OUTPUT_FOUNDRY) return foundryTransitionProblem(ws, cur, next as FoundryOutput);
  return nftTransitionProblem(cur, next as NftOutput);
}

function genesisProblem(ws: WorkingSet, next: ChainOutput): string | undefined {
  if (next.type === OUTPUT_FOUNDRY) return foundryGenesisProblem(ws, next);
  const id = next.type === OUTPUT_ALIAS ? next.aliasId : next.nftId;
  if (!isZero(id)) return 'its ID is not zero although no input carries this chain';
  return next.type === OUTPUT_ALIAS ? aliasGenesisProblem(ws, next) : nftGenesisProblem(ws, next);
}

function invalid(where: string, chain: string, problem: string): StepResult {
  return conflict(CONFLICT.invalidChainStateTransition, `${where}: ${chain}: ${problem}`);
}

export function checkChainTransitions(ws: WorkingSet): StepResult {
  for (const cur of ws.inChains.values()) {
    const next = ws.outChains.get(cur.key);
    if (next) {
      const problem = transitionProblem(ws, cur.output, next.output);
      if (problem) return invalid(`input ${cur.index} to output ${next.index}`, describeChain(cur), problem);
    } else if (cur.output.type === OUTPUT_FOUNDRY) {
      const problem = foundryDestructionProblem(ws, cur.output);
      if (problem) return invalid(`input ${cur.index}`, describeChain(cur), `destroyed: ${problem}`);
    }
  }
  const outputs = ws.tx.essence.outputs;
  for (let j = 0; j < outputs.length; j++) {
    const output = outputs[j]!;
    if (!isChainOutput(output)) continue;
    const chain: ChainEntry | undefined = outputChain(output, j);
    if (chain && ws.inChains.has(chain.key)) continue;
    const problem = genesisProblem(ws, output);
    if (problem)
      return invalid(
        `output ${j}`,
        chain ? describeChain(chain) : `new ${output.type === OUTPUT_ALIAS ? 'alias' : 'NFT'}`,
        problem,
      );
  }
  return undefined;
}
