/**
 * The checker's milestone part: for each index of a range, every node's milestone ID (computed from the milestone
 * payload it serves at `/milestones/by-index/{i}`) and its UTXO changes (`.../utxo-changes`, created and consumed
 * output IDs, order aside) must be the same. A node that does not serve the index counts as divergent.
 */
import { toHex0x } from '../../src/core/bytes.ts';
import { milestoneIdOf } from '../../src/core/ids/index.ts';
import { payloadFromJson } from '../../src/core/json/index.ts';
import type { MilestonePayload } from '../../src/core/model/index.ts';
import type { Cluster } from './cluster.ts';
import { getJson } from './client.ts';

export interface MilestoneComparison {
  compared: number;
  /** Indexes whose milestone ID differs between nodes (or a node lacks). */
  divergentIds: number[];
  /** Indexes whose UTXO changes differ between nodes (or a node lacks). */
  divergentUtxo: number[];
}

export const emptyComparison = (): MilestoneComparison => ({ compared: 0, divergentIds: [], divergentUtxo: [] });

async function milestoneId(base: string, index: number): Promise<string> {
  const r = await getJson(base, `/milestones/by-index/${index}`);
  if (r.status !== 200) return `status ${r.status}`;
  return toHex0x(milestoneIdOf(payloadFromJson(r.body) as MilestonePayload));
}

async function utxoChanges(base: string, index: number): Promise<string> {
  const r = await getJson(base, `/milestones/by-index/${index}/utxo-changes`);
  if (r.status !== 200) return `status ${r.status}`;
  const sorted = (ids: string[]): string[] => [...ids].sort();
  return JSON.stringify([r.body.index, sorted(r.body.createdOutputs), sorted(r.body.consumedOutputs)]);
}

/** Compares indexes `from`..`to` on every node, `parallel` indexes at a time; adds to `into`. */
export async function compareMilestones(
  cluster: Cluster,
  from: number,
  to: number,
  into: MilestoneComparison = emptyComparison(),
  parallel = 4,
): Promise<MilestoneComparison> {
  let next = from;
  const worker = async (): Promise<void> => {
    while (next <= to) {
      const i = next++;
      const [ids, changes] = await Promise.all([
        Promise.all(cluster.nodes.map((n) => milestoneId(n.base, i))),
        Promise.all(cluster.nodes.map((n) => utxoChanges(n.base, i))),
      ]);
      into.compared++;
      if (ids.some((id) => id !== ids[0] || id.startsWith('status'))) into.divergentIds.push(i);
      if (changes.some((c) => c !== changes[0] || c.startsWith('status'))) into.divergentUtxo.push(i);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return into;
}
