/**
 * Committee acceptance and confirmation of v3 blocks (the node's model of iota-core's threshold block gadget).
 *
 * Seats: the committee accounts of the genesis, numbered 0..n-1 (at most 64). Threshold t = floor(2n/3) + 1, the
 * smallest number of seats that is MORE than two thirds of n. Only blocks whose issuer holds a seat vote.
 *
 * Past cone of a block Y: Y and everything reachable from it through strong parents.
 *
 *  * witnesses(B) = seats s that issued a block Y with B in Y's past cone. B is ACCEPTED once |witnesses(B)| >= t.
 *  * ratifiers(B) = seats s that issued a block Y with B in Y's strict past cone where B was already accepted
 *    before Y was processed ("Y saw B's acceptance"). B is CONFIRMED once |ratifiers(B)| >= t.
 *
 * So a block is accepted when more than two thirds of the seats approve it, and confirmed when that acceptance is
 * itself approved by more than two thirds. Both sets only grow, and both are closed towards the past: whatever a
 * seat witnesses or ratifies, it also witnesses / ratifies in the block's (accepted) past cone. `processVote` uses
 * this to stop a walk at a block that already holds the voting seat: every (block, seat) pair is marked at most
 * once per set, so the total marking work is bounded by blocks x seats. The only repeated work is the ratification
 * walk passing through the not-yet-accepted part of the voter's past cone (the recent blocks) to reach the accepted
 * blocks behind it; it never walks into accepted history a seat has already ratified.
 *
 * The ratification walk runs BEFORE the witness walk of the same vote: a vote never ratifies an acceptance it
 * causes itself. With one seat this means: the validator's block V1 accepts its past cone, the next block V2
 * confirms it.
 */

/** The per-block state the gadget reads and updates. */
export interface VoteBlockV3 {
  /** Strong parents (keys of the same map); unknown keys (the genesis root) are skipped. */
  readonly parents: readonly string[];
  /** Seat index of the issuer, or -1 when the issuer holds no seat. */
  readonly seat: number;
  witnesses: bigint;
  ratifiers: bigint;
  accepted: boolean;
  confirmed: boolean;
}

export interface VoteOutcomeV3 {
  /** Blocks that became accepted by this vote, in walk order. */
  accepted: string[];
  /** Blocks that became confirmed by this vote, in walk order (depth-first from the voting block's parents). */
  confirmed: string[];
  /** Every block whose state changed (to persist). */
  changed: Set<string>;
}

export const MAX_SEATS_V3 = 64;

/** The number of seats that is more than two thirds of `seats`. */
export function committeeThresholdV3(seats: number): number {
  if (!Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS_V3)
    throw new RangeError(`committee size must be 1..${MAX_SEATS_V3}, got ${seats}`);
  return Math.floor((2 * seats) / 3) + 1;
}

/** Number of set bits. */
export function seatCount(bits: bigint): number {
  let n = 0;
  for (let b = bits; b > 0n; b &= b - 1n) n++;
  return n;
}

/**
 * Applies the vote of block `voterKey` (already in `blocks`, with its parents) to its past cone and reports what
 * became accepted or confirmed. A block without a seat changes nothing. Call once per block, in attach order.
 */
export function processVoteV3(
  voterKey: string,
  blocks: ReadonlyMap<string, VoteBlockV3>,
  seats: number,
): VoteOutcomeV3 {
  const threshold = committeeThresholdV3(seats);
  const out: VoteOutcomeV3 = { accepted: [], confirmed: [], changed: new Set() };
  const voter = blocks.get(voterKey);
  if (voter === undefined) throw new RangeError(`unknown voting block ${voterKey}`);
  if (voter.seat < 0) return out;
  if (voter.seat >= seats) throw new RangeError(`seat ${voter.seat} is outside the committee of ${seats}`);
  const bit = 1n << BigInt(voter.seat);

  // 1. Ratification: accepted blocks in the strict past cone (acceptance as it was before this vote). The walk
  //    passes through not-yet-accepted blocks (each once per vote) to reach the accepted ones behind them.
  const stack: string[] = [...voter.parents].reverse();
  const passed = new Set<string>();
  while (stack.length > 0) {
    const key = stack.pop()!;
    const b = blocks.get(key);
    if (b === undefined || b.confirmed || (b.ratifiers & bit) !== 0n) continue;
    if (!b.accepted) {
      if (passed.has(key)) continue;
      passed.add(key);
      for (let i = b.parents.length - 1; i >= 0; i--) stack.push(b.parents[i]!);
      continue;
    }
    b.ratifiers |= bit;
    out.changed.add(key);
    if (seatCount(b.ratifiers) >= threshold) {
      b.confirmed = true;
      out.confirmed.push(key);
    }
    for (let i = b.parents.length - 1; i >= 0; i--) stack.push(b.parents[i]!);
  }

  // 2. Witnessing: the whole past cone including the voting block.
  stack.push(voterKey);
  while (stack.length > 0) {
    const key = stack.pop()!;
    const b = blocks.get(key);
    if (b === undefined || (b.witnesses & bit) !== 0n) continue;
    b.witnesses |= bit;
    out.changed.add(key);
    if (!b.accepted && seatCount(b.witnesses) >= threshold) {
      b.accepted = true;
      out.accepted.push(key);
    }
    for (let i = b.parents.length - 1; i >= 0; i--) stack.push(b.parents[i]!);
  }
  return out;
}
