/**
 * The node's IOTA 2.0 (v3) part, composed of:
 *   network.ts           the fixed facts of the network (from its genesis section)
 *   intake.ts            reading a submission and the node-level checks of a block
 *   dag.ts               the DAG: block states, tips, acceptance / confirmation by the committee's votes
 * (core/v3/consensus)
 *   ledger.ts            the v3 ledger (core/v3/ledger): outputs, transactions, Mana, the included-block rule
 *   validation-block.ts  the validation blocks of the built-in validator
 *   info.ts              the info and issuance JSON
 *   pruning.ts           pruning by time: the confirmed blocks older than the v2 pruning index's milestone
 *
 * Every change (a submitted block or a validation block) runs alone (one queue) and is written in ONE store batch:
 * the block, its state, the tips, the states the committee vote changed, the ledger effects of what became
 * confirmed and the status. The states votes still work on are kept in memory (dag.ts: the unconfirmed blocks, the
 * tips and the latest confirmed ones, within V3DagLimits); older ones are read from the store.
 */
import { fromHex0x, toHex0x } from '../../core/bytes.ts';
import type { NodeStore } from '../../core/store/index.ts';
import {
  blockIdV3,
  blockToJsonV3,
  decodeBlockV3,
  encodeBlockV3,
  slotFromTime,
  type BlockV3,
  type OutputV3,
  type ProtocolParametersV3,
  type SlotCommitmentV3,
} from '../../core/v3/index.ts';
import { NodeError } from '../support/errors.ts';
import { V3Dag, type BlockStateNameV3, type V3DagLimits } from './dag.ts';
import { genesisV3FromJson, genesisV3ToJson, type GenesisAccountV3, type GenesisV3 } from './genesis-v3.ts';
import { infoJsonV3, issuanceJsonV3 } from './info.ts';
import { checkBlockV3, readSubmissionV3 } from './intake.ts';
import { V3Ledger } from './ledger.ts';
import { key, V3Network } from './network.ts';
import {
  ensureSlotIndex,
  prunedNoteV3,
  pruneSlotEntries,
  readPruningV3,
  slotEntriesBefore,
  V3_PRUNE_BATCH,
  writePruningV3,
  type V3PruneProgress,
} from './pruning.ts';
import {
  V3_TABLES,
  type PruningRecordV3,
  type SlotBlockKey,
  type TransactionRecord,
  type TransactionStateV3,
} from './tables.ts';
import { validationBlockV3 } from './validation-block.ts';

export { MAX_STRONG_PARENTS_V3, type BlockStateNameV3 } from './dag.ts';
export { MAX_FUTURE_NS } from './intake.ts';
export type { V3PruneProgress } from './pruning.ts';

/** The milestone at the v2 pruning index: v3 data older than its timestamp (Unix seconds) is pruned. */
export interface V3PruneTarget {
  milestoneIndex: number;
  timestamp: number;
}

export interface BlockMetadataV3 {
  blockId: Uint8Array;
  blockState: BlockStateNameV3;
  transaction?: { transactionId: Uint8Array; state: TransactionStateV3; failureReason?: string };
}

export class V3Engine {
  private readonly network: V3Network;
  readonly genesis: GenesisV3;
  readonly params: ProtocolParametersV3;
  readonly networkId: bigint;
  readonly genesisBlockId: Uint8Array;
  readonly genesisCommitment: SlotCommitmentV3;
  readonly genesisCommitmentId: Uint8Array;
  readonly seats: GenesisAccountV3[];
  private readonly store: NodeStore;
  private readonly now: () => number;
  private readonly dag: V3Dag;
  private readonly ledger: V3Ledger;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: Error | undefined;
  /** Where pruning by time stands (undefined: never pruned). */
  private pruning: PruningRecordV3 | undefined;

  private constructor(store: NodeStore, genesis: GenesisV3, now: () => number, limits: Partial<V3DagLimits>) {
    this.store = store;
    this.now = now;
    const network = new V3Network(genesis);
    this.network = network;
    this.genesis = genesis;
    this.params = network.params;
    this.networkId = network.networkId;
    this.genesisBlockId = network.genesisBlockId;
    this.genesisCommitment = network.genesisCommitment;
    this.genesisCommitmentId = network.genesisCommitmentId;
    this.seats = network.seats;
    this.dag = new V3Dag(network, limits);
    this.ledger = new V3Ledger(network, store);
  }

  /** Records a v3 genesis in a store that has none (its outputs, the genesis block as the one tip); idempotent. */
  static async create(store: NodeStore, genesis: GenesisV3): Promise<void> {
    if ((await store.get(V3_TABLES.meta, 'genesis')) !== undefined) return;
    const batch = store.batch();
    V3Ledger.recordGenesis(genesis, batch);
    V3Dag.recordGenesis(genesis, batch);
    batch.put(V3_TABLES.meta, 'genesis', JSON.stringify(genesisV3ToJson(genesis)));
    await batch.commit({ sync: true });
  }

  /** The engine of a store with a v3 genesis, or undefined when the network has no v3 part. */
  static async open(
    store: NodeStore,
    options: { now?: () => number; limits?: Partial<V3DagLimits> } = {},
  ): Promise<V3Engine | undefined> {
    const text = await store.get(V3_TABLES.meta, 'genesis');
    if (text === undefined) return undefined;
    const engine = new V3Engine(
      store,
      genesisV3FromJson(JSON.parse(text)),
      options.now ?? Date.now,
      options.limits ?? {},
    );
    await ensureSlotIndex(store);
    engine.pruning = await readPruningV3(store);
    await engine.dag.load(store);
    await engine.ledger.load();
    return engine;
  }

  private nowNs(): bigint {
    return BigInt(this.now()) * 1_000_000n;
  }

  /** Runs `fn` after every earlier change; one change at a time. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.broken)
        throw new NodeError('INTERNAL', `the v3 engine stopped after a store failure: ${this.broken.message}`);
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs a read in the change queue, so it sees only whole, committed changes: an attach mutates memory across awaits
   * (reading stored blocks, the store commit), and a read between them could see a block confirmed before its
   * transaction is applied.
   */
  read<T>(fn: () => T | Promise<T>): Promise<T> {
    return this.exclusive(async () => fn());
  }

  /** Waits for changes under way. */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  // ---------------------------------------------------------------- submission

  /** Submits a complete signed block (binary or JSON); returns its ID. A resubmitted block answers its ID again. */
  async submit(block: { raw: Uint8Array } | { json: string }): Promise<Uint8Array> {
    const { bytes, block: decoded } = readSubmissionV3(block, this.params);
    return this.exclusive(() => this.attach(bytes, decoded));
  }

  private async attach(bytes: Uint8Array, block: BlockV3): Promise<Uint8Array> {
    const id = blockIdV3(bytes, this.params);
    if (this.dag.block(id) !== undefined || (await this.store.has(V3_TABLES.blockState, id))) return id;
    if (block.body.type === 0 && this.dag.full)
      throw new NodeError(
        'UNAVAILABLE',
        'too many v3 blocks wait for confirmation: submit again once the committee confirmed some',
      );
    const { body } = block;
    await this.dag.ensureLoaded([...body.strongParents, ...body.weakParents, ...body.shallowLikeParents], this.store);
    const checked = checkBlockV3(bytes, block, {
      network: this.network,
      dag: this.dag,
      ledger: this.ledger,
      nowNs: this.nowNs(),
      pruned: this.pruning,
    });
    const tx = checked.transaction;
    const batch = this.store.batch();
    // From here memory changes with the batch: a failure would leave them apart, so the engine stops.
    try {
      const state = this.dag.attach(
        id,
        bytes,
        block,
        { seat: checked.seat, slot: checked.slot, transactionId: tx?.txKey },
        batch,
      );
      if (tx !== undefined) this.ledger.addAttachment(tx.txKey, id, tx.isNew, batch);
      const outcome = this.dag.vote(state);
      if (outcome.confirmed.length > 0) await this.ledger.applyConfirmed(this.dag.confirm(outcome.confirmed), batch);
      this.dag.persist(outcome.changed, batch);
      // confirmations (and the ledger changes they carry) are synced to disk; other attaches are not waited for
      await batch.commit({ sync: outcome.confirmed.length > 0 });
      this.dag.trim();
    } catch (e) {
      this.broken = e as Error;
      throw e;
    }
    return id;
  }

  // ---------------------------------------------------------------- pruning by time (pruning.ts)

  /**
   * Prunes the confirmed blocks of the slots before the slot of `target`'s timestamp, and what goes with them (a run
   * to a higher slot recorded before, and interrupted, is finished instead). The boundary is recorded first; then
   * bounded batches, each alone in the change queue (no attach or read sees half a batch), `afterBatch` after each
   * (throwing there ends the run; the next one finishes it).
   */
  async prune(
    target: V3PruneTarget,
    options: { batch?: number; afterBatch?: (p: Readonly<V3PruneProgress>) => void | Promise<void> } = {},
  ): Promise<V3PruneProgress> {
    const size = options.batch ?? V3_PRUNE_BATCH;
    const slot = slotFromTime(BigInt(target.timestamp) * 1_000_000_000n, this.params);
    const record = await this.exclusive(async () => {
      if (this.pruning !== undefined && this.pruning.slot >= slot) return this.pruning;
      const next: PruningRecordV3 = { slot, milestoneIndex: target.milestoneIndex };
      const batch = this.store.batch();
      writePruningV3(batch, next);
      await batch.commit({ sync: true });
      this.pruning = next;
      return next;
    });
    const progress: V3PruneProgress = { slot: record.slot, blocks: 0, transactions: 0, outputs: 0, batches: 0 };
    let after: SlotBlockKey | undefined;
    for (;;) {
      const scanned = await this.exclusive(async () => {
        const entries = await slotEntriesBefore(this.store, record.slot, after, size);
        if (entries.length === 0) return 0;
        const batch = this.store.batch();
        const gone = await pruneSlotEntries(this.store, batch, entries, this.params);
        if (batch.length > 0) await batch.commit({ sync: false });
        this.dag.forget(gone.blocks);
        this.ledger.forget(gone.transactions, gone.outputs);
        after = entries[entries.length - 1];
        progress.blocks += gone.blocks.length;
        progress.transactions += gone.transactions.length;
        progress.outputs += gone.outputs.length;
        return entries.length;
      });
      if (scanned === 0) break;
      progress.batches++;
      await options.afterBatch?.(progress);
      if (scanned < size) break;
    }
    return progress;
  }

  /** Where pruning by time stands (undefined: never pruned). */
  get pruned(): Readonly<PruningRecordV3> | undefined {
    return this.pruning;
  }

  /** Whether `id` (a block or transaction ID) is in a slot this node pruned: not holding it may mean it was pruned. */
  inPrunedSlot(id: Uint8Array): boolean {
    return prunedNoteV3(this.pruning, id) !== undefined;
  }

  // ---------------------------------------------------------------- the built-in validator

  /** Whether user blocks wait for confirmation (the next two validation rounds confirm them). */
  get hasUnconfirmedBlocks(): boolean {
    return this.dag.hasUnconfirmedBlocks;
  }

  /** v3 block states held in memory (dag.ts bounds them). */
  get blocksInMemory(): number {
    return this.dag.inMemory;
  }

  /** Seats whose validator seed the genesis holds. */
  get validatorSeats(): GenesisAccountV3[] {
    return this.network.validatorSeats;
  }

  /** Issues one signed validation block per seat the node holds a seed for, over the current tips. */
  issueValidationBlocks(): Promise<Uint8Array[]> {
    return this.exclusive(async () => {
      const ids: Uint8Array[] = [];
      for (const seat of this.validatorSeats) {
        const parents = this.selectTips();
        const block = validationBlockV3(this.network, seat, parents, {
          nowNs: this.nowNs(),
          latestParentTime: this.dag.latestParentTime(parents),
        });
        ids.push(await this.attach(encodeBlockV3(block), block));
      }
      return ids;
    });
  }

  /** Up to 8 tips, the most recently issued first, sorted by ID as the codec requires. */
  selectTips(): Uint8Array[] {
    return this.dag.selectTips();
  }

  // ---------------------------------------------------------------- reads

  async blockBytes(id: Uint8Array): Promise<Uint8Array> {
    const raw = (await this.dag.stored(id, this.store)) !== undefined ? await this.store.getBlock(id) : undefined;
    if (raw === undefined) throw this.notFound(`block not found: ${toHex0x(id)}`, id);
    return raw;
  }

  /**
   * NOT_FOUND; for an ID of a pruned slot with the note that it may have been pruned (docs/decisions.md §17, §27).
   */
  private notFound(message: string, id: Uint8Array): NodeError {
    const note = prunedNoteV3(this.pruning, id);
    return new NodeError('NOT_FOUND', note === undefined ? message : `${message} (${note})`);
  }

  blockJson(raw: Uint8Array): string {
    return JSON.stringify(blockToJsonV3(decodeBlockV3(raw, this.params)));
  }

  async blockMetadata(id: Uint8Array): Promise<BlockMetadataV3> {
    const b = await this.dag.stored(id, this.store);
    if (b === undefined) throw this.notFound(`block not found: ${toHex0x(id)}`, id);
    const md: BlockMetadataV3 = { blockId: id, blockState: V3Dag.stateName(b) };
    if (b.transactionId !== undefined) {
      // No record: it went with the transaction's included block, pruned; only a confirmed transaction has one.
      const t = this.ledger.transaction(b.transactionId) ?? { state: 'confirmed' };
      md.transaction = { transactionId: fromHex0x(b.transactionId), state: t.state };
      if (t.failureReason !== undefined) md.transaction.failureReason = t.failureReason;
    }
    return md;
  }

  /**
   * The included block of a transaction; NOT_FOUND before confirmation, for a failed or an unknown transaction (one of
   * a pruned slot: with the note that it may have been pruned).
   */
  includedBlockId(txId: Uint8Array): Uint8Array {
    if (this.ledger.transaction(key(txId)) === undefined)
      throw this.notFound(`transaction not included: ${toHex0x(txId)}`, txId);
    return this.ledger.includedBlockId(txId);
  }

  transactionState(txId: Uint8Array): TransactionRecord | undefined {
    return this.ledger.transaction(key(txId));
  }

  /** An output of the v3 ledger (undefined when unknown). */
  output(outputId: Uint8Array): { output: OutputV3; creationSlot: number; spent: boolean } | undefined {
    return this.ledger.output(outputId);
  }

  allottedMana(accountId: Uint8Array): bigint {
    return this.ledger.allottedMana(accountId);
  }

  /** `/api/core/v3/info` (name, version and base token come from the service). */
  info(node: { name: string; version: string; baseToken: object }): Record<string, unknown> {
    return infoJsonV3(this.network, this.dag.status, this.nowNs(), node);
  }

  /** `/api/core/v3/blocks/issuance`: what a client needs to build a block. */
  issuance(): Record<string, unknown> {
    const parents = this.selectTips();
    return issuanceJsonV3(this.network, parents, this.dag.latestParentTime(parents));
  }
}
