/**
 * The v3 ledger of the node (core/v3/ledger does the semantic checks): the outputs, the transactions with their
 * state and included block, and the Mana allotted to accounts. A transaction is admitted when a block first carries
 * it (checked against the confirmed ledger) and applied when the committee confirms an attachment of it. Kept in
 * memory (loaded at start); changes go into the caller's store batch. A new transaction that passes every check but
 * spends an output an applied transaction spent (a double spend's loser) is admitted as failed, 1 or 3 (failures.ts),
 * as iota-core books it and fails it; any other fault refuses the block.
 *
 * Included block (docs/decisions.md §16: the earliest CONFIRMED attachment, lowest slot, first confirmed in a slot):
 * a transaction is applied when its first attachment is confirmed. All attachments confirmed by that same vote are
 * candidates; the one in the lowest slot wins, ties go to the one the node received first. That block is
 * recorded with the transaction and NEVER changes afterwards: an attachment in a lower slot that is confirmed by a
 * later vote does not replace it (iota-core would move to the lower slot until the slot is committed; we keep every
 * answer stable once given). A transaction whose confirmed attachment fails the ledger checks (e.g. the loser of a
 * double spend) is marked failed and never gets an included block. Transactions confirmed by the same vote are
 * applied in the order of their chosen attachments (slot, then arrival), so of two conflicting transactions
 * confirmed together the one attached in the earlier slot (then: received first) wins.
 *
 * Slot commitments (commitments.ts) cover the applied transactions: the commitment of slot S takes every applied
 * transaction not covered yet whose included block is in slot S or earlier (`takeMutations`), and the record notes
 * S as its `committedSlot`. A failure carries iota.go's numeric reason (api/core.go; docs/protocol.md §V7.12).
 *
 * Orphaned (docs/decisions.md §36): a pending transaction whose every attachment a slot commitment orphaned fails with
 * reason 2 (`failOrphaned`, in the commitment's batch). Unlike the other failures it is not final: the transaction
 * was never judged, so a later block may carry it again (checked against the ledger anew, pending again), as in
 * iota-core, whose mempool evicts it. Pruning deletes its record with its last attachment (pruning.ts).
 */
import { fromHex0x, toHex0x } from '../../core/bytes.ts';
import type { NodeStore, StoreBatch } from '../../core/store/index.ts';
import {
  decodeBlockV3,
  decodeOutputV3,
  encodeOutputV3,
  outputIdV3,
  slotOfId,
  type OutputV3,
  type SignedTransactionPayloadV3,
} from '../../core/v3/index.ts';
import { transactionFailureV3, type ResolvedInputV3 } from '../../core/v3/ledger/semantic.ts';
import { NodeError } from '../support/errors.ts';
import type { BlockStateV3 } from './dag.ts';
import {
  conflictFailureV3,
  isOrphanedV3,
  ledgerFailureV3,
  TX_FAILURE_V3,
  type FailureMomentV3,
  type LedgerFailure,
} from './failures.ts';
import { genesisOutputIdsV3, type GenesisV3 } from './genesis-v3.ts';
import { key, type V3Network } from './network.ts';
import { V3_TABLES, type OutputRecord, type TransactionRecord } from './tables.ts';

interface OutputState {
  output: OutputV3;
  creationSlot: number;
  spentBy?: string;
}

export { isOrphanedV3, TX_FAILURE_V3 } from './failures.ts';

function outputRecord(o: OutputState): OutputRecord {
  const r: OutputRecord = { output: toHex0x(encodeOutputV3(o.output)), creationSlot: o.creationSlot };
  if (o.spentBy !== undefined) r.spentBy = o.spentBy;
  return r;
}

/** A confirmed block as the ledger sees it: which transaction it carries, where and when it arrived. */
export type AttachmentV3 = Pick<BlockStateV3, 'id' | 'slot' | 'seq' | 'transactionId'>;

export class V3Ledger {
  private readonly network: V3Network;
  private readonly store: NodeStore;
  private readonly outputs = new Map<string, OutputState>();
  private readonly transactions = new Map<string, TransactionRecord>();
  private readonly accountMana = new Map<string, bigint>();
  /** Applied transactions no slot commitment covers yet -> the slot of their included block. */
  private readonly uncommitted = new Map<string, number>();
  /** The lowest slot in `uncommitted` (or a lower bound of it); +Infinity when empty. */
  private earliestUncommitted = Number.POSITIVE_INFINITY;

  constructor(network: V3Network, store: NodeStore) {
    this.network = network;
    this.store = store;
  }

  /** A new network's ledger: the genesis outputs, created in the genesis slot. */
  static recordGenesis(genesis: GenesisV3, batch: StoreBatch): void {
    const ids = genesisOutputIdsV3(genesis);
    genesis.outputs.forEach((o, i) => {
      batch.put(
        V3_TABLES.outputs,
        ids[i]!,
        outputRecord({ output: o, creationSlot: genesis.protocolParameters.genesisSlot }),
      );
    });
  }

  async load(): Promise<void> {
    for await (const [id, r] of this.store.entries(V3_TABLES.outputs)) {
      const o: OutputState = { output: decodeOutputV3(fromHex0x(r.output)), creationSlot: r.creationSlot };
      if (r.spentBy !== undefined) o.spentBy = r.spentBy;
      this.outputs.set(key(id), o);
    }
    for await (const [id, r] of this.store.entries(V3_TABLES.transactions)) {
      this.transactions.set(key(id), r);
      if (r.state === 'confirmed' && r.committedSlot === undefined && r.includedBlockId !== undefined)
        this.noteUncommitted(key(id), slotOfId(fromHex0x(r.includedBlockId)));
    }
    for await (const [id, m] of this.store.entries(V3_TABLES.accountMana)) this.accountMana.set(key(id), m);
  }

  // ---------------------------------------------------------------- admission

  /**
   * Checks a transaction a submitted block carries: refused when it failed before (but for orphaned: judged anew), or
   * (when new) when it does not pass the ledger checks against the confirmed ledger. A new transaction whose only fault
   * is an input an applied transaction spent is admitted as failed, as iota-core books the loser of a double spend
   * (see the file comment). Returns whether it is new, and that failure.
   */
  admit(
    payload: SignedTransactionPayloadV3,
    txKey: string,
    blockCommitmentSlot: number,
  ): { isNew: boolean; failed?: LedgerFailure } {
    let known = this.transactions.get(txKey);
    if (isOrphanedV3(known)) known = undefined; // attached again: judged anew
    if (known?.state === 'failed')
      throw new NodeError(
        'INVALID_REQUEST',
        `invalid transaction ${txKey}: it failed before: ${known.failureReason ?? ''}`,
      );
    if (known !== undefined) return { isNew: false };
    const failure = this.failure(payload, txKey, blockCommitmentSlot, 'intake');
    if (failure !== undefined && !failure.conflict)
      throw new NodeError('INVALID_REQUEST', `invalid transaction ${txKey}: ${failure.message}`);
    return failure === undefined ? { isNew: true } : { isNew: true, failed: failure };
  }

  /** Records an attachment of an admitted transaction (a new one as pending, or as failed when `admit` said so). */
  addAttachment(
    txKey: string,
    blockId: Uint8Array,
    admitted: { isNew: boolean; failed?: LedgerFailure },
    batch: StoreBatch,
  ): void {
    batch.addTransactionBlock(fromHex0x(txKey), blockId);
    if (admitted.isNew) {
      const f = admitted.failed;
      const rec: TransactionRecord = f
        ? { state: 'failed', failureCode: f.code, failureReason: f.message }
        : { state: 'pending' };
      this.transactions.set(txKey, rec);
      batch.put(V3_TABLES.transactions, fromHex0x(txKey), rec);
    }
  }

  /**
   * Fails as orphaned (reason 2) each pending transaction carried by a block of `orphaned` (what a slot commitment just
   * orphaned, dag.ts) whose attachments are all orphaned now; `stateOf` reads an attachment's state (memory or store).
   */
  async failOrphaned(
    orphaned: readonly Pick<BlockStateV3, 'transactionId'>[],
    stateOf: (id: Uint8Array) => Promise<Pick<BlockStateV3, 'orphaned'> | undefined>,
    batch: StoreBatch,
  ): Promise<void> {
    const txKeys = new Set<string>();
    for (const b of orphaned) if (b.transactionId !== undefined) txKeys.add(b.transactionId);
    for (const txKey of txKeys) {
      if (this.transactions.get(txKey)?.state !== 'pending') continue;
      let live = false;
      for (const id of await this.store.transactionBlocks(fromHex0x(txKey))) {
        const state = await stateOf(id);
        if (state !== undefined && state.orphaned !== true) live = true;
        if (live) break;
      }
      if (live) continue;
      const next: TransactionRecord = {
        state: 'failed',
        failureCode: TX_FAILURE_V3.orphaned,
        failureReason: 'ORPHANED: every attachment was orphaned (not accepted when its slot was committed)',
      };
      this.transactions.set(txKey, next);
      batch.put(V3_TABLES.transactions, fromHex0x(txKey), next);
    }
  }

  /**
   * Why the transaction cannot be applied to the ledger as it is, or undefined when it can. The ledger checks run on
   * the inputs even when one is spent, so a spent input is the answer only when nothing else fails (`conflict`).
   */
  private failure(
    payload: SignedTransactionPayloadV3,
    txKey: string,
    blockCommitmentSlot: number,
    when: FailureMomentV3,
  ): LedgerFailure | undefined {
    const inputs = this.resolveInputs(payload);
    if (!Array.isArray(inputs)) return inputs;
    const ctx = {
      params: this.network.params,
      blockCommitmentSlot,
      isKnownAccount: (id: Uint8Array) => this.network.account(id) !== undefined,
    };
    const failure = transactionFailureV3(payload, inputs, ctx);
    if (failure) return ledgerFailureV3(failure);
    const i = inputs.findIndex((o) => o.spentBy !== undefined && o.spentBy !== txKey);
    if (i < 0) return undefined;
    const spender = inputs[i]!.spentBy!;
    const r = this.transactions.get(spender);
    // a spender without a record went with pruning, which only prunes committed slots
    const committed = r === undefined || r.committedSlot !== undefined;
    return conflictFailureV3(payload, i, { txKey: spender, committed, slot: r?.committedSlot }, when);
  }

  /** The consumed outputs with their spender, or why they cannot be consumed: unknown (reason 255). */
  private resolveInputs(
    payload: SignedTransactionPayloadV3,
  ): (ResolvedInputV3 & { spentBy?: string })[] | LedgerFailure {
    const out: (ResolvedInputV3 & { spentBy?: string })[] = [];
    for (const [i, input] of payload.transaction.inputs.entries()) {
      const oid = key(outputIdV3(input.transactionId, input.transactionOutputIndex));
      const o = this.outputs.get(oid);
      if (o === undefined)
        return {
          code: TX_FAILURE_V3.semanticValidationFailed,
          message: `input ${i} (${oid}) is not an output of the confirmed ledger`,
        };
      out.push({ output: o.output, creationSlot: o.creationSlot, ...(o.spentBy ? { spentBy: o.spentBy } : {}) });
    }
    return out;
  }

  // ---------------------------------------------------------------- confirmation

  /** Ledger effects of the blocks one vote confirmed (see the included-block rule above). */
  async applyConfirmed(confirmed: readonly AttachmentV3[], batch: StoreBatch): Promise<void> {
    const candidates = new Map<string, AttachmentV3>();
    for (const b of confirmed) {
      if (b.transactionId === undefined) continue;
      const best = candidates.get(b.transactionId);
      if (best === undefined || b.slot < best.slot || (b.slot === best.slot && b.seq < best.seq))
        candidates.set(b.transactionId, b);
    }
    const ordered = [...candidates.entries()].sort(([, a], [, b]) => a.slot - b.slot || a.seq - b.seq);
    for (const [txKey, block] of ordered) {
      const rec = this.transactions.get(txKey);
      if (rec === undefined || rec.state !== 'pending') continue; // applied or failed before: never changes
      const raw = await this.store.getBlock(block.id);
      if (raw === undefined) throw new NodeError('INTERNAL', `v3 block ${key(block.id)} is not stored`);
      const decoded = decodeBlockV3(raw, this.network.params);
      const payload = (decoded.body as { payload: SignedTransactionPayloadV3 }).payload;
      const failure = this.failure(payload, txKey, slotOfId(decoded.header.slotCommitmentId), 'confirmation');
      let next: TransactionRecord;
      if (failure !== undefined) {
        next = { state: 'failed', failureCode: failure.code, failureReason: failure.message };
      } else {
        next = { state: 'confirmed', includedBlockId: key(block.id) };
        this.applyTransaction(payload, txKey, batch);
        this.noteUncommitted(txKey, block.slot);
      }
      this.transactions.set(txKey, next);
      batch.put(V3_TABLES.transactions, fromHex0x(txKey), next);
    }
  }

  private applyTransaction(payload: SignedTransactionPayloadV3, txKey: string, batch: StoreBatch): void {
    const tx = payload.transaction;
    for (const input of tx.inputs) {
      const oid = outputIdV3(input.transactionId, input.transactionOutputIndex);
      const o = this.outputs.get(key(oid))!;
      o.spentBy = txKey;
      batch.put(V3_TABLES.outputs, oid, outputRecord(o));
    }
    const txId = fromHex0x(txKey);
    tx.outputs.forEach((output, i) => {
      const oid = outputIdV3(txId, i);
      const o: OutputState = { output, creationSlot: tx.creationSlot };
      this.outputs.set(key(oid), o);
      batch.put(V3_TABLES.outputs, oid, outputRecord(o));
    });
    for (const a of tx.allotments) {
      const m = (this.accountMana.get(key(a.accountId)) ?? 0n) + a.mana;
      this.accountMana.set(key(a.accountId), m);
      batch.put(V3_TABLES.accountMana, a.accountId, m);
    }
  }

  private noteUncommitted(txKey: string, includedSlot: number): void {
    this.uncommitted.set(txKey, includedSlot);
    if (includedSlot < this.earliestUncommitted) this.earliestUncommitted = includedSlot;
  }

  /**
   * The mutations the commitment of `slot` covers: every applied transaction not covered yet whose included block is
   * in `slot` or earlier; their records note `slot` (into `batch`). Returns their IDs.
   */
  takeMutations(slot: number, batch: StoreBatch): Uint8Array[] {
    const out: Uint8Array[] = [];
    if (this.earliestUncommitted > slot) return out; // most slots: nothing due, no walk
    this.earliestUncommitted = Number.POSITIVE_INFINITY;
    for (const [txKey, includedSlot] of this.uncommitted) {
      if (includedSlot > slot) {
        this.earliestUncommitted = Math.min(this.earliestUncommitted, includedSlot);
        continue;
      }
      this.uncommitted.delete(txKey);
      const rec = this.transactions.get(txKey);
      if (rec === undefined) continue;
      rec.committedSlot = slot;
      batch.put(V3_TABLES.transactions, fromHex0x(txKey), rec);
      out.push(fromHex0x(txKey));
    }
    return out;
  }

  /**
   * Forgets what pruning deleted (pruning.ts): the records of transactions whose included block went (or, orphaned,
   * their last attachment), the outputs they spent.
   */
  forget(transactions: readonly string[], outputs: readonly Uint8Array[]): void {
    for (const t of transactions) {
      this.transactions.delete(t);
      this.uncommitted.delete(t);
    }
    for (const o of outputs) this.outputs.delete(key(o));
  }

  // ---------------------------------------------------------------- reads

  /** A transaction's record by its map key (undefined when unknown). */
  transaction(txKey: string): TransactionRecord | undefined {
    return this.transactions.get(txKey);
  }

  /** The included block of a transaction; NOT_FOUND before confirmation, for a failed or an unknown transaction. */
  includedBlockId(txId: Uint8Array): Uint8Array {
    const t = this.transactions.get(key(txId));
    if (t?.includedBlockId === undefined)
      throw new NodeError('NOT_FOUND', `transaction not included: ${toHex0x(txId)}`);
    return fromHex0x(t.includedBlockId);
  }

  /** An output of the v3 ledger (undefined when unknown). */
  output(
    outputId: Uint8Array,
  ): { output: OutputV3; creationSlot: number; spent: boolean; spentBy?: string } | undefined {
    const o = this.outputs.get(key(outputId));
    return o && { output: o.output, creationSlot: o.creationSlot, spent: o.spentBy !== undefined, spentBy: o.spentBy };
  }

  allottedMana(accountId: Uint8Array): bigint {
    return this.accountMana.get(key(accountId)) ?? 0n;
  }
}
