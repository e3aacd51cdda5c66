/**
 * Tip selection for auto-filled parents and GET /tips (node-behavior §5.3). Without milestones yet every stored tip
 * is non-lazy, so the pool is the `tips` table: up to 4 distinct tips drawn at random (Hornet's count; the protocol
 * allows 8), returned sorted as the parents rule requires. An empty pool is NO_TIPS (UNAVAILABLE, 503, DECISIONS.md).
 */
import { compareBytes } from '../core/bytes.ts';
import type { NodeStore } from '../core/store/index.ts';
import { NodeError } from '../grpc/status.ts';

export const TIPS_TO_SELECT = 4;

export async function selectTips(store: NodeStore, random: () => number = Math.random, count = TIPS_TO_SELECT): Promise<Uint8Array[]> {
  const pool = await store.tips();
  if (pool.length === 0) throw new NodeError('NO_TIPS', 'no tips available: attaching not possible');
  // Partial Fisher-Yates: the first `n` entries become a uniform random sample without replacement.
  const n = Math.min(count, pool.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    const t = pool[i]!;
    pool[i] = pool[j]!;
    pool[j] = t;
  }
  return pool.slice(0, n).sort(compareBytes);
}
