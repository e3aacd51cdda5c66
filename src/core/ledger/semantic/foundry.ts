/**
 * Foundry chain transitions (TIP-18 "Foundry Output", iota.go `FoundryOutput` STVF). Serial number, token scheme type
 * and alias never change implicitly: a change gives another foundry ID (destruction of one, creation of another).
 */
import { toHex } from '../../bytes.ts';
import { ADDRESS_ALIAS } from '../../model/address.ts';
import { OUTPUT_FOUNDRY, type AliasOutput, type FoundryOutput } from '../../model/output.ts';
import { addressKey } from './describe.ts';
import { foundryAliasId, foundryIdOf } from './chains.ts';
import { featuresEqual } from './equality.ts';
import { schemeDestructionProblem, schemeGenesisProblem, schemeTransitionProblem } from './token-scheme.ts';
import type { WorkingSet } from './working-set.ts';

function tokenSums(ws: WorkingSet, f: FoundryOutput): { inSum: bigint; outSum: bigint } {
  const id = toHex(foundryIdOf(f));
  return { inSum: ws.inTokens.get(id) ?? 0n, outSum: ws.outTokens.get(id) ?? 0n };
}

/** New foundries of one alias must be numbered in (old counter, new counter], ascending in output order. */
function serialNumberProblem(
  ws: WorkingSet,
  f: FoundryOutput,
  inAlias: AliasOutput,
  outAlias: AliasOutput,
): string | undefined {
  if (f.serialNumber <= inAlias.foundryCounter || f.serialNumber > outAlias.foundryCounter) {
    return (
      `serial number ${f.serialNumber} of a new foundry is outside the ` +
      `alias's new range (${inAlias.foundryCounter}, ${outAlias.foundryCounter}]`
    );
  }
  const ownId = toHex(foundryIdOf(f));
  const aliasId = toHex(foundryAliasId(f));
  const outputs = ws.tx.essence.outputs;
  for (let j = 0; j < outputs.length; j++) {
    const other = outputs[j]!;
    if (other.type !== OUTPUT_FOUNDRY || toHex(foundryAliasId(other)) !== aliasId) continue;
    const otherId = toHex(foundryIdOf(other));
    if (ws.inChains.has(otherId)) continue;
    if (otherId === ownId) break;
    if (other.serialNumber >= f.serialNumber) {
      return (
        `new foundry at output ${j} has serial number ` +
        `${other.serialNumber}, not below ${f.serialNumber} of a later new foundry`
      );
    }
  }
  return undefined;
}

export function foundryGenesisProblem(ws: WorkingSet, f: FoundryOutput): string | undefined {
  const scheme = schemeGenesisProblem(f.tokenScheme, tokenSums(ws, f).outSum);
  if (scheme) return scheme;
  const aliasKey = addressKey({ type: ADDRESS_ALIAS, aliasId: foundryAliasId(f) });
  const inAlias = ws.inChains.get(aliasKey);
  if (!inAlias) return 'the controlling alias is not consumed by this transaction';
  const outAlias = ws.outChains.get(aliasKey);
  if (!outAlias) return 'the controlling alias is not on the output side of this transaction';
  return serialNumberProblem(ws, f, inAlias.output as AliasOutput, outAlias.output as AliasOutput);
}

export function foundryTransitionProblem(ws: WorkingSet, cur: FoundryOutput, next: FoundryOutput): string | undefined {
  if (!featuresEqual(cur.immutableFeatures, next.immutableFeatures)) return 'immutable features changed';
  const { inSum, outSum } = tokenSums(ws, cur);
  return schemeTransitionProblem(cur.tokenScheme, next.tokenScheme, inSum, outSum);
}

export function foundryDestructionProblem(ws: WorkingSet, cur: FoundryOutput): string | undefined {
  const { inSum, outSum } = tokenSums(ws, cur);
  return schemeDestructionProblem(cur.tokenScheme, inSum, outSum);
}
