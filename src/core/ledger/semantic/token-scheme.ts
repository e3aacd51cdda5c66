/**
 * Simple Token Scheme transitions (TIP-18 foundry rules as iota.go enforces them; `delta` = output sum − input sum of
 * the foundry's token in this transaction). Each function returns why the transition is invalid, or undefined.
 */
import type { SimpleTokenScheme } from '../../model/output.ts';

/** Creation: melted = 0 and minted = the tokens of this ID on the output side. */
export function schemeGenesisProblem(s: SimpleTokenScheme, outSum: bigint): string | undefined {
  if (s.meltedTokens !== 0n) return `melted tokens must be 0 on creation, got ${s.meltedTokens}`;
  if (s.mintedTokens !== outSum)
    return `minted tokens ${s.mintedTokens} must equal the ${outSum} tokens on the output side on creation`;
  return undefined;
}

/** Destruction: minted + delta must equal melted (everything minted is melted or burned here). */
export function schemeDestructionProblem(s: SimpleTokenScheme, inSum: bigint, outSum: bigint): string | undefined {
  const delta = outSum - inSum;
  if (s.mintedTokens + delta !== s.meltedTokens) {
    return `destruction needs minted (${s.mintedTokens}) + token delta (${delta}) = melted (${s.meltedTokens})`;
  }
  return undefined;
}

/**
 * State change: maximum supply fixed; minted/melted never decrease; a positive delta (mint) equals the minted increase
 * with melted unchanged; a negative delta (melt/burn) keeps minted and raises melted by at most |delta|; a zero delta
 * keeps both counters (iota.go's rule, stricter than TIP-18's wording).
 */
export function schemeTransitionProblem(
  cur: SimpleTokenScheme,
  next: SimpleTokenScheme,
  inSum: bigint,
  outSum: bigint,
): string | undefined {
  if (cur.maximumSupply !== next.maximumSupply)
    return `maximum supply changed from ${cur.maximumSupply} to ${next.maximumSupply}`;
  if (next.mintedTokens < cur.mintedTokens)
    return `minted tokens decreased from ${cur.mintedTokens} to ${next.mintedTokens}`;
  if (next.meltedTokens < cur.meltedTokens)
    return `melted tokens decreased from ${cur.meltedTokens} to ${next.meltedTokens}`;
  const delta = outSum - inSum;
  const mintedDelta = next.mintedTokens - cur.mintedTokens;
  const meltedDelta = next.meltedTokens - cur.meltedTokens;
  if (delta > 0n) {
    if (mintedDelta !== delta) return `token delta +${delta} does not equal the minted increase ${mintedDelta}`;
    if (meltedDelta !== 0n) return `melted tokens changed by ${meltedDelta} while minting`;
  } else if (delta < 0n) {
    if (meltedDelta > -delta) return `melted increase ${meltedDelta} exceeds the ${-delta} tokens removed`;
    if (mintedDelta !== 0n) return `minted tokens changed by ${mintedDelta} while melting or burning`;
  } else if (mintedDelta !== 0n || meltedDelta !== 0n) {
    return (
      `minted/melted changed (${cur.mintedTokens}/${cur.meltedTokens} ` +
      `to ${next.mintedTokens}/${next.meltedTokens}) without a token delta`
    );
  }
  return undefined;
}
