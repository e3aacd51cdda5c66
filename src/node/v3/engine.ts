/**
 * The node's IOTA 2.0 (v3) part, composed of:
 *   network.ts           the fixed facts of the network (from its genesis section)
 *   intake.ts            reading a submission and the node-level checks of a block
 *   dag.ts               the DAG: block states, tips, acceptance / confirmation by the votes, orphans
 *   commitments.ts       slot commitments and the finalized slot (catch-up.ts: a long stop's, in chunks)
 *   states.ts            block and transaction states as iota-core serves them
 *   ledger.ts            the v3 ledger (core/v3/ledger): outputs, transactions, Mana, the included-block rule
 *   validation-block.ts  the validation blocks of the built-in validator
 *   info.ts              the info and issuance JSON
 *   pruning.ts           pruning: blocks older than the v2 pruning index's milestone or retention.ts's epochs
 *
 * Every change (a submitted block or a validation block) runs alone (one queue) and is written in ONE store batch:
 * the block, its state, the tips, the states the committee vote changed, the ledger effects of what became
 * confirmed, the finalized slot and the status. Before every change and read the queue first commits the committable
 * slots (commitments.ts, its own batches), so blocks meet the commitments of now. The states votes
 * still work on are kept in memory (dag.ts: the unconfirmed blocks, the tips and the latest confirmed ones, within
 * V3DagLimits); older ones are read from the store.
 */
import { toHex0x } from '../../core/bytes.ts';
import type { NodeStore } from '../../core/store/index.ts';
import {
  blockIdV3,
  blockToJsonV3,
  decodeBlockV3,
  encodeBlockV3,
  type BlockV3,
  type OutputV3,
  type ProtocolParametersV3,
  type SlotCommitmentV3,
} from '../../core/v3/index.ts';
import { NodeError } from '../support/errors.ts';
import { V3CatchUp } from './catch-up.ts';
import { V3Commitments, type CommitmentEntryV3 } from './commitments.ts';
import { V3Dag, type V3DagLimits } from './dag.ts';
import { genesisV3FromJson, genesisV3ToJson, type GenesisAccountV3, type GenesisV3 } from './genesis-v3.ts';
import { infoJsonV3, issuanceJsonV3 } from './info.ts';
import { checkBlockV3, checkNotAhead, readSubmissionV3 } from './intake.ts';
import { V3Ledger } from './ledger.ts';
import { key, V3Network } from './network.ts';
import { ensureSlotIndex, prunedNoteV3, pruneByTimeV3, readPruningV3, type V3PruneProgress } from './pruning.ts';
import { blockStateNameV3, transactionMetadataV3, type BlockMetadataV3, type CommitmentViewV3 } from './states.ts';
import { V3_TABLES, type PruningRecordV3, type TransactionRecord } from './tables.ts';
import { validationBlockV3 } from './validation-block.ts';

export { MAX_STRONG_PARENTS_V3 } from './dag.ts';
export type { BlockMetadataV3, BlockStateNameV3, TransactionStateNameV3 } from './states.ts';
export { MAX_FUTURE_NS } from './intake.ts';
export type { V3PruneProgress } from './pruning.ts';

export interface V3EngineOptions {
  /** The clock, ms (Date.now). */
  now?: () => number;
  limits?: Partial<V3DagLimits>;
  /** Slots the commitments trail the clock by at least, beyond minCommittableAge (commitments.ts COMMIT_LAG_SLOTS). */
  commitLagSlots?: number;
}

/** The milestone at the v2 pruning index: v3 data older than its timestamp (Unix seconds) is pruned. */
export interface V3PruneTarget {
  milestoneIndex: number;
  timestamp: number;
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
  readonly store: NodeStore;
  readonly now: () => number;
  readonly dag: V3Dag;
  readonly ledger: V3Ledger;
  readonly commitments: V3Commitments;
  private queue: Promise<unknown> = Promise.resolve();
  readonly catchUp = new V3CatchUp({ inQueue: (fn) => this.read(fn), commit: () => this.commitSlots() });
  private broken: Error | undefined;
  /** Where pruning by time stands (undefined: never pruned). */
  private pruning: PruningRecordV3 | undefined;

  private constructor(store: NodeStore, genesis: GenesisV3, options: V3EngineOptions) {
    this.store = store;
    this.now = options.now ?? Date.now;
    const network = new V3Network(genesis);
    this.network = network;
    this.genesis = genesis;
    this.params = network.params;
    this.networkId = network.networkId;
    this.genesisBlockId = network.genesisBlockId;
    this.genesisCommitment = network.genesisCommitment;
    this.genesisCommitmentId = network.genesisCommitmentId;
    this.seats = network.seats;
    this.dag = new V3Dag(network, options.limits ?? {});
    this.ledger = new V3Ledger(network, store);
    this.commitments = new V3Commitments(network, store, options.commitLagSlots);
  }

  /** Records a v3 genesis in a store that has none (its outputs, the genesis block as the one tip); idempotent. */
  static async create(store: NodeStore, genesis: GenesisV3): Promise<void> {
    if ((await store.get(V3_TABLES.meta, 'genesis')) !== undefined) return;
    const batch = store.batch();
    V3Ledger.recordGenesis(genesis, batch);
    V3Dag.recordGenesis(genesis, batch);
    V3Commitments.recordGenesis(new V3Network(genesis), batch);
    batch.put(V3_TABLES.meta, 'genesis', JSON.stringify(genesisV3ToJson(genesis)));
    await batch.commit({ sync: true });
  }

  /** The engine of a store with a v3 genesis, or undefined when the network has no v3 part. */
  static async open(store: NodeStore, options: V3EngineOptions = {}): Promise<V3Engine | undefined> {
    const text = await store.get(V3_TABLES.meta, 'genesis');
    if (text === undefined) return undefined;
    const engine = new V3Engine(store, genesisV3FromJson(JSON.parse(text)), options);
    await ensureSlotIndex(store);
    engine.pruning = await readPruningV3(store);
    await engine.dag.load(store);
    await engine.ledger.load();
    await engine.commitments.load();
    await engine.read(() => undefined);
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
    return this.exclusive(async () => {
      await this.commitSlots();
      return fn();
    });
  }

  /** Commits the committable slots (commitments.ts); in the queue. A failure stops the engine. */
  private async commitSlots(): Promise<void> {
    try {
      await this.catchUp.step(this.commitments, this.nowNs(), this.dag, this.ledger);
      this.dag.trim();
    } catch (e) {
      this.broken = e as Error;
      throw e;
    }
  }

  /** Waits for changes under way. */
  idle(): Promise<void> {
    return this.queue.then(() => undefined);
  }

  // ---------------------------------------------------------------- submission

  /** Submits a complete signed block (binary or JSON); returns its ID. A resubmitted block answers its ID again. */
  async submit(block: { raw: Uint8Array } | { json: string }): Promise<Uint8Array> {
    const { bytes, block: decoded } = readSubmissionV3(block, this.params);
    return this.exclusive(async () => {
      await this.commitSlots();
      this.catchUp.assertCaughtUp();
      return this.attach(bytes, decoded);
    });
  }

  private async attach(bytes: Uint8Array, block: BlockV3): Promise<Uint8Array> {
    checkNotAhead(block, this.nowNs()); // before the ID: its slot comes from the issuing time
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
      commitments: this.commitments,
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
        { seat: checked.seat, slot: checked.slot, commitmentSlot: checked.commitmentSlot, transactionId: tx?.txKey },
        batch,
      );
      if (tx !== undefined) this.ledger.addAttachment(tx.txKey, id, tx.admitted, batch);
      const outcome = this.dag.vote(state);
      if (outcome.confirmed.length > 0) {
        const confirmed = this.dag.confirm(outcome.confirmed);
        await this.ledger.applyConfirmed(confirmed, batch);
        this.commitments.confirmed(confirmed, batch);
      }
      this.dag.persist(outcome.changed, batch);
      // confirmations of user blocks (and their ledger changes) are synced; the rest goes with the next synced batch
      await batch.commit({ sync: this.dag.anyUserBlock(outcome.confirmed) });
      this.dag.trim();
    } catch (e) {
      this.broken = e as Error;
      throw e;
    }
    return id;
  }

  // ---------------------------------------------------------------- pruning by time (pruning.ts)

  /** Prunes the final blocks of the slots before `target`'s (its timestamp's, retention.ts's; `pruneByTimeV3`). */
  async prune(
    target: V3PruneTarget | PruningRecordV3,
    options: { batch?: number; afterBatch?: (p: Readonly<V3PruneProgress>) => void | Promise<void> } = {},
  ): Promise<V3PruneProgress> {
    return pruneByTimeV3(
      {
        store: this.store,
        params: this.params,
        inQueue: (fn) => this.exclusive(fn),
        commitSlots: () => this.commitSlots(),
        latestCommittedSlot: () => this.commitments.latestSlot,
        record: () => this.pruning,
        setRecord: (r) => {
          this.pruning = r;
        },
        forget: (gone) => {
          this.dag.forget(gone.blocks);
          this.ledger.forget(gone.transactions, gone.outputs);
        },
      },
      target,
      options,
    );
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
      await this.commitSlots();
      const ids: Uint8Array[] = [];
      if (this.catchUp.behind > 0) return ids; // no commitment is young enough for a block yet
      for (const seat of this.validatorSeats) {
        const parents = this.selectTips();
        const times = { nowNs: this.nowNs(), latestParentTime: this.dag.latestParentTime(parents) };
        const block = validationBlockV3(this.network, seat, parents, times, this.commitments);
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
  notFound(message: string, id: Uint8Array): NodeError {
    const note = prunedNoteV3(this.pruning, id);
    return new NodeError('NOT_FOUND', note === undefined ? message : `${message} (${note})`);
  }

  blockJson(raw: Uint8Array): string {
    return JSON.stringify(blockToJsonV3(decodeBlockV3(raw, this.params)));
  }

  /** A block's state and its transaction's (states.ts). */
  async blockMetadata(id: Uint8Array): Promise<BlockMetadataV3> {
    const b = await this.dag.stored(id, this.store);
    if (b === undefined) throw this.notFound(`block not found: ${toHex0x(id)}`, id);
    const md: BlockMetadataV3 = { blockId: id, blockState: blockStateNameV3(b, this.view) };
    const t = b.transactionId;
    if (t !== undefined)
      md.transaction = await transactionMetadataV3(t, this.ledger.transaction(t), this.store, this.view);
    return md;
  }

  get view(): CommitmentViewV3 {
    const c = this.commitments;
    return { latestCommittedSlot: c.latestSlot, latestFinalizedSlot: c.latestFinalizedSlot };
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
    return infoJsonV3(this.network, this.dag.status, this.commitments, this.nowNs(), node);
  }

  /** `/api/core/v3/blocks/issuance`: what a client needs to build a block. */
  issuance(): Record<string, unknown> {
    const parents = this.selectTips();
    return issuanceJsonV3(this.commitments, parents, this.dag.latestParentTime(parents));
  }

  // ---------------------------------------------------------------- slot commitments (commitments.ts)

  /** The latest slot commitment and its ID (as of the last change or read: `read` commits up to the clock first). */
  get latestCommitment(): Readonly<CommitmentEntryV3> {
    return this.commitments.latest;
  }

  get latestCommitmentId(): Uint8Array {
    return this.commitments.latest.id;
  }

  get latestFinalizedSlot(): number {
    return this.commitments.latestFinalizedSlot;
  }

  /** The ID of the latest commitment a block of `blockSlot` may name (at most blockSlot − minCommittableAge). */
  commitmentIdForSlot(blockSlot: number): Uint8Array {
    return this.commitments.forBlockSlot(blockSlot).id;
  }

  /** A commitment of this node by its ID or its slot (undefined when it made none). */
  commitment(idOrSlot: Uint8Array | number): Promise<CommitmentEntryV3 | undefined> {
    const c = this.commitments;
    return typeof idOrSlot === 'number' ? c.bySlot(idOrSlot) : c.byId(idOrSlot);
  }
}
