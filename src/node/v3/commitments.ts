/**
 * The node's slot commitments (issue 24; docs/protocol.md §V7.12, docs/decisions.md §36) and the latest finalized
 * slot.
 *
 * Committing: slot S becomes committable once a block of slot S + minCommittableAge or later is ACCEPTED, as in
 * iota-core's notarization (the built-in validator issues a round every interval, so accepted blocks keep coming on an
 * idle network), capped by the clock: never beyond the clock's slot minus minCommittableAge minus COMMIT_LAG_SLOTS. A
 * clock step or a stop commits nothing without accepted blocks, as long as the latest commitment stays young enough
 * for a block of the clock's slot (TIP-46: at most maxCommittableAge older); past that, no block could be issued or
 * accepted again, so the node commits up to the clock's cap, as iota-core's validator forces (`ForceCommitUntil`).
 * The lag leaves a client whose clock is behind the node's room on that path. `catchUp` commits every committable
 * slot in turn, empty slots too, each chained to the one before (core/v3/commitment/build.ts): the slot's accepted
 * blocks (tangle root; their work sets the reference Mana cost), the transactions applied since that its commitment
 * covers (ledger.ts `takeMutations`; the outputs they created and consumed are the slot's UTXO changes,
 * utxo-changes.ts), the seats' attestations, the fixed committee and parameters roots. What was not accepted in the
 * committed slots is orphaned first (dag.ts), so nothing is ever accepted into a committed slot, and a pending
 * transaction left with orphaned attachments only fails as orphaned (ledger.ts `failOrphaned`). Up to COMMIT_BATCH
 * slots go into one atomic store batch with the orphans, the failed and the covered transaction records, the slots'
 * UTXO changes and the `commitments` meta record.
 *
 * Kept: every commitment (89 bytes a slot: about 7.7 MB a day with 1-second slots, 0.8 MB with 10-second slots), as
 * iota-core keeps them in its permanent storage; the 256-byte roots and the UTXO changes go with the slot's blocks
 * when pruning. In memory: the latest maxCommittableAge + 1 commitments (every commitment a new block may name) and
 * the genesis one.
 *
 * Finality (core/v3/consensus/finality.ts): confirmed blocks of seats vote for the commitment slot they name.
 */
import { equalBytes, fromHex0x, toHex0x } from '../../core/bytes.ts';
import type { NodeStore, StoreBatch } from '../../core/store/index.ts';
import {
  attestationsForSlotV3,
  blockHashesV3,
  buildSlotCommitmentV3,
  compareAttestationsV3,
  decodeBlockV3,
  decodeSlotCommitmentV3,
  encodeSlotCommitmentV3,
  encodeSlotRootsV3,
  idSetRootV3,
  slotCommitmentIdV3,
  slotFromTime,
  slotOfId,
  versionsAndProtocolParametersHashV3,
  workScore,
  type AttestationV3,
  type SlotCommitmentV3,
} from '../../core/v3/index.ts';
import { SlotFinalityV3 } from '../../core/v3/consensus/finality.ts';
import type { BlockStateV3, V3Dag } from './dag.ts';
import type { V3Ledger } from './ledger.ts';
import type { V3Network } from './network.ts';
import { V3_TABLES, type CommitmentsRecordV3 } from './tables.ts';
import { utxoChangesV3 } from './utxo-changes.ts';

/** Slots committed in one store batch. */
export const COMMIT_BATCH = 256;
/**
 * Slots the commitments trail the clock by at least, beyond minCommittableAge: a client whose clock is up to this many
 * slots behind the node's still names a commitment old enough for its block (2 s with the dev network's 1-second
 * slots) when the node commits up to the clock (a latest commitment too old); on accepted blocks a client building on
 * the tips issues after the accepted block anyway (test/node/v3/commitment-lag.test.ts).
 */
export const COMMIT_LAG_SLOTS = 2;
export const V3_META_COMMITMENTS = 'commitments';

export interface CommitmentEntryV3 {
  commitment: SlotCommitmentV3;
  id: Uint8Array;
}

export class V3Commitments {
  private readonly network: V3Network;
  private readonly store: NodeStore;
  private readonly genesis: CommitmentEntryV3;
  /** The latest maxCommittableAge + 1 commitments by slot. */
  private readonly recent = new Map<number, CommitmentEntryV3>();
  private latestEntry: CommitmentEntryV3;
  /** False for a store of the older layout until the first commit batch writes the genesis commitment. */
  private genesisStored = true;
  private readonly attestations = new Map<number, AttestationV3>();
  private finality: SlotFinalityV3;
  private readonly committeeRoot: Uint8Array;
  private readonly parametersRoot: Uint8Array;
  /** Told after `catchUp` committed slots (reads-network.ts measures the network metrics then). */
  private readonly listeners = new Set<(latestSlot: number) => void>();
  /** Committable slots the last `catchUp` left for later (its `maxSlots`). */
  behind = 0;

  constructor(
    network: V3Network,
    store: NodeStore,
    private readonly lagSlots: number = COMMIT_LAG_SLOTS,
  ) {
    this.network = network;
    this.store = store;
    this.genesis = { commitment: network.genesisCommitment, id: network.genesisCommitmentId };
    this.latestEntry = this.genesis;
    const { params } = network;
    this.finality = new SlotFinalityV3(network.seats.length, params.genesisSlot, params.maxCommittableAge);
    this.committeeRoot = idSetRootV3(network.seats.map((s) => s.accountId));
    this.parametersRoot = versionsAndProtocolParametersHashV3([
      { version: params.version, startEpoch: 0, parametersHash: network.protocolParametersHash },
    ]);
  }

  /** A new network: the genesis commitment at the genesis slot. */
  static recordGenesis(network: V3Network, batch: StoreBatch): void {
    batch.put(V3_TABLES.commitments, network.params.genesisSlot, encodeSlotCommitmentV3(network.genesisCommitment));
  }

  /** Start-up: the latest commitments, the latest finalized slot and the seats' attestations. */
  async load(): Promise<void> {
    const keep = this.network.params.maxCommittableAge + 1;
    const newestFirst: CommitmentEntryV3[] = [];
    for await (const [, bytes] of this.store.entries(V3_TABLES.commitments, { reverse: true, limit: keep })) {
      const commitment = decodeSlotCommitmentV3(bytes);
      newestFirst.push({ commitment, id: slotCommitmentIdV3(commitment) });
    }
    this.genesisStored = newestFirst.length > 0;
    for (const e of newestFirst.reverse()) this.remember(e);
    const text = await this.store.get(V3_TABLES.meta, V3_META_COMMITMENTS);
    if (text === undefined) return;
    const r = JSON.parse(text) as CommitmentsRecordV3;
    const { params } = this.network;
    this.finality = new SlotFinalityV3(this.network.seats.length, r.latestFinalizedSlot, params.maxCommittableAge);
    for (const a of r.attestations)
      this.attestations.set(a.seat, {
        accountId: this.network.seats[a.seat]!.accountId,
        blockId: fromHex0x(a.blockId),
        commitmentSlot: a.commitmentSlot,
        issuingTime: BigInt(a.issuingTime),
        bodyHash: fromHex0x(a.bodyHash),
      });
  }

  private remember(e: CommitmentEntryV3): void {
    this.recent.set(e.commitment.slot, e);
    this.recent.delete(e.commitment.slot - this.network.params.maxCommittableAge - 1);
    this.latestEntry = e;
  }

  get latest(): Readonly<CommitmentEntryV3> {
    return this.latestEntry;
  }

  get latestSlot(): number {
    return this.latestEntry.commitment.slot;
  }

  get latestFinalizedSlot(): number {
    return this.finality.latestFinalizedSlot;
  }

  /**
   * A commitment a new block may name, if this node made it: one of the latest maxCommittableAge + 1 or the genesis
   * one (older ones are outside every new block's window).
   */
  known(id: Uint8Array): SlotCommitmentV3 | undefined {
    if (id.length !== 36) return undefined;
    const e = [this.genesis, ...this.recent.values()].find((c) => equalBytes(c.id, id));
    return e?.commitment;
  }

  /** The latest commitment a block of `blockSlot` may name (its slot at most blockSlot − minCommittableAge). */
  forBlockSlot(blockSlot: number): Readonly<CommitmentEntryV3> {
    const { genesisSlot, minCommittableAge } = this.network.params;
    for (let s = Math.min(this.latestSlot, blockSlot - minCommittableAge); s > genesisSlot; s--) {
      const e = this.recent.get(s);
      if (e !== undefined) return e;
    }
    return this.genesis;
  }

  /** The commitment of `slot`, from the store (undefined when the slot is not committed). */
  async bySlot(slot: number): Promise<CommitmentEntryV3 | undefined> {
    const cached = this.recent.get(slot) ?? (slot === this.genesis.commitment.slot ? this.genesis : undefined);
    if (cached !== undefined) return cached;
    if (!Number.isInteger(slot) || slot < 0 || slot > this.latestSlot) return undefined;
    const bytes = await this.store.get(V3_TABLES.commitments, slot);
    if (bytes === undefined) return undefined;
    const commitment = decodeSlotCommitmentV3(bytes);
    return { commitment, id: slotCommitmentIdV3(commitment) };
  }

  /** The commitment with ID `id` (undefined when this node made none with that ID). */
  async byId(id: Uint8Array): Promise<CommitmentEntryV3 | undefined> {
    if (id.length !== 36) return undefined;
    const e = await this.bySlot(slotOfId(id));
    return e !== undefined && equalBytes(e.id, id) ? e : undefined;
  }

  /**
   * The latest committable slot: the slot of the latest accepted block minus minCommittableAge (iota-core's
   * notarization commits on accepted blocks), never beyond the clock's slot minus minCommittableAge minus the lag, and
   * never before the latest commitment.
   */
  committableSlot(nowNs: bigint, latestAcceptedBlockSlot: number): number {
    const { params } = this.network;
    const clockSlot = slotFromTime(nowNs, params);
    const byClock = clockSlot - params.minCommittableAge - this.lagSlots;
    // A latest commitment too old for a block of the clock's slot is followed by committing up to the clock, as
    // iota-core's validator does (`ForceCommitUntil`): otherwise no block could be issued, accepted nor commit again.
    const stale = clockSlot - params.maxCommittableAge > this.latestSlot;
    const byAccepted = stale ? byClock : latestAcceptedBlockSlot - params.minCommittableAge;
    return Math.max(params.genesisSlot, this.latestSlot, Math.min(byClock, byAccepted));
  }

  /**
   * Commits the committable slots (see the file comment), at most `maxSlots` of them (catch-up.ts: a long stop's in
   * chunks); `behind` tells how many are left. Memory changes with each batch, so a failing commit must stop the engine
   * (the engine's caller does). Returns the number of slots committed.
   */
  async catchUp(nowNs: bigint, dag: V3Dag, ledger: V3Ledger, maxSlots = Number.POSITIVE_INFINITY): Promise<number> {
    const target = this.committableSlot(nowNs, dag.status.latestAcceptedBlockSlot);
    const last = Math.min(target, this.latestSlot + maxSlots);
    let committed = 0;
    while (this.latestSlot < last) {
      const from = this.latestSlot + 1;
      const to = Math.min(last, from + COMMIT_BATCH - 1);
      const batch = this.store.batch();
      if (!this.genesisStored) V3Commitments.recordGenesis(this.network, batch);
      const bySlot = new Map<number, Uint8Array[]>();
      const range = {
        gte: { slot: from, blockId: new Uint8Array(0) },
        lt: { slot: to + 1, blockId: new Uint8Array(0) },
      };
      for await (const k of this.store.keys(V3_TABLES.slotBlocks, range)) {
        const list = bySlot.get(k.slot) ?? [];
        list.push(k.blockId);
        bySlot.set(k.slot, list);
      }
      const orphaned = dag.orphan(to, batch);
      await ledger.failOrphaned(orphaned, (id) => dag.stored(id, this.store), batch);
      for (let slot = from; slot <= to; slot++) await this.commitSlot(slot, bySlot.get(slot) ?? [], dag, ledger, batch);
      batch.put(V3_TABLES.meta, V3_META_COMMITMENTS, JSON.stringify(this.record()));
      await batch.commit({ sync: true });
      this.genesisStored = true;
      committed += to - from + 1;
    }
    this.behind = target - this.latestSlot;
    if (committed > 0) for (const fn of this.listeners) fn(this.latestSlot);
    return committed;
  }

  /** Calls `fn` with the latest slot whenever `catchUp` committed slots; returns the function that stops it. */
  onCommitted(fn: (latestSlot: number) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** A seat's latest attestation: its best accepted validation block in a committed slot (undefined: none yet). */
  attestation(seat: number): Readonly<AttestationV3> | undefined {
    return this.attestations.get(seat);
  }

  private async commitSlot(
    slot: number,
    blockIds: readonly Uint8Array[],
    dag: V3Dag,
    ledger: V3Ledger,
    batch: StoreBatch,
  ): Promise<void> {
    const { params } = this.network;
    const accepted: Uint8Array[] = [];
    let slotWork = 0;
    for (const id of blockIds) {
      const state = await dag.stored(id, this.store);
      if (state?.accepted !== true) continue;
      accepted.push(id);
      const raw = await this.store.getBlock(id);
      if (raw === undefined) continue;
      const block = decodeBlockV3(raw, params);
      slotWork += workScore(block, params.workScoreParameters);
      if (block.body.type === 1 && state.seat >= 0) this.attest(state, block.header, blockHashesV3(raw).bodyHash);
    }
    const mutations = ledger.takeMutations(slot, batch);
    const built = buildSlotCommitmentV3({
      params,
      previous: this.latestEntry.commitment,
      acceptedBlockIds: accepted,
      slotWork,
      mutations,
      attestations: attestationsForSlotV3(this.attestations.values(), slot, params),
      committeeRoot: this.committeeRoot,
      protocolParametersHash: this.parametersRoot,
    });
    batch.put(V3_TABLES.commitments, slot, encodeSlotCommitmentV3(built.commitment));
    batch.put(V3_TABLES.roots, slot, encodeSlotRootsV3(built.roots));
    batch.put(V3_TABLES.utxoChanges, slot, await utxoChangesV3(mutations, ledger, this.store, params));
    this.remember({ commitment: built.commitment, id: built.commitmentId });
  }

  /** An accepted validation block of a seat becomes its attestation when it beats the one it has. */
  private attest(
    state: BlockStateV3,
    header: { issuerId: Uint8Array; slotCommitmentId: Uint8Array; issuingTime: bigint },
    bodyHash: Uint8Array,
  ): void {
    const a: AttestationV3 = {
      accountId: header.issuerId,
      blockId: state.id,
      commitmentSlot: slotOfId(header.slotCommitmentId),
      issuingTime: header.issuingTime,
      bodyHash,
    };
    const current = this.attestations.get(state.seat);
    if (current === undefined || compareAttestationsV3(a, current) > 0) this.attestations.set(state.seat, a);
  }

  /** The votes of the blocks one vote confirmed (seats' blocks only); a new finalized slot goes into `batch`. */
  confirmed(blocks: readonly BlockStateV3[], batch: StoreBatch): void {
    const before = this.finality.latestFinalizedSlot;
    for (const b of blocks)
      if (b.seat >= 0 && b.commitmentSlot !== undefined) this.finality.vote(b.slot, b.seat, b.commitmentSlot);
    if (this.finality.latestFinalizedSlot !== before)
      batch.put(V3_TABLES.meta, V3_META_COMMITMENTS, JSON.stringify(this.record()));
  }

  private record(): CommitmentsRecordV3 {
    return {
      latestFinalizedSlot: this.finality.latestFinalizedSlot,
      attestations: [...this.attestations.entries()].map(([seat, a]) => ({
        seat,
        blockId: toHex0x(a.blockId),
        commitmentSlot: a.commitmentSlot,
        issuingTime: a.issuingTime.toString(),
        bodyHash: toHex0x(a.bodyHash),
      })),
    };
  }
}
