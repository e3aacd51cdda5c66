/**
 * Solidification and milestone sync, the loop that runs every `tickMs`.
 *
 * Solidification: a block stored without its past cone is a "root"; every tick the unsolid part of each root's cone
 * is walked, and missing blocks are requested by ID (see Requests). Milestone confirmation is the
 * MilestoneProcessor's: it confirms a milestone once its block is solid.
 *
 * Sync: while a peer knows milestones above our ledger index, the next milestones (a window of `syncWindow`) are
 * requested by index, their cones solidified first, and the ledger confirms them in order.
 */
import { toHex } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { PAYLOAD_MILESTONE, type Block } from '../../core/model/index.ts';
import { BlockVersion } from '../../grpc/gen/peer.ts';
import type { PeeringContext } from './context.ts';
import type { PeeringPort } from './port.ts';
import type { Requests } from './requests.ts';
import type { SyncStatus } from './status.ts';

export type SyncRequests = Pick<
  Requests,
  'request' | 'requestMilestone' | 'milestoneArrived' | 'forgetConfirmed' | 'expire'
>;
export type SyncStatusView = Pick<SyncStatus, 'refresh' | 'recompute' | 'confirmed' | 'latestKnown'>;

/**
 * Milestone blocks tracked above the ledger index at most. Beyond, one of the highest index is forgotten (the newest
 * there): a client may store milestone blocks of any index without PoW (their signatures are checked by the
 * MilestoneProcessor, not here), and nothing else would forget one the ledger never reaches. A forgotten block of an
 * index the sync window reaches is asked for again, and tracked again when it arrives.
 */
export const MAX_MILESTONE_BLOCKS = 1024;

export class Sync {
  /** Milestone index -> block IDs (hex) of the milestone blocks this node holds above its ledger index. */
  private readonly milestoneBlocks = new Map<number, Map<string, Uint8Array>>();
  /** Block IDs in `milestoneBlocks`, every index together. */
  private milestoneBlockCount = 0;
  /** Blocks stored without a solid past cone (hex -> ID and when it became a root); see `addRoot`. */
  private readonly roots = new Map<string, { id: Uint8Array; since: number }>();
  private ticking = false;
  private tickTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly ctx: PeeringContext,
    private readonly port: Pick<PeeringPort, 'store' | 'protocol'>,
    private readonly requests: SyncRequests,
    private readonly status: SyncStatusView,
    /** Blocks waiting for their parents outside the v2 tangle (the v3 parking), retried every tick. */
    private readonly waiting: { retry(): Promise<void> },
  ) {}

  start(): void {
    this.tickTimer = setInterval(() => void this.tick(), this.ctx.settings.tickMs);
  }

  /** No further ticks (one under way goes on, see `idle`). */
  stop(): void {
    if (this.tickTimer) clearInterval(this.tickTimer);
  }

  /** Resolves once no tick runs. */
  async idle(): Promise<void> {
    while (this.ticking) await new Promise((r) => setTimeout(r, 5));
  }

  /**
   * Remembers an unsolid block to solidify; the oldest is forgotten beyond `maxRoots` (milestones are tracked apart).
   */
  addRoot(k: string, id: Uint8Array): void {
    if (this.roots.has(k)) return;
    if (this.roots.size >= this.ctx.settings.maxRoots) this.roots.delete(this.roots.keys().next().value as string);
    this.roots.set(k, { id, since: this.ctx.now() });
  }

  /** Tracks a milestone block this node holds (its cone is solidified until the ledger passes its index). */
  noteMilestone(block: Block, id: Uint8Array): void {
    if (block.payload?.type !== PAYLOAD_MILESTONE) return;
    let m = this.milestoneBlocks.get(block.payload.index);
    if (!m) {
      m = new Map();
      this.milestoneBlocks.set(block.payload.index, m);
    }
    const k = toHex(id);
    if (!m.has(k)) {
      m.set(k, id);
      if (++this.milestoneBlockCount > MAX_MILESTONE_BLOCKS) this.forgetHighest();
    }
    this.requests.milestoneArrived(block.payload.index);
  }

  /** Milestone blocks tracked (tests: at most MAX_MILESTONE_BLOCKS). */
  get trackedMilestoneBlocks(): number {
    return this.milestoneBlockCount;
  }

  /** Forgets the newest milestone block of the highest index tracked. */
  private forgetHighest(): void {
    let top = -1;
    for (const index of this.milestoneBlocks.keys()) if (index > top) top = index;
    const m = this.milestoneBlocks.get(top)!;
    m.delete([...m.keys()].pop()!);
    this.milestoneBlockCount--;
    if (m.size === 0) this.milestoneBlocks.delete(top);
  }

  /** A block of milestone `index` this node holds above its ledger index. */
  pendingMilestone(index: number): Uint8Array | undefined {
    const pending = this.milestoneBlocks.get(index);
    return pending ? pending.values().next().value : undefined;
  }

  private async tick(): Promise<void> {
    if (this.ticking || !this.ctx.running()) return;
    this.ticking = true;
    try {
      await this.status.refresh();
      const { confirmed } = this.status;
      const { syncWindow, requestsPerTick, rootTtlMs } = this.ctx.settings;
      for (const [index, m] of [...this.milestoneBlocks]) {
        if (index > confirmed) continue;
        this.milestoneBlocks.delete(index);
        this.milestoneBlockCount -= m.size;
      }
      this.requests.forgetConfirmed(confirmed);
      // sync: the next milestones by index
      const target = Math.min(this.status.latestKnown(), confirmed + syncWindow);
      for (let i = confirmed + 1; i <= target; i++) if (!this.milestoneBlocks.has(i)) this.requests.requestMilestone(i);
      // solidification: the unsolid cones of milestones in the window first, then of other unsolid blocks
      let budget = requestsPerTick;
      for (let i = confirmed + 1; i <= confirmed + syncWindow && budget > 0; i++) {
        for (const id of this.milestoneBlocks.get(i)?.values() ?? []) budget -= await this.solidify(id, budget);
      }
      for (const [k, { id, since }] of [...this.roots]) {
        if (budget <= 0 || !this.ctx.running()) break;
        const md = await this.port.store.getBlockMetadata(id);
        if (!md || md.solid || this.ctx.now() - since > rootTtlMs) {
          this.roots.delete(k);
          continue;
        }
        budget -= await this.solidify(id, budget);
      }
      this.requests.expire();
      await this.waiting.retry();
      this.status.recompute();
    } catch (e) {
      if (this.ctx.running()) this.ctx.log.error('peering: sync tick failed', e);
    } finally {
      this.ticking = false;
    }
  }

  /** Walks the unsolid part of `root`'s past cone and requests the missing blocks; returns how many it asked for. */
  private async solidify(root: Uint8Array, budget: number): Promise<number> {
    const store = this.port.store;
    const visited = new Set<string>([toHex(root)]);
    const stack: Uint8Array[] = [root];
    let asked = 0;
    while (stack.length > 0 && asked < budget && visited.size < 100_000) {
      const id = stack.pop()!;
      const md = await store.getBlockMetadata(id);
      if (!md) {
        if (this.requests.request(id, BlockVersion.BLOCK_VERSION_V2)) asked++;
        continue;
      }
      if (md.solid) continue;
      const bytes = await store.getBlock(id);
      if (!bytes) continue;
      for (const p of decodeBlock(bytes).parents) {
        const k = toHex(p);
        if (visited.has(k) || this.port.protocol.isSolidEntryPoint(p)) continue;
        visited.add(k);
        stack.push(p);
      }
    }
    return asked;
  }
}
