/**
 * Cone root indexes (docs/protocol.md §N5.3; Hornet `pkg/dag/cone_root_indexes.go`): for a solid block no milestone
 * referenced yet, the youngest (YCRI) and oldest (OCRI) milestone index among the roots of its past cone — the first
 * blocks on each path that a milestone referenced (their referencing index) or solid entry points (the genesis
 * milestone index; the pruning index once pruned). A referenced block or a solid entry point is its own root.
 *
 * They are kept per block, with the confirmed milestone index they hold for (`ci`), so scoring a tip reads them
 * instead of walking its cone:
 *   * a block that becomes solid gets them from its parents (`fromParents`: constant work while the parents' values are
 *     current), stored in its metadata in the same batch;
 *   * a confirmation makes the values above the newly referenced cone outdated; `afterConfirmation` computes them
 *     again for every solid block no milestone referenced yet, oldest first, from the blocks it remembers since they
 *     became solid (no store walk), and stores the new values (what Hornet's UpdateConeRootIndexes does by walking
 *     the future cone); a block that fell below max depth is forgotten (it can only stay there);
 *   * anything still outdated (after a crash between the two, or a store of an older layout) is recomputed on first
 *     use by a walk down to current values, memoised for the current confirmed index.
 */
import { toHex } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import {
  TABLES,
  type BlockMetadata,
  type ConeRootIndexes,
  type NodeStore,
  type StoreBatch,
} from '../../core/store/index.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { NetworkState } from '../genesis/network.ts';

export type { ConeRootIndexes };

/** Memo entries kept at most (then it starts over): bounds memory when milestones stop coming. */
const MAX_MEMO = 200_000;

/** What a block contributes to its children's cone root indexes. */
type Known = { ycri: number; ocri: number };

interface Frame {
  id: Uint8Array;
  key: string;
  parents: readonly Uint8Array[];
  next: number;
  acc: Known;
}

const merge = (acc: Known, v: Known): void => {
  acc.ycri = Math.max(acc.ycri, v.ycri);
  acc.ocri = Math.min(acc.ocri, v.ocri);
};

const fresh = (): Known => ({ ycri: 0, ocri: Number.MAX_SAFE_INTEGER });

/** Metadata of blocks written in the batch being built (group commit), before they are in the store. */
export type StagedMetadata = (key: string) => BlockMetadata | undefined;

/** Unreferenced solid blocks remembered at most (the oldest are forgotten and recomputed by a walk if ever needed). */
const MAX_UNREFERENCED = 200_000;

export class ConeRoots {
  private memo = new Map<string, Known>();
  private memoCmi = -1;
  /** Solid blocks no milestone referenced yet, in the order they became solid (parents before children). */
  private readonly unreferenced = new Map<string, { id: Uint8Array; parents: readonly Uint8Array[] }>();

  constructor(
    private readonly store: NodeStore,
    private readonly network: NetworkState,
    private readonly protocol: ProtocolState,
  ) {}

  /** The confirmed milestone index the values are for. */
  get cmi(): number {
    return this.protocol.hasLedger ? this.protocol.ledgerIndex : this.network.genesisMilestone.index;
  }

  /** The cone root indexes of a new solid block, from its parents (staged: blocks of the same batch). */
  async fromParents(parents: readonly Uint8Array[], staged?: StagedMetadata): Promise<ConeRootIndexes> {
    const cmi = this.cmi;
    const acc = fresh();
    for (const p of parents) merge(acc, await this.contribution(p, staged?.(toHex(p))));
    if (acc.ocri === Number.MAX_SAFE_INTEGER) acc.ocri = acc.ycri;
    return { ...acc, ci: cmi };
  }

  /** The cone root indexes of a stored block against the current confirmed index. */
  async get(blockId: Uint8Array): Promise<Known> {
    return this.contribution(blockId, undefined);
  }

  /** A block became solid (with the values `fromParents` gave it): remembered until a milestone references it. */
  noteSolid(blockId: Uint8Array, parents: readonly Uint8Array[]): void {
    if (!this.protocol.hasLedger) return;
    if (this.unreferenced.size >= MAX_UNREFERENCED)
      this.unreferenced.delete(this.unreferenced.keys().next().value as string);
    this.unreferenced.set(toHex(blockId), { id: blockId, parents });
  }

  /**
   * After a confirmation (the ledger and the confirmed index already moved): the blocks it referenced become roots;
   * every other remembered block gets values against the new confirmed index, written into `batch`. Returns the
   * values of every block whose values changed (block ID hex -> values), for the tip pools.
   */
  async afterConfirmation(
    referenced: readonly Uint8Array[],
    milestoneIndex: number,
    batch: StoreBatch,
  ): Promise<Map<string, Known>> {
    const cmi = this.cmi;
    const changed = new Map<string, Known>();
    for (const id of referenced) {
      const key = toHex(id);
      this.unreferenced.delete(key);
      changed.set(key, { ycri: milestoneIndex, ocri: milestoneIndex });
    }
    this.memo.clear();
    this.memoCmi = cmi;
    const entries = [...this.unreferenced];
    const metas = await this.store.getMany(
      TABLES.blockMetadata,
      entries.map(([, e]) => e.id),
    );
    const belowMaxDepth = this.protocol.current.belowMaxDepth;
    for (let i = 0; i < entries.length; i++) {
      const [key, { id, parents }] = entries[i]!;
      const md = metas[i];
      if (!md || md.referenced) {
        this.unreferenced.delete(key);
        continue;
      }
      const acc = fresh();
      for (const p of parents)
        merge(acc, changed.get(toHex(p)) ?? this.memo.get(toHex(p)) ?? (await this.contribution(p, undefined)));
      if (acc.ocri === Number.MAX_SAFE_INTEGER) acc.ocri = acc.ycri;
      this.memo.set(key, acc);
      changed.set(key, acc);
      batch.putBlockMetadata(id, { ...md, coneRoots: { ...acc, ci: cmi } });
      if (cmi - acc.ocri > belowMaxDepth) this.unreferenced.delete(key); // below max depth for good
    }
    return changed;
  }

  /** What `id` contributes: its own index if it is a root, its current values if it has them, else a walk. */
  private async contribution(id: Uint8Array, staged: BlockMetadata | undefined): Promise<Known> {
    const root = this.rootOf(id, staged);
    if (root) return root;
    const cmi = this.cmi;
    if (cmi !== this.memoCmi || this.memo.size > MAX_MEMO) {
      this.memo.clear();
      this.memoCmi = cmi;
    }
    const key = toHex(id);
    const known = this.memo.get(key) ?? this.current(staged, cmi);
    if (known) return known;
    const md = await this.store.getBlockMetadata(id);
    const r = this.rootOf(id, md) ?? this.current(md, cmi);
    if (r) return r;
    return this.walk(id, key, md);
  }

  private rootOf(id: Uint8Array, md: BlockMetadata | undefined): Known | undefined {
    if (this.protocol.isSolidEntryPoint(id)) {
      // Entry points stand for the milestone they were taken at: the genesis (or snapshot), or the pruning index.
      const at = this.protocol.pruningIndex ?? this.network.genesisMilestone.index;
      return { ycri: at, ocri: at };
    }
    // Without a ledger nothing is ever confirmed: every block is as young as the genesis.
    if (!this.protocol.hasLedger)
      return { ycri: this.network.genesisMilestone.index, ocri: this.network.genesisMilestone.index };
    if (md?.referenced) return { ycri: md.referenced.milestoneIndex, ocri: md.referenced.milestoneIndex };
    return undefined;
  }

  private current(md: BlockMetadata | undefined, cmi: number): Known | undefined {
    const c = md?.coneRoots;
    return c && c.ci === cmi ? { ycri: c.ycri, ocri: c.ocri } : undefined;
  }

  /** Post-order walk through the outdated unreferenced past cone, down to roots and current values (memoised). */
  private async walk(id: Uint8Array, key: string, md: BlockMetadata | undefined): Promise<Known> {
    const genesis = this.network.genesisMilestone.index;
    const parentsOf = async (blockId: Uint8Array): Promise<readonly Uint8Array[] | undefined> => {
      const bytes = await this.store.getBlock(blockId);
      return bytes === undefined ? undefined : decodeBlock(bytes).parents;
    };
    const first = md ? await parentsOf(id) : undefined;
    // A block the node does not hold cannot be a solid block's ancestor; count it as the oldest root.
    if (!first) return { ycri: genesis, ocri: genesis };
    const stack: Frame[] = [{ id, key, parents: first, next: 0, acc: fresh() }];
    let result: Known = { ycri: genesis, ocri: genesis };
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.parents.length) {
        const parent = top.parents[top.next++]!;
        const pkey = toHex(parent);
        const memo = this.memo.get(pkey);
        if (memo) {
          merge(top.acc, memo);
          continue;
        }
        const pmd = await this.store.get(TABLES.blockMetadata, parent);
        const known = this.rootOf(parent, pmd) ?? this.current(pmd, this.memoCmi);
        const parents = known || !pmd ? undefined : await parentsOf(parent);
        if (known) merge(top.acc, known);
        else if (!parents) merge(top.acc, { ycri: genesis, ocri: genesis });
        else stack.push({ id: parent, key: pkey, parents, next: 0, acc: fresh() });
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
}
