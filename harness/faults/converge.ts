/**
 * Convergence after a heal: the coordinator's latest milestone index right after the heal is the target, and each
 * node's catch-up time runs from the heal until its ledger (confirmed milestone) reaches that target, polled on its
 * `/info` every 100 ms. `settled` waits until every node confirmed at least a given index.
 */
import { waitFor } from '../wait.ts';
import type { Cluster } from './cluster.ts';
import { milestones } from './client.ts';

export interface CatchUp {
  /** The coordinator's latest milestone index after the heal. */
  target: number;
  /** Each node's catch-up time in ms (Infinity: not within the timeout). */
  ms: Map<string, number>;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export async function catchUp(cluster: Cluster, healedAt: number, timeoutMs: number): Promise<CatchUp> {
  const until = healedAt + timeoutMs;
  let target = -1;
  while (target < 0 && Date.now() < until) {
    const m = await milestones(cluster.coordinator.base);
    if (m) target = m.latest;
    else await pause(100);
  }
  const ms = new Map<string, number>();
  await Promise.all(
    cluster.nodes.map(async (n) => {
      for (;;) {
        const m = await milestones(n.base);
        if (target >= 0 && m && m.confirmed >= target) {
          ms.set(n.name, Date.now() - healedAt);
          return;
        }
        if (Date.now() > until) {
          ms.set(n.name, Infinity);
          return;
        }
        await pause(100);
      }
    }),
  );
  return { target, ms };
}

/** Waits until every node confirmed milestone `index`; returns the lowest confirmed index then. */
export async function settled(cluster: Cluster, index: number, timeoutMs: number): Promise<number> {
  return waitFor(
    `every node at milestone ${index}`,
    async () => {
      const ms = await Promise.all(cluster.nodes.map((n) => milestones(n.base)));
      if (ms.some((m) => m === undefined || m.confirmed < index)) return undefined;
      return Math.min(...ms.map((m) => m!.confirmed));
    },
    timeoutMs,
    200,
  );
}

/** The coordinator's latest milestone index (waits for an answer). */
export async function latestIndex(cluster: Cluster, timeoutMs = 20000): Promise<number> {
  return waitFor(
    'the coordinator to answer',
    async () => (await milestones(cluster.coordinator.base))?.latest,
    timeoutMs,
    100,
  );
}
