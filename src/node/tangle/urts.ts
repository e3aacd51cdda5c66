/**
 * Uniform random tip selection with Hornet's tip scores (docs/protocol.md §N5.3; hornet `pkg/tipselect/urts.go`,
 * `pkg/tangle/tipscore.go`).
 *
 * Cone root indexes: for a block, YCRI / OCRI are the youngest / oldest milestone index among the "roots" of its
 * past cone — the first blocks on each path that a milestone already referenced (their referencing index) or solid
 * entry points (the genesis milestone index). Computed by a post-order walk through the unreferenced past cone,
 * memoised until the confirmed milestone index (CMI) changes (a confirmation can only turn unreferenced blocks into
 * roots, so the memo stays right between confirmations).
 *
 * Tip score against CMI, in Hornet's order: CMI − OCRI > belowMaxDepth (protocol) → below max depth (lazy, the
 * metadata says shouldReattach); CMI − YCRI > 8 → lazy (shouldPromote); CMI − OCRI > 13 → semi-lazy
 * (shouldPromote); else healthy (non-lazy).
 *
 * Selection: up to 4 distinct tips drawn uniformly at random from the non-lazy tips of the `tips` table, sorted.
 * Differences from Hornet (documented choice): the pool is the store's `tips` table (a tip leaves the pool at its
 * first child, where Hornet keeps it for up to 30 children / 3 s), and lazy tips are skipped at selection instead of
 * being evicted, so the table needs no extra writes. No non-lazy tip → NO_TIPS (503).
 */
import { compareBytes, toHex } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { META, type NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../errors.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { NetworkState } from '../network.ts';

export const URTS_DEFAULTS = Object.freeze({
  /** Hornet `maxDeltaBlockYoungestConeRootIndexToCMI`. */
  maxDeltaYcri: 8,
  /** Hornet `maxDeltaBlockOldestConeRootIndexToCMI`. */
  maxDeltaOcri: 13,
  /** Hornet selects 4 parents (hard-coded). */
  tipsToSelect: 4,
});

export type TipScore = 'healthy' | 'semiLazyOcri' | 'lazyYcri' | 'belowMaxDepth';

export interface ConeRootIndexes {
  ycri: number;
  ocri: number;
}

export interface PromoteReattach {
  shouldPromote: boolean;
  shouldReattach: boolean;
}

/** The metadata flags for a score (Hornet's `coreapi` block metadata). */
export function promoteReattach(score: TipScore): PromoteReattach {
  return { shouldPromote: score === 'lazyYcri' || score === 'semiLazyOcri', shouldReattach: score === 'belowMaxDepth' };
}

export function tipScore(cri: ConeRootIndexes, cmi: number, belowMaxDepth: number): TipScore {
  if (cmi - cri.ocri > belowMaxDepth) return 'belowMaxDepth';
  if (cmi - cri.ycri > URTS_DEFAULTS.maxDeltaYcri) return 'lazyYcri';
  if (cmi - cri.ocri > URTS_DEFAULTS.maxDeltaOcri) return 'semiLazyOcri';
  return 'healthy';
}

/** Memo entries kept at most (then it starts over): bounds memory when milestones stop coming. */
const MAX_MEMO = 200_000;

interface Frame {
  id: Uint8Array;
  key: string;
  parents: Uint8Array[];
  next: number;
  acc: ConeRootIndexes;
}

export class TipSelector {
  private memo = new Map<string, ConeRootIndexes>();
  private memoCmi = -1;

  constructor(
    private readonly store: NodeStore,
    private readonly network: NetworkState,
    private readonly protocol: ProtocolState,
  ) {}

  async confirmedMilestoneIndex(): Promise<number> {
    return (await this.store.getMeta(META.confirmedMilestoneIndex)) ?? this.network.genesisMilestone.index;
  }

  /** A block's root index if it is a root (solid entry point or referenced), else undefined. */
  private async rootIndex(id: Uint8Array): Promise<{ root: number } | { parents: Uint8Array[] }> {
    if (this.protocol.isSolidEntryPoint(id)) return { root: this.network.genesisMilestone.index };
    const md = await this.store.getBlockMetadata(id);
    if (md?.referenced) return { root: md.referenced.milestoneIndex };
    const bytes = await this.store.getBlock(id);
    // A block the node does not hold cannot be a tip's ancestor (tips are solid); count it as the oldest root.
    if (bytes === undefined || md === undefined) return { root: this.network.genesisMilestone.index };
    return { parents: decodeBlock(bytes).parents };
  }

  /** YCRI and OCRI of `blockId` against the current CMI (iterative, memoised). */
  async coneRootIndexes(blockId: Uint8Array): Promise<ConeRootIndexes> {
    // A store without a ledger never confirms anything: every block is as young as the genesis (no walk needed).
    const genesisIndex = this.network.genesisMilestone.index;
    if ((await this.store.getMeta(META.ledgerIndex)) === undefined) return { ycri: genesisIndex, ocri: genesisIndex };
    const cmi = await this.confirmedMilestoneIndex();
    if (cmi !== this.memoCmi || this.memo.size > MAX_MEMO) {
      this.memo.clear();
      this.memoCmi = cmi;
    }
    const start = await this.rootIndex(blockId);
    if ('root' in start) return { ycri: start.root, ocri: start.root };
    const cached = this.memo.get(toHex(blockId));
    if (cached) return cached;
    const stack: Frame[] = [{ id: blockId, key: toHex(blockId), parents: start.parents, next: 0, acc: { ycri: 0, ocri: Number.MAX_SAFE_INTEGER } }];
    const merge = (acc: ConeRootIndexes, v: ConeRootIndexes): void => {
      acc.ycri = Math.max(acc.ycri, v.ycri);
      acc.ocri = Math.min(acc.ocri, v.ocri);
    };
    let result: ConeRootIndexes = { ycri: 0, ocri: 0 };
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.parents.length) {
        const parent = top.parents[top.next++]!;
        const key = toHex(parent);
        const known = this.memo.get(key);
        if (known) {
          merge(top.acc, known);
          continue;
        }
        const r = await this.rootIndex(parent);
        if ('root' in r) merge(top.acc, { ycri: r.root, ocri: r.root });
        else stack.push({ id: parent, key, parents: r.parents, next: 0, acc: { ycri: 0, ocri: Number.MAX_SAFE_INTEGER } });
        continue;
      }
      stack.pop();
      if (top.acc.ocri === Number.MAX_SAFE_INTEGER) top.acc.ocri = top.acc.ycri;
      this.memo.set(top.key, top.acc);
      result = top.acc;
      const below = stack[stack.length - 1];
      if (below) merge(below.acc, top.acc);
    }
    return result;
  }

  async score(blockId: Uint8Array): Promise<TipScore> {
    const cri = await this.coneRootIndexes(blockId);
    return tipScore(cri, await this.confirmedMilestoneIndex(), this.protocol.current.belowMaxDepth);
  }

  /** The tip pool split by score. */
  async pools(): Promise<{ nonLazy: Uint8Array[]; semiLazy: Uint8Array[]; lazy: Uint8Array[] }> {
    const out = { nonLazy: [] as Uint8Array[], semiLazy: [] as Uint8Array[], lazy: [] as Uint8Array[] };
    for (const tip of await this.store.tips()) {
      const s = await this.score(tip);
      (s === 'healthy' ? out.nonLazy : s === 'semiLazyOcri' ? out.semiLazy : out.lazy).push(tip);
    }
    return out;
  }

  /**
   * Up to 4 distinct non-lazy tips, sorted; NO_TIPS when there is none. `allowSemiLazy` (GET /tips?allowSemiLazy):
   * semi-lazy tips are preferred when more than 2 exist (Hornet), to get them referenced.
   */
  async select(random: () => number = Math.random, count = URTS_DEFAULTS.tipsToSelect, allowSemiLazy = false): Promise<Uint8Array[]> {
    const { nonLazy, semiLazy } = await this.pools();
    if (allowSemiLazy && semiLazy.length > 2) return sample(semiLazy, random, count);
    if (nonLazy.length === 0) throw new NodeError('NO_TIPS', 'no tips available: attaching not possible (no non-lazy tip)');
    return sample(nonLazy, random, count);
  }
}

/** `n` distinct entries drawn uniformly (partial Fisher-Yates), sorted. */
export function sample(pool: Uint8Array[], random: () => number, count: number): Uint8Array[] {
  const a = pool.slice();
  const n = Math.min(count, a.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(random() * (a.length - i));
    const t = a[i]!;
    a[i] = a[j]!;
    a[j] = t;
  }
  return a.slice(0, n).sort(compareBytes);
}
