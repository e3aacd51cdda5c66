/**
 * Watching a transaction's states with the IOTA 2.0 SDK (sdk-states.test.ts, sdk-double-spend.test.ts): each poll
 * reads, in this order, `getTransactionMetadata`, `getBlockMetadata` of its block and `getIncludedBlockMetadata`
 * (undefined while it answers 404). The SDK keeps only `blockId` and `blockState` of a block's metadata (iota-sdk 2.0
 * `BlockMetadataResponse`, as iota.go's): the `transactionMetadata` the node adds there does not reach the caller.
 */
import { expect } from 'chai';
import type { BlockMetadataResponse, Client, TransactionMetadataResponse } from '@iota/sdk-wasm-v2/node';

export const TX_ORDER = ['pending', 'accepted', 'committed', 'finalized'] as const;
export const BLOCK_ORDER = ['pending', 'accepted', 'confirmed', 'finalized'] as const;

export interface StatePoll {
  /** When the poll started, ms after the block was posted. */
  atMs: number;
  tx: TransactionMetadataResponse;
  block: BlockMetadataResponse;
  included: BlockMetadataResponse | undefined;
}

/** `call`'s answer, or undefined when the SDK reports a 404 ("The requested data ... was not found"). */
export async function unless404<T>(call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (e) {
    if (/was not found/.test((e as Error).message)) return undefined;
    throw e;
  }
}

/**
 * Polls transaction `txId` and its block `blockId` every `everyMs` from now until `done` says so; fails when that
 * takes longer than `timeoutMs`. `postedAt`: Date.now() when the block was posted.
 */
export async function watchStates(
  client: Client,
  sent: { blockId: string; txId: string },
  postedAt: number,
  done: (p: StatePoll) => boolean,
  timeoutMs: number,
  everyMs = 20,
): Promise<StatePoll[]> {
  const polls: StatePoll[] = [];
  for (;;) {
    const atMs = Date.now() - postedAt;
    const tx = await client.getTransactionMetadata(sent.txId);
    const block = await client.getBlockMetadata(sent.blockId);
    const included = await unless404(() => client.getIncludedBlockMetadata(sent.txId));
    const p = { atMs, tx, block, included };
    polls.push(p);
    if (done(p)) return polls;
    if (atMs > timeoutMs)
      throw new Error(`not done within ${timeoutMs} ms of posting; last poll: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The distinct states one after the other, each with when it was first read (ms after posting). */
export function transitions(
  polls: readonly StatePoll[],
  pick: (p: StatePoll) => string | undefined,
): [string, number][] {
  const out: [string, number][] = [];
  for (const p of polls) {
    const s = pick(p) ?? 'none';
    if (out.at(-1)?.[0] !== s) out.push([s, p.atMs]);
  }
  return out;
}

/** Every state is in `order` and none comes after a later one of `order` (states may be skipped). */
export function expectInOrder(seen: readonly [string, number][], order: readonly string[], what: string): void {
  const text = seen.map(([s, t]) => `${s}@${t}ms`).join(' -> ');
  let at = -1;
  for (const [s] of seen) {
    const i = order.indexOf(s);
    expect(i, `${what}: ${s} is not one of ${order.join(', ')} (${text})`).to.be.at.least(0);
    expect(i, `${what} went back to ${s} (${text})`).to.be.at.least(at);
    at = i;
  }
}
