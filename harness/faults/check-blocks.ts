/**
 * The checker's block part, after the last heal and convergence. Every acknowledged block's metadata is read on every
 * node, then classified:
 * - referenced: referenced by a milestone, with the same metadata (referencedByMilestoneIndex, ledger inclusion
 *   state, conflict reason) on every node;
 * - divergent: stored everywhere and referenced, but the metadata differs between nodes;
 * - lost: stored on no node at all, or referenced on some node and missing on another;
 * - orphaned ("acknowledged but orphaned"): referenced by no milestone on any node (the checker waits until the
 *   ledger is past max depth for every acknowledged block, so none can be referenced any more), stored on every node
 *   or only on some (gossip never reached the others).
 * Each double spend with both sides acknowledged must be decided the same everywhere: exactly one side included.
 */
import type { Cluster } from './cluster.ts';
import { getJson } from './client.ts';
import type { Ack, DoubleSpend } from './journal.ts';

export interface Meta {
  referenced?: number;
  state?: string;
  conflict?: number;
  solid: boolean;
  /** Unreferenced and below max depth (the node's tip selection leaves it out). */
  reattach: boolean;
}

/** Per block ID, each node's metadata (undefined: the node does not have the block). */
export type Metadata = Map<string, (Meta | undefined)[]>;

async function metaOf(base: string, id: string): Promise<Meta | undefined> {
  for (let attempt = 0; ; attempt++) {
    const r = await getJson(base, `/blocks/${id}/metadata`);
    if (r.status === 200)
      return {
        referenced: r.body.referencedByMilestoneIndex,
        state: r.body.ledgerInclusionState,
        conflict: r.body.conflictReason,
        solid: r.body.isSolid === true,
        reattach: r.body.shouldReattach === true,
      };
    if (r.status === 404 || attempt === 3) return undefined;
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** Reads the metadata of `ids` on every node, `parallel` blocks at a time. */
export async function readMetadata(cluster: Cluster, ids: Iterable<string>, parallel = 8): Promise<Metadata> {
  const unique = [...new Set(ids)];
  const out: Metadata = new Map();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < unique.length) {
      const id = unique[next++]!;
      out.set(id, await Promise.all(cluster.nodes.map((n) => metaOf(n.base, id))));
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return out;
}

export interface AckVerdicts {
  total: number;
  referenced: number;
  divergent: Ack[];
  lost: Ack[];
  /** Never referenced: stored on every node, or on some only. */
  orphanedEverywhere: Ack[];
  orphanedLocal: Ack[];
}

const same = (a: Meta, b: Meta): boolean =>
  a.referenced === b.referenced && a.state === b.state && a.conflict === b.conflict;

export function classifyAcks(acks: readonly Ack[], meta: Metadata): AckVerdicts {
  const v: AckVerdicts = {
    total: acks.length,
    referenced: 0,
    divergent: [],
    lost: [],
    orphanedEverywhere: [],
    orphanedLocal: [],
  };
  for (const a of acks) {
    const row = meta.get(a.blockId) ?? [];
    const stored = row.filter((m): m is Meta => m !== undefined);
    const referenced = stored.filter((m) => m.referenced !== undefined);
    const everywhere = stored.length === row.length && row.length > 0;
    if (stored.length === 0) v.lost.push(a);
    else if (referenced.length === 0) (everywhere ? v.orphanedEverywhere : v.orphanedLocal).push(a);
    else if (!everywhere) v.lost.push(a);
    else if (stored.every((m) => same(m, stored[0]!))) v.referenced++;
    else v.divergent.push(a);
  }
  return v;
}

export interface DoubleVerdicts {
  tried: number;
  /** Both sides acknowledged. */
  bothAcknowledged: number;
  /** Of those: exactly one side included, the same on every node. */
  decided: number;
  /** Of those: no side included on any node (neither referenced: both orphaned). */
  undecided: number;
  /** One side acknowledged, the other refused or unanswered. */
  oneSided: number;
  /** Both sides included somewhere, or nodes that disagree. */
  violations: string[];
}

export function judgeDoubles(doubles: readonly DoubleSpend[], meta: Metadata): DoubleVerdicts {
  const v: DoubleVerdicts = {
    tried: doubles.length,
    bothAcknowledged: 0,
    decided: 0,
    undecided: 0,
    oneSided: 0,
    violations: [],
  };
  for (const d of doubles) {
    const [a, b] = d.blockIds;
    if (a === undefined || b === undefined) {
      if (a !== undefined || b !== undefined) v.oneSided++;
      continue;
    }
    v.bothAcknowledged++;
    const ra = meta.get(a) ?? [];
    const rb = meta.get(b) ?? [];
    const verdicts = ra.map((m, i) => {
      const ia = m?.state === 'included';
      const ib = rb[i]?.state === 'included';
      return ia && ib ? 'both' : ia ? `via ${d.nodes[0]}` : ib ? `via ${d.nodes[1]}` : 'none';
    });
    const what = `cycle ${d.cycle} (${d.fault}): included per node: ${verdicts.join(' / ')}`;
    if (verdicts.includes('both') || new Set(verdicts).size !== 1) v.violations.push(what);
    else if (verdicts[0] === 'none') v.undecided++;
    else v.decided++;
  }
  return v;
}
