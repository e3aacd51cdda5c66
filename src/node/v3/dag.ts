/**
 * The DAG of v3 blocks as the node keeps it: every attached block's state (parents, issuer seat, the committee's
 * witness / ratifier sets, accepted, confirmed, slot, arrival order), the tips, and the status (latest accepted /
 * confirmed slot and tangle time). Acceptance and confirmation come from the committee's votes
 * (core/v3/consensus/committee.ts). Changes go into the caller's store batch.
 *
 * In memory: what the votes still work on, i.e. every block not confirmed yet, the tips, and the latest
 * `maxConfirmed` confirmed blocks; older confirmed blocks are read from the store (`stored`, `ensureLoaded`). Dropping
 * them changes no vote: confirmation is closed towards the past (a confirmed block's past cone is confirmed), the
 * ratification walk skips confirmed blocks, and the witness walk through them only reaches more confirmed blocks,
 * whose witness sets no longer decide anything (their stored sets stay as they were when they left memory).
 * Basic blocks are refused while `maxPending` of them wait for confirmation (validation blocks, which confirm them,
 * never are), so a stalled committee cannot make the unconfirmed part grow without bound.
 *
 * Orphans (iota.go BlockStateOrphaned): when a slot is committed (commitments.ts), every block of it or an earlier
 * slot that is not accepted, and every block with such a block in its past cone (none of them is accepted, since
 * acceptance is closed towards the past), is orphaned: out of the tips, no longer waiting, never accepted afterwards
 * (the intake refuses it as a parent, so no vote reaches it). Like a confirmed block it is final and may leave memory.
 */
import { compareBytes, equalBytes, fromHex0x } from '../../core/bytes.ts';
import { TABLES, type NodeStore, type StoreBatch } from '../../core/store/index.ts';
import type { BlockV3 } from '../../core/v3/index.ts';
import { processVoteV3, type VoteBlockV3, type VoteOutcomeV3 } from '../../core/v3/consensus/committee.ts';
import { genesisBlockIdV3, type GenesisV3 } from './genesis-v3.ts';
import { key, type V3Network } from './network.ts';
import { indexBlockSlot, recordSlotIndexBuilt } from './pruning.ts';
import { V3_TABLES, type BlockStateRecord, type StatusRecord } from './tables.ts';

export const MAX_STRONG_PARENTS_V3 = 8;

export interface V3DagLimits {
  /** Confirmed blocks kept in memory (the latest ones); older ones are read from the store. */
  maxConfirmed: number;
  /** Unconfirmed basic blocks at most; a further one is refused until votes confirm some. */
  maxPending: number;
}

export const V3_DAG_LIMITS: V3DagLimits = { maxConfirmed: 10_000, maxPending: 50_000 };

export interface BlockStateV3 extends VoteBlockV3 {
  id: Uint8Array;
  slot: number;
  issuingTime: bigint;
  validation: boolean;
  /** Arrival order at this node (ties between attachments confirmed together in one slot). */
  seq: number;
  transactionId?: string;
  /** Slot of the block's `slotCommitmentId` (undefined in records of the older layout). */
  commitmentSlot?: number;
  orphaned?: boolean;
  /** Weak parents (absent when none, and in records of the older layout): they leave the tips too (`attach`). */
  weakParents?: string[];
}

function blockRecord(b: BlockStateV3): BlockStateRecord {
  const r: BlockStateRecord = {
    parents: [...b.parents],
    seat: b.seat,
    witnesses: b.witnesses.toString(),
    ratifiers: b.ratifiers.toString(),
    accepted: b.accepted,
    confirmed: b.confirmed,
    slot: b.slot,
    issuingTime: b.issuingTime.toString(),
    validation: b.validation,
    seq: b.seq,
  };
  if (b.transactionId !== undefined) r.transactionId = b.transactionId;
  if (b.commitmentSlot !== undefined) r.commitmentSlot = b.commitmentSlot;
  if (b.orphaned) r.orphaned = true;
  if (b.weakParents !== undefined) r.weakParents = [...b.weakParents];
  return r;
}

function blockFromRecord(id: Uint8Array, r: BlockStateRecord): BlockStateV3 {
  const b: BlockStateV3 = {
    id,
    parents: r.parents,
    seat: r.seat,
    witnesses: BigInt(r.witnesses),
    ratifiers: BigInt(r.ratifiers),
    accepted: r.accepted,
    confirmed: r.confirmed,
    slot: r.slot,
    issuingTime: BigInt(r.issuingTime),
    validation: r.validation,
    seq: r.seq,
  };
  if (r.transactionId !== undefined) b.transactionId = r.transactionId;
  if (r.commitmentSlot !== undefined) b.commitmentSlot = r.commitmentSlot;
  if (r.orphaned) b.orphaned = true;
  if (r.weakParents !== undefined) b.weakParents = r.weakParents;
  return b;
}

export class V3Dag {
  private readonly network: V3Network;
  private readonly blocks = new Map<string, BlockStateV3>();
  /** Confirmed blocks in memory, oldest confirmation first: the first to go. */
  private readonly confirmedInMemory: string[] = [];
  private readonly limits: V3DagLimits;
  private readonly tips = new Set<string>();
  private statusRecord: StatusRecord;
  /** Blocks that are not validation blocks and not confirmed yet (`full` bounds them). */
  private unconfirmedUserBlocks = 0;
  /** Blocks neither accepted nor orphaned (all in memory), in arrival order: what a slot commitment may orphan. */
  private readonly unaccepted = new Set<string>();
  private nextSeq = 0;
  /** Blocks attached and confirmed since the engine opened (the network metrics measure them, network-metrics.ts). */
  readonly counts = { attached: 0, confirmed: 0 };

  constructor(network: V3Network, limits: Partial<V3DagLimits> = {}) {
    this.network = network;
    this.limits = { ...V3_DAG_LIMITS, ...limits };
    const t = network.genesisTimeNs.toString();
    const slot = network.params.genesisSlot;
    this.statusRecord = {
      latestAcceptedBlockSlot: slot,
      latestConfirmedBlockSlot: slot,
      acceptedTangleTime: t,
      confirmedTangleTime: t,
    };
  }

  /** A new network's DAG: the genesis block as the one tip (and a slot index from the start). */
  static recordGenesis(genesis: GenesisV3, batch: StoreBatch): void {
    batch.put(V3_TABLES.tips, genesisBlockIdV3(genesis.protocolParameters), null);
    recordSlotIndexBuilt(batch);
  }

  /** Start-up: the status, the tips, the unconfirmed blocks and the latest confirmed ones (bounded, see above). */
  async load(store: NodeStore): Promise<void> {
    const status = await store.get(V3_TABLES.meta, 'status');
    if (status !== undefined) this.statusRecord = JSON.parse(status) as StatusRecord;
    for await (const id of store.keys(V3_TABLES.tips)) this.tips.add(key(id));
    const max = this.limits.maxConfirmed;
    let latest: BlockStateV3[] = [];
    const newestFirst = (a: BlockStateV3, b: BlockStateV3): number => b.seq - a.seq;
    const waiting: BlockStateV3[] = [];
    for await (const [id, r] of store.entries(V3_TABLES.blockState)) {
      if (r.seq >= this.nextSeq) this.nextSeq = r.seq + 1;
      const final = r.confirmed || r.orphaned === true;
      if (!r.validation && !final) this.unconfirmedUserBlocks++;
      const b = blockFromRecord(id, r);
      if (!final) {
        this.blocks.set(key(id), b);
        if (!r.accepted) waiting.push(b);
      } else if (this.tips.has(key(id))) this.admit(b);
      else if (latest.push(b) > 2 * max) latest = latest.sort(newestFirst).slice(0, max);
    }
    for (const b of latest.sort(newestFirst).slice(0, max).reverse()) this.admit(b);
    for (const b of waiting.sort((x, y) => x.seq - y.seq)) this.unaccepted.add(key(b.id));
  }

  /** Puts a confirmed block's state back in memory (it leaves again with the oldest, see `trim`). */
  private admit(b: BlockStateV3): void {
    this.blocks.set(key(b.id), b);
    this.confirmedInMemory.push(key(b.id));
  }

  /** A block's state from memory or, for an older confirmed block, from the store (undefined when unknown). */
  async stored(id: Uint8Array, store: NodeStore): Promise<BlockStateV3 | undefined> {
    const b = this.blocks.get(key(id));
    if (b !== undefined) return b;
    const r = await store.get(V3_TABLES.blockState, id);
    return r === undefined ? undefined : blockFromRecord(id, r);
  }

  /**
   * Brings the states of `ids` (a new block's parents) into memory when they are stored, so checks and votes see them.
   */
  async ensureLoaded(ids: readonly Uint8Array[], store: NodeStore): Promise<void> {
    for (const id of ids) {
      if (this.blocks.has(key(id))) continue;
      const r = await store.get(V3_TABLES.blockState, id);
      if (r !== undefined) this.admit(blockFromRecord(id, r));
    }
  }

  /** Lets the oldest confirmed blocks go beyond `maxConfirmed` (tips stay while they are tips). */
  trim(): void {
    const queue = this.confirmedInMemory;
    for (let passes = queue.length; queue.length > this.limits.maxConfirmed && passes > 0; passes--) {
      const k = queue.shift()!;
      if (this.tips.has(k)) queue.push(k);
      else this.blocks.delete(k);
    }
  }

  /** Forgets pruned blocks (pruning.ts): their states, and their tip entries, so tip selection never offers them. */
  forget(ids: readonly Uint8Array[]): void {
    if (ids.length === 0) return;
    const gone = new Set(ids.map(key));
    for (const k of gone) {
      this.blocks.delete(k);
      this.tips.delete(k);
    }
    const queue = this.confirmedInMemory;
    let kept = 0;
    for (const k of queue) if (!gone.has(k)) queue[kept++] = k;
    queue.length = kept;
  }

  /** Block states held in memory (the bound the tests and benchmarks watch). */
  get inMemory(): number {
    return this.blocks.size;
  }

  /** Whether a new basic block must wait: `maxPending` basic blocks are unconfirmed. */
  get full(): boolean {
    return this.unconfirmedUserBlocks >= this.limits.maxPending;
  }

  /** Latest accepted / confirmed slot and tangle time. */
  get status(): Readonly<StatusRecord> {
    return this.statusRecord;
  }

  /** Whether user blocks wait for confirmation. */
  get hasUnconfirmedBlocks(): boolean {
    return this.unconfirmedUserBlocks > 0;
  }

  block(id: Uint8Array): BlockStateV3 | undefined {
    return this.blocks.get(key(id));
  }

  /** Whether any of the blocks in memory `keys` names is a user block (not a validation block). */
  anyUserBlock(keys: readonly string[]): boolean {
    return keys.some((k) => this.blocks.get(k)?.validation === false);
  }

  /** Whether a block in memory is orphaned (a new block must not name it as a parent). */
  isOrphaned(id: Uint8Array): boolean {
    return this.blocks.get(key(id))?.orphaned === true;
  }

  /**
   * The issuing time of a block a new block may name as its parent (an attached block or the genesis), or undefined.
   */
  parentTime(id: Uint8Array): bigint | undefined {
    const parent = this.blocks.get(key(id));
    return parent
      ? parent.issuingTime
      : equalBytes(id, this.network.genesisBlockId)
        ? this.network.genesisTimeNs
        : undefined;
  }

  /** The latest issuing time of `parents` (the genesis time for the genesis block). */
  latestParentTime(parents: readonly Uint8Array[]): bigint {
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
    return parents.reduce((t, p) => (this.tipTime(p) > t ? this.tipTime(p) : t), 0n);
  }

  private tipTime(id: Uint8Array): bigint {
    return this.blocks.get(key(id))?.issuingTime ?? this.network.genesisTimeNs;
  }

  /**
   * Up to 8 tips, the most recently issued first, sorted by ID as the codec requires. Without tips (a store whose
   * orphans left none, see `orphan`), the latest issued block in memory that is not orphaned, then the genesis block.
   */
  selectTips(): Uint8Array[] {
    if (this.tips.size === 0) {
      let latest: BlockStateV3 | undefined;
      for (const b of this.blocks.values()) if (!b.orphaned && b.issuingTime > (latest?.issuingTime ?? -1n)) latest = b;
      return [latest?.id.slice() ?? this.network.genesisBlockId.slice()];
    }
    const all = [...this.tips].map((k) => this.blocks.get(k)?.id ?? fromHex0x(k));
    all.sort((a, b) => {
      const d = this.tipTime(b) - this.tipTime(a);
      return d > 0n ? 1 : d < 0n ? -1 : compareBytes(a, b);
    });
    return all.slice(0, MAX_STRONG_PARENTS_V3).sort(compareBytes);
  }

  /**
   * Attaches a checked block: its bytes, its slot index entry, its state (pending, next in arrival order), and it
   * replaces its strong and weak parents among the tips.
   */
  attach(
    id: Uint8Array,
    bytes: Uint8Array,
    block: BlockV3,
    checked: { seat: number; slot: number; commitmentSlot: number; transactionId?: string },
    batch: StoreBatch,
  ): BlockStateV3 {
    const k = key(id);
    const { body } = block;
    const state: BlockStateV3 = {
      id,
      parents: body.strongParents.map(key),
      seat: checked.seat,
      witnesses: 0n,
      ratifiers: 0n,
      accepted: false,
      confirmed: false,
      slot: checked.slot,
      issuingTime: block.header.issuingTime,
      validation: body.type === 1,
      seq: this.nextSeq++,
      commitmentSlot: checked.commitmentSlot,
    };
    if (checked.transactionId !== undefined) state.transactionId = checked.transactionId;
    if (body.weakParents.length > 0) state.weakParents = body.weakParents.map(key);
    this.blocks.set(k, state);
    this.counts.attached++;
    this.unaccepted.add(k);
    if (!state.validation) this.unconfirmedUserBlocks++;
    batch.put(TABLES.blocks, id, bytes);
    indexBlockSlot(batch, id, state.slot);
    for (const p of [...body.strongParents, ...body.weakParents]) {
      if (this.tips.delete(key(p))) batch.del(V3_TABLES.tips, p);
    }
    this.tips.add(k);
    batch.put(V3_TABLES.tips, id, null);
    return state;
  }

  /**
   * Applies the committee vote of an attached block: the blocks it accepted update the status at once; those it
   * confirmed (`confirmed`, in walk order) go to `confirm`. `changed` holds every state to persist, the block's own.
   */
  vote(block: BlockStateV3): VoteOutcomeV3 {
    const k = key(block.id);
    const outcome = processVoteV3(k, this.blocks, this.network.seats.length);
    outcome.changed.add(k);
    for (const a of outcome.accepted) {
      const b = this.blocks.get(a)!;
      this.unaccepted.delete(a);
      if (b.slot > this.statusRecord.latestAcceptedBlockSlot) this.statusRecord.latestAcceptedBlockSlot = b.slot;
      if (b.issuingTime > BigInt(this.statusRecord.acceptedTangleTime))
        this.statusRecord.acceptedTangleTime = b.issuingTime.toString();
    }
    return outcome;
  }

  /** Notes the blocks one vote confirmed in the status; returns their states. */
  confirm(confirmed: readonly string[]): BlockStateV3[] {
    return confirmed.map((k) => {
      const b = this.blocks.get(k)!;
      this.counts.confirmed++;
      this.confirmedInMemory.push(k);
      if (b.slot > this.statusRecord.latestConfirmedBlockSlot) this.statusRecord.latestConfirmedBlockSlot = b.slot;
      if (b.issuingTime > BigInt(this.statusRecord.confirmedTangleTime))
        this.statusRecord.confirmedTangleTime = b.issuingTime.toString();
      if (!b.validation) this.unconfirmedUserBlocks--;
      return b;
    });
  }

  /** Writes the states a vote changed and the status. */
  persist(changed: Iterable<string>, batch: StoreBatch): void {
    for (const c of changed) batch.put(V3_TABLES.blockState, this.blocks.get(c)!.id, blockRecord(this.blocks.get(c)!));
    batch.put(V3_TABLES.meta, 'status', JSON.stringify(this.statusRecord));
  }

  /**
   * Orphans what the commitment of the slots up to `slot` leaves out (see the file comment): the unaccepted blocks of
   * those slots and every unaccepted block with an orphaned strong parent. Their states go into `batch`, with the tip
   * changes: an orphaned tip leaves the tips, and every strong or weak parent of an orphaned block that is not orphaned
   * and has no child left that is not orphaned becomes a tip again (as iota-core's tip manager does when blocks are
   * removed), so the accepted blocks below an orphaned chain of any length stay referenced. Returns the blocks it
   * orphaned.
   */
  orphan(slot: number, batch: StoreBatch): BlockStateV3[] {
    const out: BlockStateV3[] = [];
    for (const k of this.unaccepted) {
      const b = this.blocks.get(k)!;
      if (b.slot > slot && !b.parents.some((p) => this.blocks.get(p)?.orphaned === true)) continue;
      b.orphaned = true;
      this.unaccepted.delete(k);
      if (!b.validation) this.unconfirmedUserBlocks--;
      this.confirmedInMemory.push(k);
      batch.put(V3_TABLES.blockState, b.id, blockRecord(b));
      out.push(b);
    }
    const freed = new Set<string>();
    for (const b of out) {
      if (this.tips.delete(key(b.id))) batch.del(V3_TABLES.tips, b.id);
      for (const p of [...b.parents, ...(b.weakParents ?? [])]) {
        const parent = this.blocks.get(p);
        if (parent !== undefined && !parent.orphaned && !this.tips.has(p)) freed.add(p);
      }
    }
    if (freed.size > 0) {
      for (const c of this.blocks.values()) {
        if (c.orphaned) continue;
        for (const p of c.parents) freed.delete(p);
        for (const p of c.weakParents ?? []) freed.delete(p);
      }
    }
    for (const p of freed) {
      this.tips.add(p);
      batch.put(V3_TABLES.tips, this.blocks.get(p)!.id, null);
    }
    return out;
  }
}
