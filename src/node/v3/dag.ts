/**
 * The DAG of v3 blocks as the node keeps it: every attached block's state (parents, issuer seat, the committee's
 * witness / ratifier sets, accepted, confirmed, slot, arrival order), the tips, and the status (latest accepted /
 * confirmed slot and tangle time). Acceptance and confirmation come from the committee's votes
 * (core/v3/consensus/committee.ts). Kept in memory (loaded at start); changes go into the caller's store batch.
 */
import { compareBytes, equalBytes, fromHex0x } from '../../core/bytes.ts';
import { TABLES, type NodeStore, type StoreBatch } from '../../core/store/index.ts';
import type { BlockV3 } from '../../core/v3/index.ts';
import { processVoteV3, type VoteBlockV3, type VoteOutcomeV3 } from '../../core/v3/consensus/committee.ts';
import { genesisBlockIdV3, type GenesisV3 } from './genesis-v3.ts';
import { key, type V3Network } from './network.ts';
import { V3_TABLES, type BlockStateRecord, type StatusRecord } from './tables.ts';

export const MAX_STRONG_PARENTS_V3 = 8;

export interface BlockStateV3 extends VoteBlockV3 {
  id: Uint8Array;
  slot: number;
  issuingTime: bigint;
  validation: boolean;
  /** Arrival order at this node (ties between attachments confirmed together in one slot). */
  seq: number;
  transactionId?: string;
}

export type BlockStateNameV3 = 'pending' | 'accepted' | 'confirmed';

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
  return r;
}

function blockFromRecord(id: Uint8Array, r: BlockStateRecord): BlockStateV3 {
  const b: BlockStateV3 = {
    id, parents: r.parents, seat: r.seat, witnesses: BigInt(r.witnesses), ratifiers: BigInt(r.ratifiers), accepted: r.accepted,
    confirmed: r.confirmed, slot: r.slot, issuingTime: BigInt(r.issuingTime), validation: r.validation, seq: r.seq,
  };
  if (r.transactionId !== undefined) b.transactionId = r.transactionId;
  return b;
}

export class V3Dag {
  private readonly network: V3Network;
  private readonly blocks = new Map<string, BlockStateV3>();
  private readonly tips = new Set<string>();
  private statusRecord: StatusRecord;
  /** Blocks that are not validation blocks and not confirmed yet: the validator issues while there are any. */
  private unconfirmedUserBlocks = 0;
  private nextSeq = 0;

  constructor(network: V3Network) {
    this.network = network;
    const t = network.genesisTimeNs.toString();
    const slot = network.params.genesisSlot;
    this.statusRecord = { latestAcceptedBlockSlot: slot, latestConfirmedBlockSlot: slot, acceptedTangleTime: t, confirmedTangleTime: t };
  }

  /** A new network's DAG: the genesis block as the one tip. */
  static recordGenesis(genesis: GenesisV3, batch: StoreBatch): void {
    batch.put(V3_TABLES.tips, genesisBlockIdV3(genesis.protocolParameters), null);
  }

  async load(store: NodeStore): Promise<void> {
    const status = await store.get(V3_TABLES.meta, 'status');
    if (status !== undefined) this.statusRecord = JSON.parse(status) as StatusRecord;
    for await (const [id, r] of store.entries(V3_TABLES.blockState)) {
      const b = blockFromRecord(id, r);
      if (r.seq >= this.nextSeq) this.nextSeq = r.seq + 1;
      this.blocks.set(key(id), b);
      if (!b.validation && !b.confirmed) this.unconfirmedUserBlocks++;
    }
    for await (const id of store.keys(V3_TABLES.tips)) this.tips.add(key(id));
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

  static stateName(b: BlockStateV3): BlockStateNameV3 {
    return b.confirmed ? 'confirmed' : b.accepted ? 'accepted' : 'pending';
  }

  /** The issuing time of a block a new block may name as its parent (an attached block or the genesis), or undefined. */
  parentTime(id: Uint8Array): bigint | undefined {
    const parent = this.blocks.get(key(id));
    return parent ? parent.issuingTime : equalBytes(id, this.network.genesisBlockId) ? this.network.genesisTimeNs : undefined;
  }

  /** The latest issuing time of `parents` (the genesis time for the genesis block). */
  latestParentTime(parents: readonly Uint8Array[]): bigint {
    return parents.reduce((t, p) => (this.tipTime(p) > t ? this.tipTime(p) : t), 0n);
  }

  private tipTime(id: Uint8Array): bigint {
    return this.blocks.get(key(id))?.issuingTime ?? this.network.genesisTimeNs;
  }

  /** Up to 8 tips, the most recently issued first, sorted by ID as the codec requires. */
  selectTips(): Uint8Array[] {
    const all = [...this.tips].map((k) => this.blocks.get(k)?.id ?? fromHex0x(k));
    all.sort((a, b) => {
      const d = this.tipTime(b) - this.tipTime(a);
      return d > 0n ? 1 : d < 0n ? -1 : compareBytes(a, b);
    });
    const chosen = all.slice(0, MAX_STRONG_PARENTS_V3);
    return chosen.length > 0 ? chosen.sort(compareBytes) : [this.network.genesisBlockId.slice()];
  }

  /**
   * Attaches a checked block: its bytes, its state (pending, next in arrival order), and it replaces its strong and
   * weak parents among the tips.
   */
  attach(id: Uint8Array, bytes: Uint8Array, block: BlockV3, checked: { seat: number; slot: number; transactionId?: string }, batch: StoreBatch): BlockStateV3 {
    const k = key(id);
    const { body } = block;
    const state: BlockStateV3 = {
      id, parents: body.strongParents.map(key), seat: checked.seat, witnesses: 0n, ratifiers: 0n, accepted: false, confirmed: false, slot: checked.slot,
      issuingTime: block.header.issuingTime, validation: body.type === 1, seq: this.nextSeq++,
    };
    if (checked.transactionId !== undefined) state.transactionId = checked.transactionId;
    this.blocks.set(k, state);
    if (!state.validation) this.unconfirmedUserBlocks++;
    batch.put(TABLES.blocks, id, bytes);
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
      if (b.slot > this.statusRecord.latestAcceptedBlockSlot) this.statusRecord.latestAcceptedBlockSlot = b.slot;
      if (b.issuingTime > BigInt(this.statusRecord.acceptedTangleTime)) this.statusRecord.acceptedTangleTime = b.issuingTime.toString();
    }
    return outcome;
  }

  /** Notes the blocks one vote confirmed in the status; returns their states. */
  confirm(confirmed: readonly string[]): BlockStateV3[] {
    return confirmed.map((k) => {
      const b = this.blocks.get(k)!;
      if (b.slot > this.statusRecord.latestConfirmedBlockSlot) this.statusRecord.latestConfirmedBlockSlot = b.slot;
      if (b.issuingTime > BigInt(this.statusRecord.confirmedTangleTime)) this.statusRecord.confirmedTangleTime = b.issuingTime.toString();
      if (!b.validation) this.unconfirmedUserBlocks--;
      return b;
    });
  }

  /** Writes the states a vote changed and the status. */
  persist(changed: Iterable<string>, batch: StoreBatch): void {
    for (const c of changed) batch.put(V3_TABLES.blockState, this.blocks.get(c)!.id, blockRecord(this.blocks.get(c)!));
    batch.put(V3_TABLES.meta, 'status', JSON.stringify(this.statusRecord));
  }
}
