/**
 * Milestones arriving as blocks (submitted, later gossiped) and their confirmation, in index order.
 *
 * Every stored milestone block is remembered by index (on a network with a ledger). One whose signatures do not verify
 * can never confirm (the milestone keys are fixed by the genesis): it is rejected when the processor next runs, so
 * blocks a client sends without PoW cannot pile up under indexes the ledger never reaches. A milestone whose
 * signatures are valid raises the latest milestone (GetInfo) even before it confirms. The next milestone (ledger
 * index + 1) is confirmed once its block is solid (its whole past cone is present): `confirmMilestone` checks it
 * (succession, signatures, both Merkle roots) and its batch — ledger, block metadata, milestone, indexes — is
 * committed atomically. A milestone that fails is
 * logged and never confirms (its block stays stored); another block with the same index may still confirm.
 * Confirmations run in the Attacher's queue, so they never interleave with block attaches.
 *
 * On start every stored milestone block above the ledger index is noted (`noteStored`, from the one start-up pass over
 * the metadata) and processed (a restart forgets nothing).
 * Blocks that arrive while the node runs are kept decoded, so a milestone is decoded once. After each confirmation
 * the protocol parameters in force are reloaded (protocol-state.ts): a change announced for this index applies now.
 */
import { toHex, toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { ProtocolError } from '../../core/errors.ts';
import { milestoneIdOf, verifyMilestoneSignaturesOverId } from '../../core/ids/index.ts';
import {
  confirmMilestone,
  LedgerState,
  type ConeBlockSource,
  type MilestoneConfirmation,
} from '../../core/ledger/index.ts';
import { PAYLOAD_MILESTONE, type Block, type MilestonePayload } from '../../core/model/index.ts';
import { META, type BlockMetadata, type NodeStore } from '../../core/store/index.ts';
import type { Logger } from '../logger.ts';
import type { ProtocolState } from './protocol-state.ts';

export interface LatestMilestone {
  index: number;
  timestamp: number;
  milestoneId: Uint8Array;
}

export interface ConfirmedEvent {
  index: number;
  milestoneId: Uint8Array;
  blockId: Uint8Array;
  coneSize: number;
  included: number;
  conflicting: number;
  ms: number;
  /** What the confirmation did (verdicts, outputs created and consumed, the receipt); its batch is committed. */
  confirmation: MilestoneConfirmation;
}

type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

interface PendingMilestone {
  blockId: Uint8Array;
  /** Undefined for blocks found by the start-up scan until first needed. */
  block?: Block;
  /** Its signatures verified (checked once). */
  signed?: boolean;
}

/** Who waits for a milestone index (and, with `blockKey`, for that milestone block's verdict). */
interface Waiter {
  index: number;
  blockKey?: string;
  resolve: () => void;
  reject: (e: Error) => void;
}

export class MilestoneProcessor {
  /** index -> (block ID hex -> the block) of stored, not yet confirmed or rejected milestone blocks. */
  private readonly pending = new Map<number, Map<string, PendingMilestone>>();
  private readonly rejected = new Map<string, string>();
  private readonly waiters: Waiter[] = [];
  private readonly listeners: ((e: ConfirmedEvent) => void)[] = [];
  private readonly latestListeners: ((m: LatestMilestone) => void)[] = [];
  private latestSeen: LatestMilestone | undefined;
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly store: NodeStore,
    private readonly exclusive: Exclusive,
    private readonly protocol: ProtocolState,
    private readonly logger: Logger,
    /** Runs right after each confirmation, still in the attach queue: the blocks it referenced, and its index. */
    private readonly afterConfirm: (referenced: Uint8Array[], index: number) => Promise<void> = async () => undefined,
    /** Where cone blocks are read (default: the store). */
    private readonly blocks?: ConeBlockSource,
  ) {}

  /** Finds milestone blocks above the ledger index stored before a restart, and processes them. */
  /**
   * Start-up, for every stored block (the composition root's one pass over the metadata): milestones above the ledger.
   */
  noteStored(blockId: Uint8Array, md: BlockMetadata): void {
    if (this.protocol.hasLedger && md.milestoneIndex !== undefined && md.milestoneIndex > this.protocol.ledgerIndex)
      this.remember(md.milestoneIndex, { blockId });
  }

  /** Processes the milestone blocks found at start-up (noteStored). */
  async start(): Promise<void> {
    if (this.pending.size > 0) await this.exclusive(() => this.process());
  }

  stop(): void {
    this.closed = true;
    for (const w of this.waiters.splice(0)) w.resolve();
  }

  onConfirmed(listener: (e: ConfirmedEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Told each time a milestone with valid signatures raises the latest milestone. */
  onLatest(listener: (m: LatestMilestone) => void): void {
    this.latestListeners.push(listener);
  }

  /** The highest milestone seen with valid signatures (confirmed or not). */
  latest(): LatestMilestone | undefined {
    return this.latestSeen;
  }

  /** Milestone blocks remembered and not confirmed, and rejections remembered (tests: both stay bounded). */
  get held(): { pending: number; rejected: number } {
    let pending = 0;
    for (const m of this.pending.values()) pending += m.size;
    return { pending, rejected: this.rejected.size };
  }

  /** Why a milestone block was rejected, if it was. */
  rejection(blockId: Uint8Array): string | undefined {
    return this.rejected.get(toHex(blockId));
  }

  /** Called after every stored block (inside the attach queue): never waits for the queue itself. */
  stored(blockId: Uint8Array, block: Block, result: { solid: boolean; solidified: number }): void {
    const { solid, solidified } = result;
    const isMilestone = block.payload?.type === PAYLOAD_MILESTONE;
    // Without a ledger nothing confirms, so nothing would ever forget it (as noteStored).
    if (block.payload?.type === PAYLOAD_MILESTONE && this.protocol.hasLedger)
      this.remember(block.payload.index, { blockId, block });
    if (this.pending.size > 0 && (isMilestone || solid || solidified > 0)) this.schedule();
  }

  /**
   * Resolves once the ledger reached `index` (or the processor stopped); rejects with the reason once the milestone
   * block `blockId` is rejected. The waiter is registered before the ledger index is read: a confirmation that
   * lands while that read is under way wakes it (registered after the read, it would wait for the next milestone,
   * and a coordinator waiting for its own milestone would never issue one again).
   */
  async settled(blockId: Uint8Array, index: number): Promise<void> {
    if (this.closed) return;
    let waiter!: Waiter;
    const woken = new Promise<void>((resolve, reject) => {
      waiter = { index, blockKey: toHex(blockId), resolve, reject };
      this.waiters.push(waiter);
    });
    void woken.catch(() => undefined); // a verdict that lands while we return early is no unhandled rejection
    const why = this.rejected.get(waiter.blockKey!);
    const now = await this.store.getMeta(META.ledgerIndex);
    if (why !== undefined || (now !== undefined && now >= index)) {
      const at = this.waiters.indexOf(waiter);
      if (at >= 0) this.waiters.splice(at, 1);
      if (why !== undefined) throw new Error(`milestone ${index} was rejected: ${why}`);
      return;
    }
    await woken;
  }

  private remember(index: number, milestone: PendingMilestone): void {
    let m = this.pending.get(index);
    if (!m) {
      m = new Map();
      this.pending.set(index, m);
    }
    m.set(toHex(milestone.blockId), milestone);
  }

  /** The decoded block of a pending milestone (read and decoded once when the start-up scan found it). */
  private async blockOf(p: PendingMilestone): Promise<Block | undefined> {
    if (p.block) return p.block;
    const bytes = await this.store.getBlock(p.blockId);
    if (bytes) p.block = decodeBlock(bytes);
    return p.block;
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    void this.exclusive(async () => {
      this.scheduled = false;
      await this.process();
    }).catch((e: unknown) => this.logger.error('milestone processing failed', e));
  }

  /** Confirms every pending milestone that can be, in index order. Must run inside the attach queue. */
  async process(): Promise<void> {
    const ledger = new LedgerState(this.store);
    for (;;) {
      if (this.closed) return;
      const ledgerIndex = await ledger.ledgerIndex();
      if (ledgerIndex === undefined) return;
      for (const index of [...this.pending.keys()]) if (index <= ledgerIndex) this.pending.delete(index);
      await this.dropUnsigned(ledger);
      await this.updateLatest(ledger);
      const candidates = this.pending.get(ledgerIndex + 1);
      if (!candidates) return;
      let confirmed = false;
      for (const [key, pending] of [...candidates]) {
        const { blockId } = pending;
        const md = await this.store.getBlockMetadata(blockId);
        if (!md?.solid) continue; // waits for its cone
        const started = Date.now();
        try {
          const block = await this.blockOf(pending);
          if (!block) continue;
          const c = await confirmMilestone({
            store: this.store,
            milestoneBlockId: blockId,
            milestoneBlock: block,
            ...(this.blocks ? { blocks: this.blocks } : {}),
          });
          await c.batch.commit({ sync: true });
          await this.protocol.refresh();
          await this.afterConfirm([...c.verdicts.map((v) => v.blockId), blockId], c.milestoneIndex);
          const event: ConfirmedEvent = {
            index: c.milestoneIndex,
            milestoneId: c.milestoneId,
            blockId,
            coneSize: c.verdicts.length,
            included: c.verdicts.filter((v) => v.ledgerInclusionState === 'included').length,
            conflicting: c.verdicts.filter((v) => v.ledgerInclusionState === 'conflicting').length,
            ms: Date.now() - started,
            confirmation: c,
          };
          this.logger.info(
            `confirmed milestone ${event.index} (block ${toHex0x(blockId)}): ${event.coneSize} blocks, ` +
              `${event.included} transactions included, ${event.conflicting} conflicting, ${event.ms} ms`,
          );
          for (const v of c.verdicts)
            if (v.message)
              this.logger.info(`  conflicting ${toHex0x(v.blockId)}: reason ${v.conflictReason} (${v.message})`);
          for (const l of this.listeners) l(event);
          confirmed = true;
          break;
        } catch (e) {
          if (!(e instanceof ProtocolError)) throw e;
          candidates.delete(key);
          this.reject(key, blockId, e.message);
        }
      }
      if (candidates.size === 0) this.pending.delete(ledgerIndex + 1);
      if (!confirmed) return;
      this.wake(ledgerIndex + 1);
    }
  }

  private reject(key: string, blockId: Uint8Array, reason: string): void {
    if (this.rejected.size >= 1000) this.rejected.delete(this.rejected.keys().next().value as string); // bounded
    this.rejected.set(key, reason);
    this.logger.warn(`milestone block ${toHex0x(blockId)} rejected: ${reason}`);
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      const w = this.waiters[i]!;
      if (w.blockKey === key) {
        this.waiters.splice(i, 1);
        w.reject(new Error(`milestone ${w.index} was rejected: ${reason}`));
      }
    }
  }

  /**
   * Rejects the pending milestone blocks whose signatures do not verify (each is checked once) and forgets those whose
   * block is gone: neither can ever confirm, and nothing else would forget one under an index the ledger never reaches.
   */
  private async dropUnsigned(ledger: LedgerState): Promise<void> {
    const keys = await ledger.milestoneKeys();
    if (!keys) return;
    for (const [index, candidates] of [...this.pending]) {
      for (const [key, pending] of [...candidates]) {
        if (pending.signed) continue;
        const block = await this.blockOf(pending);
        if (!block) {
          candidates.delete(key);
          continue;
        }
        const ms = block.payload as MilestonePayload;
        try {
          verifyMilestoneSignaturesOverId(milestoneIdOf(ms), ms.index, ms.signatures, keys.keyRanges, keys.threshold);
          pending.signed = true;
        } catch (e) {
          if (!(e instanceof ProtocolError)) throw e;
          candidates.delete(key);
          this.reject(key, pending.blockId, e.message);
        }
      }
      if (candidates.size === 0) this.pending.delete(index);
    }
  }

  private wake(index: number): void {
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i]!.index <= index) this.waiters.splice(i, 1)[0]!.resolve();
    }
  }

  /** Raises the latest milestone to the highest pending one whose signatures verify. */
  private async updateLatest(ledger: LedgerState): Promise<void> {
    const keys = await ledger.milestoneKeys();
    if (!keys) return;
    const latestStored = (await this.store.getMeta(META.latestMilestoneIndex)) ?? 0;
    const indexes = [...this.pending.keys()]
      .filter((i) => i > Math.max(latestStored, this.latestSeen?.index ?? 0))
      .sort((a, b) => b - a);
    for (const index of indexes) {
      for (const pending of this.pending.get(index)!.values()) {
        const block = await this.blockOf(pending);
        if (!block) continue;
        const ms = block.payload as MilestonePayload;
        const id = milestoneIdOf(ms);
        try {
          verifyMilestoneSignaturesOverId(id, ms.index, ms.signatures, keys.keyRanges, keys.threshold);
        } catch {
          continue;
        }
        this.latestSeen = { index, timestamp: ms.timestamp, milestoneId: id };
        await this.store.batch().putMeta(META.latestMilestoneIndex, index).commit({ sync: false });
        for (const l of this.latestListeners) l(this.latestSeen);
        return;
      }
    }
  }
}
