/**
 * Uniform random tip selection with Hornet's tip scores and tip pools (docs/protocol.md §N5.3; hornet
 * `pkg/tipselect/urts.go`).
 *
 * Tip score against the confirmed milestone index CMI, from the tip's cone root indexes (cone-roots.ts), in
 * Hornet's order: CMI − OCRI > belowMaxDepth (protocol) → below max depth (lazy, the metadata says shouldReattach);
 * CMI − YCRI > 8 → lazy (shouldPromote); CMI − OCRI > 13 → semi-lazy (shouldPromote); else healthy (non-lazy).
 *
 * Pools (in memory, bounded by Hornet's retention rules): every block that becomes solid is scored once from the cone
 * root indexes it got from its parents and joins the non-lazy or the semi-lazy pool (a lazy one joins none). Its
 * parents in the same pool are then checked: beyond the pool's tips limit a referenced parent leaves at once;
 * otherwise it leaves at its `maxChildren`-th child, or `maxReferencedTipAge` after its first child. After each
 * confirmation every pooled tip is scored again from the values the confirmation brought (no store read); lazy tips
 * leave. So selecting costs the same whatever the pool size, and no request recomputes a score from the store. A pool
 * holds at most MAX_POOL_TIPS: only turning lazy makes a tip nobody approves leave, so while no milestone confirms,
 * blocks whose parents are outside the pools would otherwise add up without end; beyond it the tip that joined first
 * leaves.
 *
 * Selection: up to 4 distinct tips drawn uniformly at random from the non-lazy pool, sorted; NO_TIPS when it is
 * empty. `allowSemiLazy` (GET /tips?allowSemiLazy): semi-lazy tips are preferred when more than 2 exist (Hornet).
 * On start the pools are filled from the store's `tips` table (the blocks without children).
 */
import { compareBytes, toHex } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../support/errors.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { ConeRoots } from './cone-roots.ts';

export interface PoolRules {
  /** Beyond this many tips a parent leaves the pool at its first child. */
  tipsLimit: number;
  /** A tip leaves this long after its first child (0 = never for this reason). */
  maxReferencedTipAgeMs: number;
  /** A tip leaves at this many children. */
  maxChildren: number;
}

export const URTS_DEFAULTS = Object.freeze({
  /** Hornet `maxDeltaBlockYoungestConeRootIndexToCMI`. */
  maxDeltaYcri: 8,
  /** Hornet `maxDeltaBlockOldestConeRootIndexToCMI`. */
  maxDeltaOcri: 13,
  /** Hornet selects 4 parents (hard-coded). */
  tipsToSelect: 4,
  /** Hornet's defaults (`tipsel.nonLazy` / `tipsel.semiLazy`). */
  nonLazy: Object.freeze({ tipsLimit: 100, maxReferencedTipAgeMs: 3000, maxChildren: 30 }) as PoolRules,
  semiLazy: Object.freeze({ tipsLimit: 20, maxReferencedTipAgeMs: 3000, maxChildren: 2 }) as PoolRules,
});

export type TipScore = 'healthy' | 'semiLazyOcri' | 'lazyYcri' | 'belowMaxDepth';

export interface CriPair {
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

export function tipScore(cri: CriPair, cmi: number, belowMaxDepth: number): TipScore {
  if (cmi - cri.ocri > belowMaxDepth) return 'belowMaxDepth';
  if (cmi - cri.ycri > URTS_DEFAULTS.maxDeltaYcri) return 'lazyYcri';
  if (cmi - cri.ocri > URTS_DEFAULTS.maxDeltaOcri) return 'semiLazyOcri';
  return 'healthy';
}

interface Tip {
  id: Uint8Array;
  key: string;
  cri: CriPair;
  /** Insertion order (freshness). */
  seq: number;
  children: number;
  firstChildAt: number | undefined;
}

/** Tips a pool holds at most (100 times Hornet's non-lazy tips limit); beyond, the one that joined first leaves. */
export const MAX_POOL_TIPS = 10_000;

/** A set with O(1) add, remove and uniform random pick; referenced tips age out in the order they got a child. */
class Pool {
  private readonly list: Tip[] = [];
  /** Tip key -> its place in `list`; in the order the tips joined (a move in `list` keeps a key's place here). */
  private readonly at = new Map<string, number>();
  /** Tips in the order of their first child (a tip that left meanwhile is skipped when it comes up). */
  private readonly aging: Tip[] = [];
  private agingHead = 0;

  constructor(readonly rules: PoolRules) {}

  get size(): number {
    return this.list.length;
  }

  /** Entries of the age queue not yet passed by `retire`. */
  get agingLength(): number {
    return this.aging.length - this.agingHead;
  }

  get(key: string): Tip | undefined {
    const i = this.at.get(key);
    return i === undefined ? undefined : this.list[i];
  }

  add(tip: Tip): void {
    if (this.at.has(tip.key)) return;
    if (this.list.length >= MAX_POOL_TIPS) this.remove(this.at.keys().next().value as string);
    this.at.set(tip.key, this.list.length);
    this.list.push(tip);
  }

  remove(key: string): Tip | undefined {
    const i = this.at.get(key);
    if (i === undefined) return undefined;
    const tip = this.list[i]!;
    const last = this.list.pop()!;
    if (last !== tip) {
      this.list[i] = last;
      this.at.set(last.key, i);
    }
    this.at.delete(key);
    return tip;
  }

  tips(): readonly Tip[] {
    return this.list;
  }

  /** `tip` got its first child now. */
  referenced(tip: Tip, now: number): void {
    tip.firstChildAt = now;
    this.aging.push(tip);
    if (this.aging.length - this.agingHead > 2 * this.list.length + 1024) this.compact();
  }

  /**
   * Keeps in the age queue only the first entry of each tip still in the pool, in order: what `retire` would skip
   * anyway goes. Without it the queue grew by a tip per block on a node that never selects tips (only selection
   * retires); so it stays within the pool's size, at amortized O(1) per entry.
   */
  private compact(): void {
    const kept = new Set<Tip>();
    for (let i = this.agingHead; i < this.aging.length; i++) {
      const tip = this.aging[i]!;
      if (this.get(tip.key) === tip) kept.add(tip);
    }
    this.aging.length = 0;
    for (const tip of kept) this.aging.push(tip);
    this.agingHead = 0;
  }

  /** Removes the tips whose first child came more than `maxReferencedTipAgeMs` ago: amortized O(1) per tip. */
  retire(now: number): void {
    const age = this.rules.maxReferencedTipAgeMs;
    if (age <= 0) return;
    while (this.agingHead < this.aging.length) {
      const tip = this.aging[this.agingHead]!;
      if (this.get(tip.key) === tip && now - tip.firstChildAt! <= age) break;
      if (this.get(tip.key) === tip) this.remove(tip.key);
      this.agingHead++;
    }
    if (this.agingHead > 1024 && this.agingHead * 2 > this.aging.length) {
      this.aging.splice(0, this.agingHead);
      this.agingHead = 0;
    }
  }

  /** `n` distinct tips drawn uniformly at random. */
  sample(random: () => number, n: number): Tip[] {
    const count = Math.min(n, this.list.length);
    const picked = new Set<number>();
    while (picked.size < count) picked.add(Math.floor(random() * this.list.length) % this.list.length);
    return [...picked].map((i) => this.list[i]!);
  }
}

export class TipSelector {
  private readonly nonLazy: Pool;
  private readonly semiLazy: Pool;
  private seq = 0;

  constructor(
    private readonly store: NodeStore,
    private readonly protocol: ProtocolState,
    private readonly coneRoots: ConeRoots,
    private readonly now: () => number = Date.now,
    rules: { nonLazy: PoolRules; semiLazy: PoolRules } = URTS_DEFAULTS,
  ) {
    this.nonLazy = new Pool(rules.nonLazy);
    this.semiLazy = new Pool(rules.semiLazy);
  }

  /** Fills the pools from the store's tips table (start-up). */
  async load(): Promise<void> {
    for (const tip of await this.store.tips()) {
      const bytes = await this.store.getBlock(tip);
      this.added(tip, bytes ? decodeBlock(bytes).parents : [], await this.coneRoots.get(tip));
    }
  }

  /** Non-lazy and semi-lazy tips in the pools. */
  get size(): { nonLazy: number; semiLazy: number } {
    return { nonLazy: this.nonLazy.size, semiLazy: this.semiLazy.size };
  }

  /** Entries of both pools' age queues (tests: bounded by the pools' sizes, not by the blocks seen). */
  get agingEntries(): number {
    return this.nonLazy.agingLength + this.semiLazy.agingLength;
  }

  /** The score of any stored block against the current confirmed index. */
  async score(blockId: Uint8Array): Promise<TipScore> {
    return this.scoreOf(await this.coneRoots.get(blockId));
  }

  /** A block became solid, with the cone root indexes it got from its parents: it joins a pool, its parents age. */
  added(blockId: Uint8Array, parents: readonly Uint8Array[], cri: CriPair): void {
    const score = this.scoreOf(cri);
    if (score !== 'healthy' && score !== 'semiLazyOcri') return; // lazy tips join no pool and retire no parent
    const pool = score === 'healthy' ? this.nonLazy : this.semiLazy;
    const key = toHex(blockId);
    if (this.nonLazy.get(key) || this.semiLazy.get(key)) return;
    pool.add({ id: blockId, key, cri, seq: this.seq++, children: 0, firstChildAt: undefined });
    const now = this.now();
    for (const parent of parents) {
      const pkey = toHex(parent);
      const tip = pool.get(pkey);
      if (!tip) continue;
      if (pool.size > pool.rules.tipsLimit || ++tip.children >= pool.rules.maxChildren) pool.remove(pkey);
      else if (tip.firstChildAt === undefined && pool.rules.maxReferencedTipAgeMs > 0) pool.referenced(tip, now);
    }
  }

  /**
   * After a confirmation: every pooled tip is scored again against the new confirmed index, with the cone root
   * indexes the confirmation changed (`changed`: block ID hex -> values); lazy tips leave.
   */
  rescore(changed: ReadonlyMap<string, CriPair>): void {
    for (const pool of [this.nonLazy, this.semiLazy]) {
      for (const tip of [...pool.tips()]) {
        tip.cri = changed.get(tip.key) ?? tip.cri;
        const score = this.scoreOf(tip.cri);
        const target = score === 'healthy' ? this.nonLazy : score === 'semiLazyOcri' ? this.semiLazy : undefined;
        if (target === pool) continue;
        pool.remove(tip.key);
        if (!target) continue;
        target.add(tip);
        if (tip.firstChildAt !== undefined) target.referenced(tip, tip.firstChildAt);
      }
    }
  }

  /** The pools as lists (tests, the consistency view). */
  pools(): { nonLazy: Uint8Array[]; semiLazy: Uint8Array[] } {
    this.retire();
    return { nonLazy: this.nonLazy.tips().map((t) => t.id), semiLazy: this.semiLazy.tips().map((t) => t.id) };
  }

  /**
   * Up to `count` distinct non-lazy tips (semi-lazy ones when asked and more than 2 exist), sorted; NO_TIPS when none.
   */
  async select(
    random: () => number = Math.random,
    count = URTS_DEFAULTS.tipsToSelect,
    allowSemiLazy = false,
  ): Promise<Uint8Array[]> {
    this.retire();
    if (allowSemiLazy && this.semiLazy.size > 2) return sorted(this.semiLazy.sample(random, count));
    if (this.nonLazy.size === 0)
      throw new NodeError('NO_TIPS', 'no tips available: attaching not possible (no non-lazy tip)');
    return sorted(this.nonLazy.sample(random, count));
  }

  /** The `count` non-lazy tips that joined last (the coordinator's parents: a milestone covers the fresh tips). */
  freshest(count: number): Uint8Array[] {
    this.retire();
    return sorted([...this.nonLazy.tips()].sort((a, b) => b.seq - a.seq).slice(0, count));
  }

  /** Non-lazy tips no block approves yet, oldest first: what a milestone has to reach to reference everything. */
  childless(): Uint8Array[] {
    this.retire();
    return this.nonLazy
      .tips()
      .filter((t) => t.children === 0)
      .sort((a, b) => a.seq - b.seq)
      .map((t) => t.id);
  }

  private scoreOf(cri: CriPair): TipScore {
    return tipScore(cri, this.coneRoots.cmi, this.protocol.current.belowMaxDepth);
  }

  /** Tips referenced longer ago than their pool's maximum age leave. */
  private retire(): void {
    const now = this.now();
    this.nonLazy.retire(now);
    this.semiLazy.retire(now);
  }
}

function sorted(tips: readonly Tip[]): Uint8Array[] {
  return tips.map((t) => t.id).sort(compareBytes);
}
