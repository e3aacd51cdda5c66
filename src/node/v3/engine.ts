/**
 * The node's IOTA 2.0 (v3) part: block submission with the node-level checks, the DAG of v3 blocks, committee
 * acceptance / confirmation (core/v3/consensus), the v3 ledger (core/v3/ledger) and the included-block rule.
 *
 * Every change (a submitted block or a validation block) runs alone (one queue) and is written in ONE store batch:
 * the block, its state, the tips, the states the committee vote changed, the ledger effects of what became
 * confirmed and the status. State is also kept in memory (loaded at start) so votes need no store reads.
 *
 * Included block (DECISIONS.md: the earliest CONFIRMED attachment, lowest slot, first confirmed within a slot):
 * a transaction is applied when its first attachment is confirmed. All attachments confirmed by that same vote are
 * candidates; the one in the lowest slot wins, ties go to the one the node received first. That block is
 * recorded with the transaction and NEVER changes afterwards: an attachment in a lower slot that is confirmed by a
 * later vote does not replace it (iota-core would move to the lower slot until the slot is committed; we keep every
 * answer stable once given). A transaction whose confirmed attachment fails the ledger checks (e.g. the loser of a
 * double spend) is marked failed and never gets an included block. Transactions confirmed by the same vote are
 * applied in the order of their chosen attachments (slot, then arrival), so of two conflicting transactions
 * confirmed together the one attached in the earlier slot (then: received first) wins.
 */
import { compareBytes, equalBytes, fromHex0x, toHex0x } from '../../core/bytes.ts';
import { ed25519PublicKeyFromSeed, ed25519Sign } from '../../core/crypto/ed25519.ts';
import { reject } from '../../core/errors.ts';
import { TABLES, type NodeStore, type StoreBatch } from '../../core/store/index.ts';
import {
  assertBlockSignatureV3,
  blockFromJsonV3,
  blockHashesV3,
  blockIdV3,
  blockToJsonV3,
  decodeBlockV3,
  decodeOutputV3,
  encodeBlockV3,
  encodeOutputV3,
  manaCostV3,
  networkIdFromName,
  outputIdV3,
  protocolParametersHashV3,
  protocolParametersToJsonV3,
  slotCommitmentIdV3,
  slotCommitmentToJsonV3,
  slotFromTime,
  slotOfId,
  transactionIdV3,
  type BlockV3,
  type OutputV3,
  type ProtocolParametersV3,
  type SignedTransactionPayloadV3,
  type SlotCommitmentV3,
} from '../../core/v3/index.ts';
import { processVoteV3, type VoteBlockV3 } from '../../core/v3/consensus/committee.ts';
import { transactionFailureV3, type ResolvedInputV3 } from '../../core/v3/ledger/semantic.ts';
import { NodeError } from '../errors.ts';
import { genesisBlockIdV3, genesisOutputIdsV3, genesisV3FromJson, genesisV3ToJson, type GenesisAccountV3, type GenesisV3 } from './genesis-v3.ts';
import { V3_TABLES, type BlockStateRecord, type OutputRecord, type StatusRecord, type TransactionRecord, type TransactionStateV3 } from './tables.ts';

export const MAX_STRONG_PARENTS_V3 = 8;
/** Blocks may be issued at most this far ahead of the node's clock. */
export const MAX_FUTURE_NS = 10n * 60n * 1_000_000_000n;

interface BlockState extends VoteBlockV3 {
  id: Uint8Array;
  slot: number;
  issuingTime: bigint;
  validation: boolean;
  /** Arrival order at this node (ties between attachments confirmed together in one slot). */
  seq: number;
  transactionId?: string;
}

interface OutputState {
  output: OutputV3;
  creationSlot: number;
  spentBy?: string;
}

export type BlockStateNameV3 = 'pending' | 'accepted' | 'confirmed';

export interface BlockMetadataV3 {
  blockId: Uint8Array;
  blockState: BlockStateNameV3;
  transaction?: { transactionId: Uint8Array; state: TransactionStateV3; failureReason?: string };
}

const key = (id: Uint8Array): string => toHex0x(id);

function blockRecord(b: BlockState): BlockStateRecord {
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

function outputRecord(o: OutputState): OutputRecord {
  const r: OutputRecord = { output: toHex0x(encodeOutputV3(o.output)), creationSlot: o.creationSlot };
  if (o.spentBy !== undefined) r.spentBy = o.spentBy;
  return r;
}

export class V3Engine {
  readonly genesis: GenesisV3;
  readonly params: ProtocolParametersV3;
  readonly networkId: bigint;
  readonly genesisBlockId: Uint8Array;
  readonly genesisCommitment: SlotCommitmentV3;
  readonly genesisCommitmentId: Uint8Array;
  readonly seats: GenesisAccountV3[];
  private readonly store: NodeStore;
  private readonly now: () => number;
  private readonly accounts = new Map<string, GenesisAccountV3>();
  private readonly blocks = new Map<string, BlockState>();
  private readonly tips = new Set<string>();
  private readonly outputs = new Map<string, OutputState>();
  private readonly transactions = new Map<string, TransactionRecord>();
  private readonly accountMana = new Map<string, bigint>();
  private status: StatusRecord;
  /** Blocks that are not validation blocks and not confirmed yet: the validator issues while there are any. */
  private unconfirmedUserBlocks = 0;
  private nextSeq = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: Error | undefined;

  private constructor(store: NodeStore, genesis: GenesisV3, now: () => number) {
    this.store = store;
    this.now = now;
    this.genesis = genesis;
    this.params = genesis.protocolParameters;
    this.networkId = networkIdFromName(this.params.networkName);
    this.genesisBlockId = genesisBlockIdV3(this.params);
    this.genesisCommitment = {
      protocolVersion: this.params.version,
      slot: this.params.genesisSlot,
      previousCommitmentId: new Uint8Array(36),
      rootsId: new Uint8Array(32),
      cumulativeWeight: 0n,
      referenceManaCost: this.params.congestionControlParameters.minReferenceManaCost,
    };
    this.genesisCommitmentId = slotCommitmentIdV3(this.genesisCommitment);
    for (const a of genesis.accounts) this.accounts.set(key(a.accountId), a);
    this.seats = genesis.accounts.filter((a) => a.seat);
    const t = this.genesisTimeNs().toString();
    this.status = { latestAcceptedBlockSlot: this.params.genesisSlot, latestConfirmedBlockSlot: this.params.genesisSlot, acceptedTangleTime: t, confirmedTangleTime: t };
  }

  /** Records a v3 genesis in a store that has none (its outputs, the genesis block as the one tip); idempotent. */
  static async create(store: NodeStore, genesis: GenesisV3): Promise<void> {
    if ((await store.get(V3_TABLES.meta, 'genesis')) !== undefined) return;
    const batch = store.batch();
    const ids = genesisOutputIdsV3(genesis);
    genesis.outputs.forEach((o, i) => batch.put(V3_TABLES.outputs, ids[i]!, outputRecord({ output: o, creationSlot: genesis.protocolParameters.genesisSlot })));
    batch.put(V3_TABLES.tips, genesisBlockIdV3(genesis.protocolParameters), null);
    batch.put(V3_TABLES.meta, 'genesis', JSON.stringify(genesisV3ToJson(genesis)));
    await batch.commit({ sync: true });
  }

  /** The engine of a store with a v3 genesis, or undefined when the network has no v3 part. */
  static async open(store: NodeStore, options: { now?: () => number } = {}): Promise<V3Engine | undefined> {
    const text = await store.get(V3_TABLES.meta, 'genesis');
    if (text === undefined) return undefined;
    const engine = new V3Engine(store, genesisV3FromJson(JSON.parse(text)), options.now ?? Date.now);
    await engine.load();
    return engine;
  }

  private async load(): Promise<void> {
    const status = await this.store.get(V3_TABLES.meta, 'status');
    if (status !== undefined) this.status = JSON.parse(status) as StatusRecord;
    for await (const [id, r] of this.store.entries(V3_TABLES.blockState)) {
      const b: BlockState = {
        id, parents: r.parents, seat: r.seat, witnesses: BigInt(r.witnesses), ratifiers: BigInt(r.ratifiers), accepted: r.accepted,
        confirmed: r.confirmed, slot: r.slot, issuingTime: BigInt(r.issuingTime), validation: r.validation, seq: r.seq,
      };
      if (r.seq >= this.nextSeq) this.nextSeq = r.seq + 1;
      if (r.transactionId !== undefined) b.transactionId = r.transactionId;
      this.blocks.set(key(id), b);
      if (!b.validation && !b.confirmed) this.unconfirmedUserBlocks++;
    }
    for await (const id of this.store.keys(V3_TABLES.tips)) this.tips.add(key(id));
    for await (const [id, r] of this.store.entries(V3_TABLES.outputs)) {
      const o: OutputState = { output: decodeOutputV3(fromHex0x(r.output)), creationSlot: r.creationSlot };
      if (r.spentBy !== undefined) o.spentBy = r.spentBy;
      this.outputs.set(key(id), o);
    }
    for await (const [id, r] of this.store.entries(V3_TABLES.transactions)) this.transactions.set(key(id), r);
    for await (const [id, m] of this.store.entries(V3_TABLES.accountMana)) this.accountMana.set(key(id), m);
  }

  private genesisTimeNs(): bigint {
    return BigInt(this.params.genesisUnixTimestamp) * 1_000_000_000n;
  }

  /** Runs `fn` after every earlier change; one change at a time. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.broken) throw new NodeError('INTERNAL', `the v3 engine stopped after a store failure: ${this.broken.message}`);
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
    let bytes: Uint8Array;
    if ('raw' in block) {
      if (block.raw.length === 0) throw new NodeError('INVALID_REQUEST', 'invalid block: request body missing');
      bytes = block.raw;
    } else {
      bytes = encodeBlockV3(blockFromJsonV3(block.json));
    }
    const decoded = decodeBlockV3(bytes, this.params);
    return this.exclusive(() => this.attach(bytes, decoded));
  }

  private async attach(bytes: Uint8Array, block: BlockV3): Promise<Uint8Array> {
    const id = blockIdV3(bytes, this.params);
    const k = key(id);
    if (this.blocks.has(k)) return id;
    const h = block.header;
    const issuer = this.accounts.get(key(h.issuerId));
    if (issuer === undefined) reject('INVALID_FIELD', `Cannot accept block: issuer ${toHex0x(h.issuerId)} is not a known account`, { field: 'header.issuerId' });
    assertBlockSignatureV3(bytes, issuer.blockIssuerKeys);
    const slot = slotFromTime(h.issuingTime, this.params);
    if (h.issuingTime > BigInt(this.now()) * 1_000_000n + MAX_FUTURE_NS) reject('INVALID_FIELD', 'Cannot accept block: issuingTime is more than 10 minutes ahead of the node\'s clock', { field: 'header.issuingTime' });
    const commitmentSlot = slotOfId(h.slotCommitmentId);
    if (commitmentSlot > slot) reject('INVALID_FIELD', `Cannot accept block: slot commitment slot ${commitmentSlot} is after the block slot ${slot}`, { field: 'header.slotCommitmentId' });
    const body = block.body;
    const seat = this.seats.indexOf(issuer);
    if (body.type === 1) {
      if (seat < 0) reject('INVALID_FIELD', `Cannot accept block: validation blocks are for committee members; ${toHex0x(h.issuerId)} holds no seat`, { field: 'body.type' });
      if (!equalBytes(body.protocolParametersHash, protocolParametersHashV3(this.params))) {
        reject('INVALID_FIELD', 'Cannot accept block: protocolParametersHash is not the hash of this network\'s parameters', { field: 'body.protocolParametersHash' });
      }
      if (body.highestSupportedVersion < this.params.version) reject('INVALID_FIELD', `Cannot accept block: highestSupportedVersion ${body.highestSupportedVersion} is below ${this.params.version}`, { field: 'body.highestSupportedVersion' });
    } else {
      const cost = manaCostV3(block, this.params.workScoreParameters, this.genesisCommitment.referenceManaCost);
      if (body.maxBurnedMana < cost) reject('INVALID_FIELD', `Cannot accept block: maxBurnedMana ${body.maxBurnedMana} is below the block's Mana cost ${cost}`, { field: 'body.maxBurnedMana' });
    }
    for (const [list, name] of [[body.strongParents, 'strongParents'], [body.weakParents, 'weakParents'], [body.shallowLikeParents, 'shallowLikeParents']] as const) {
      for (const p of list) {
        const parent = this.blocks.get(key(p));
        const parentTime = parent ? parent.issuingTime : equalBytes(p, this.genesisBlockId) ? this.genesisTimeNs() : undefined;
        if (parentTime === undefined) reject('INVALID_FIELD', `Cannot accept block: parent ${toHex0x(p)} is unknown`, { field: `body.${name}` });
        if (h.issuingTime <= parentTime) reject('INVALID_FIELD', `Cannot accept block: issuingTime ${h.issuingTime} is not after parent ${toHex0x(p)}'s ${parentTime}`, { field: 'header.issuingTime' });
      }
    }

    let txKey: string | undefined;
    let newTransaction = false;
    if (body.type === 0 && body.payload?.type === 1) {
      const payload = body.payload;
      const tx = payload.transaction;
      if (tx.creationSlot > slot) reject('INVALID_FIELD', `Cannot accept block: transaction creation slot ${tx.creationSlot} is after the block slot ${slot}`, { field: 'body.payload.transaction.creationSlot' });
      txKey = key(transactionIdV3(tx));
      const known = this.transactions.get(txKey);
      if (known?.state === 'failed') throw new NodeError('INVALID_REQUEST', `invalid transaction ${txKey}: it failed before: ${known.failureReason ?? ''}`);
      if (known === undefined) {
        const inputs = this.resolveInputs(payload, txKey);
        if (typeof inputs === 'string') throw new NodeError('INVALID_REQUEST', `invalid transaction ${txKey}: ${inputs}`);
        const failure = transactionFailureV3(payload, inputs, this.semanticContext(commitmentSlot));
        if (failure) throw new NodeError('INVALID_REQUEST', `invalid transaction ${txKey}: ${failure.code}: ${failure.reason}`);
        newTransaction = true;
      }
    }

    const state: BlockState = {
      id, parents: body.strongParents.map(key), seat, witnesses: 0n, ratifiers: 0n, accepted: false, confirmed: false, slot,
      issuingTime: h.issuingTime, validation: body.type === 1, seq: this.nextSeq++,
    };
    if (txKey !== undefined) state.transactionId = txKey;
    const batch = this.store.batch();
    // From here memory changes with the batch: a failure would leave them apart, so the engine stops.
    try {
      this.blocks.set(k, state);
      if (!state.validation) this.unconfirmedUserBlocks++;
      batch.put(TABLES.blocks, id, bytes);
      for (const p of [...body.strongParents, ...body.weakParents]) {
        if (this.tips.delete(key(p))) batch.del(V3_TABLES.tips, p);
      }
      this.tips.add(k);
      batch.put(V3_TABLES.tips, id, null);
      if (txKey !== undefined) {
        batch.addTransactionBlock(fromHex0x(txKey), id);
        if (newTransaction) {
          const rec: TransactionRecord = { state: 'pending' };
          this.transactions.set(txKey, rec);
          batch.put(V3_TABLES.transactions, fromHex0x(txKey), rec);
        }
      }
      const outcome = processVoteV3(k, this.blocks, this.seats.length);
      outcome.changed.add(k);
      for (const a of outcome.accepted) this.noteAccepted(this.blocks.get(a)!);
      if (outcome.confirmed.length > 0) await this.applyConfirmed(outcome.confirmed, batch);
      for (const c of outcome.changed) batch.put(V3_TABLES.blockState, this.blocks.get(c)!.id, blockRecord(this.blocks.get(c)!));
      batch.put(V3_TABLES.meta, 'status', JSON.stringify(this.status));
      // confirmations (and the ledger changes they carry) are synced to disk; other attaches are not waited for
      await batch.commit({ sync: outcome.confirmed.length > 0 });
    } catch (e) {
      this.broken = e as Error;
      throw e;
    }
    return id;
  }

  private noteAccepted(b: BlockState): void {
    if (b.slot > this.status.latestAcceptedBlockSlot) this.status.latestAcceptedBlockSlot = b.slot;
    if (b.issuingTime > BigInt(this.status.acceptedTangleTime)) this.status.acceptedTangleTime = b.issuingTime.toString();
  }

  private semanticContext(blockCommitmentSlot: number) {
    return { params: this.params, blockCommitmentSlot, isKnownAccount: (id: Uint8Array) => this.accounts.has(key(id)) };
  }

  /** The consumed outputs, or why they cannot be consumed (unknown, or spent by another transaction). */
  private resolveInputs(payload: SignedTransactionPayloadV3, txKey: string): ResolvedInputV3[] | string {
    const out: ResolvedInputV3[] = [];
    for (const [i, input] of payload.transaction.inputs.entries()) {
      const oid = key(outputIdV3(input.transactionId, input.transactionOutputIndex));
      const o = this.outputs.get(oid);
      if (o === undefined) return `input ${i} (${oid}) is not an output of the confirmed ledger`;
      if (o.spentBy !== undefined && o.spentBy !== txKey) return `input ${i} (${oid}) is already spent by transaction ${o.spentBy} (double spend)`;
      out.push({ output: o.output, creationSlot: o.creationSlot });
    }
    return out;
  }

  /** Ledger effects of the blocks one vote confirmed (see the included-block rule above). */
  private async applyConfirmed(confirmed: string[], batch: StoreBatch): Promise<void> {
    const candidates = new Map<string, BlockState>();
    confirmed.forEach((k) => {
      const b = this.blocks.get(k)!;
      if (b.slot > this.status.latestConfirmedBlockSlot) this.status.latestConfirmedBlockSlot = b.slot;
      if (b.issuingTime > BigInt(this.status.confirmedTangleTime)) this.status.confirmedTangleTime = b.issuingTime.toString();
      if (!b.validation) this.unconfirmedUserBlocks--;
      if (b.transactionId === undefined) return;
      const best = candidates.get(b.transactionId);
      if (best === undefined || b.slot < best.slot || (b.slot === best.slot && b.seq < best.seq)) candidates.set(b.transactionId, b);
    });
    const ordered = [...candidates.entries()].sort(([, a], [, b]) => a.slot - b.slot || a.seq - b.seq);
    for (const [txKey, block] of ordered) {
      const rec = this.transactions.get(txKey);
      if (rec === undefined || rec.state !== 'pending') continue; // applied or failed before: never changes
      const raw = await this.store.getBlock(block.id);
      if (raw === undefined) throw new NodeError('INTERNAL', `v3 block ${key(block.id)} is not stored`);
      const decoded = decodeBlockV3(raw, this.params);
      const payload = (decoded.body as { payload: SignedTransactionPayloadV3 }).payload;
      const inputs = this.resolveInputs(payload, txKey);
      const failure = typeof inputs === 'string' ? inputs : transactionFailureV3(payload, inputs, this.semanticContext(slotOfId(decoded.header.slotCommitmentId)));
      let next: TransactionRecord;
      if (failure !== undefined) {
        next = { state: 'failed', failureReason: typeof failure === 'string' ? failure : `${failure.code}: ${failure.reason}` };
      } else {
        next = { state: 'confirmed', includedBlockId: key(block.id) };
        this.applyTransaction(payload, txKey, batch);
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

  // ---------------------------------------------------------------- the built-in validator

  /** Whether user blocks wait for confirmation (the validator only issues then). */
  get hasUnconfirmedBlocks(): boolean {
    return this.unconfirmedUserBlocks > 0;
  }

  /** Seats whose validator seed the genesis holds. */
  get validatorSeats(): GenesisAccountV3[] {
    return this.seats.filter((s) => s.validatorSeed !== undefined);
  }

  /** Issues one signed validation block per seat the node holds a seed for, over the current tips. */
  issueValidationBlocks(): Promise<Uint8Array[]> {
    return this.exclusive(async () => {
      const ids: Uint8Array[] = [];
      for (const seat of this.validatorSeats) {
        const block = this.validationBlock(seat);
        ids.push(await this.attach(encodeBlockV3(block), block));
      }
      return ids;
    });
  }

  private validationBlock(seat: GenesisAccountV3): BlockV3 {
    const parents = this.selectTips();
    const latest = parents.reduce((t, p) => (this.parentTime(p) > t ? this.parentTime(p) : t), 0n);
    const now = BigInt(this.now()) * 1_000_000n;
    const seed = seat.validatorSeed!;
    const block: BlockV3 = {
      header: {
        protocolVersion: this.params.version,
        networkId: this.networkId,
        issuingTime: now > latest ? now : latest + 1n,
        slotCommitmentId: this.genesisCommitmentId,
        latestFinalizedSlot: this.params.genesisSlot,
        issuerId: seat.accountId,
      },
      body: { type: 1, strongParents: parents, weakParents: [], shallowLikeParents: [], highestSupportedVersion: this.params.version, protocolParametersHash: protocolParametersHashV3(this.params) },
      signature: { type: 0, publicKey: ed25519PublicKeyFromSeed(seed), signature: new Uint8Array(64) },
    };
    const { signingMessage } = blockHashesV3(encodeBlockV3(block));
    block.signature.signature = ed25519Sign(seed, signingMessage);
    return block;
  }

  private parentTime(id: Uint8Array): bigint {
    return this.blocks.get(key(id))?.issuingTime ?? this.genesisTimeNs();
  }

  /** Up to 8 tips, the most recently issued first, sorted by ID as the codec requires. */
  selectTips(): Uint8Array[] {
    const all = [...this.tips].map((k) => this.blocks.get(k)?.id ?? fromHex0x(k));
    all.sort((a, b) => {
      const d = this.parentTime(b) - this.parentTime(a);
      return d > 0n ? 1 : d < 0n ? -1 : compareBytes(a, b);
    });
    const chosen = all.slice(0, MAX_STRONG_PARENTS_V3);
    return chosen.length > 0 ? chosen.sort(compareBytes) : [this.genesisBlockId.slice()];
  }

  // ---------------------------------------------------------------- reads

  async blockBytes(id: Uint8Array): Promise<Uint8Array> {
    const raw = this.blocks.has(key(id)) ? await this.store.getBlock(id) : undefined;
    if (raw === undefined) throw new NodeError('NOT_FOUND', `block not found: ${toHex0x(id)}`);
    return raw;
  }

  blockJson(raw: Uint8Array): string {
    return JSON.stringify(blockToJsonV3(decodeBlockV3(raw, this.params)));
  }

  blockMetadata(id: Uint8Array): BlockMetadataV3 {
    const b = this.blocks.get(key(id));
    if (b === undefined) throw new NodeError('NOT_FOUND', `block not found: ${toHex0x(id)}`);
    const md: BlockMetadataV3 = { blockId: id, blockState: b.confirmed ? 'confirmed' : b.accepted ? 'accepted' : 'pending' };
    if (b.transactionId !== undefined) {
      const t = this.transactions.get(b.transactionId)!;
      md.transaction = { transactionId: fromHex0x(b.transactionId), state: t.state };
      if (t.failureReason !== undefined) md.transaction.failureReason = t.failureReason;
    }
    return md;
  }

  /** The included block of a transaction; NOT_FOUND before confirmation, for a failed or an unknown transaction. */
  includedBlockId(txId: Uint8Array): Uint8Array {
    const t = this.transactions.get(key(txId));
    if (t?.includedBlockId === undefined) throw new NodeError('NOT_FOUND', `transaction not included: ${toHex0x(txId)}`);
    return fromHex0x(t.includedBlockId);
  }

  transactionState(txId: Uint8Array): TransactionRecord | undefined {
    return this.transactions.get(key(txId));
  }

  /** An output of the v3 ledger (undefined when unknown). */
  output(outputId: Uint8Array): { output: OutputV3; creationSlot: number; spent: boolean } | undefined {
    const o = this.outputs.get(key(outputId));
    return o && { output: o.output, creationSlot: o.creationSlot, spent: o.spentBy !== undefined };
  }

  allottedMana(accountId: Uint8Array): bigint {
    return this.accountMana.get(key(accountId)) ?? 0n;
  }

  /** `/api/core/v3/info` (name, version and base token come from the service). */
  info(node: { name: string; version: string; baseToken: object }): Record<string, unknown> {
    const nowNs = BigInt(this.now()) * 1_000_000n;
    const rel = (t: string): string => (nowNs > BigInt(t) ? BigInt(t) : nowNs).toString();
    return {
      name: node.name,
      version: node.version,
      status: {
        isHealthy: true,
        isNetworkHealthy: true,
        acceptedTangleTime: this.status.acceptedTangleTime,
        relativeAcceptedTangleTime: rel(this.status.acceptedTangleTime),
        confirmedTangleTime: this.status.confirmedTangleTime,
        relativeConfirmedTangleTime: rel(this.status.confirmedTangleTime),
        latestCommitmentId: toHex0x(this.genesisCommitmentId),
        latestFinalizedSlot: this.params.genesisSlot,
        latestAcceptedBlockSlot: this.status.latestAcceptedBlockSlot,
        latestConfirmedBlockSlot: this.status.latestConfirmedBlockSlot,
        pruningEpoch: 0,
      },
      protocolParameters: [{ startEpoch: 0, parameters: protocolParametersToJsonV3(this.params) }],
      baseToken: node.baseToken,
      committee: { seats: this.seats.map((s) => toHex0x(s.accountId)), threshold: Math.floor((2 * this.seats.length) / 3) + 1 },
    };
  }

  /** `/api/core/v3/blocks/issuance`: what a client needs to build a block. */
  issuance(): Record<string, unknown> {
    const parents = this.selectTips();
    const latest = parents.reduce((t, p) => (this.parentTime(p) > t ? this.parentTime(p) : t), 0n);
    return {
      strongParents: parents.map(toHex0x),
      latestParentBlockIssuingTime: latest.toString(),
      latestFinalizedSlot: this.params.genesisSlot,
      latestCommitment: slotCommitmentToJsonV3(this.genesisCommitment),
    };
  }
}
