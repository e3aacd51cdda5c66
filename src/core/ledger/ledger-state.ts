/** Typed reads of the ledger state over the node store (tables.ts, ledger-meta.ts). Missing data reads as undefined. */
import { decodeProtocolParameters } from '../codec/protocol-parameters.ts';
import type { ProtocolParameters } from '../model/protocol.ts';
import type { ReceiptMilestoneOption } from '../model/payload.ts';
import { META } from '../store/meta.ts';
import type { NodeStore } from '../store/node-store.ts';
import { tableKey } from '../store/table.ts';
import { TABLES } from '../store/tables.ts';
import { LEDGER_META, type MilestoneKeyConfig, type ProtocolParametersChange } from './ledger-meta.ts';
import type { MilestoneDiff } from './milestone-diff.ts';
import type { OutputRecord, SpentRecord } from './output-record.ts';
import { LEDGER_TABLES } from './tables.ts';
import type { TreasuryState } from './treasury-record.ts';

/** An output as the ledger knows it: its booking data and, once consumed, what spent it. */
export interface LedgerOutput extends OutputRecord {
  outputId: Uint8Array;
  spent?: SpentRecord;
}

export interface StoredReceipt {
  migratedAt: number;
  milestoneIndex: number;
  receipt: ReceiptMilestoneOption;
}

export class LedgerState {
  readonly store: NodeStore;

  constructor(store: NodeStore) {
    this.store = store;
  }

  /** The milestone index the ledger is at (undefined before initLedger). */
  ledgerIndex(): Promise<number | undefined> {
    return this.store.getMeta(META.ledgerIndex);
  }

  /** An output, spent or unspent, with its booking data. */
  async output(outputId: Uint8Array): Promise<LedgerOutput | undefined> {
    const record = await this.store.get(LEDGER_TABLES.outputs, outputId);
    if (record === undefined) return undefined;
    const spent = await this.store.get(LEDGER_TABLES.spent, outputId);
    return spent === undefined ? { outputId, ...record } : { outputId, ...record, spent };
  }

  /**
   * An output (as `output`) together with the ledger index of the same snapshot, so the spent state and the index
   * agree even while a milestone commits (one multi-get). `output` is undefined when the ledger never booked it.
   */
  async outputAtLedgerIndex(
    outputId: Uint8Array,
  ): Promise<{ ledgerIndex: number | undefined; output: LedgerOutput | undefined }> {
    const keys = [
      tableKey(TABLES.meta, META.ledgerIndex.name),
      tableKey(LEDGER_TABLES.outputs, outputId),
      tableKey(LEDGER_TABLES.spent, outputId),
    ];
    const [index, record, spent] = await this.store.kv.getMany(keys);
    const ledgerIndex =
      index === undefined ? undefined : META.ledgerIndex.codec.decode(index, `meta ${META.ledgerIndex.name}`);
    if (record === undefined) return { ledgerIndex, output: undefined };
    const output: LedgerOutput = { outputId, ...LEDGER_TABLES.outputs.value.decode(record, 'outputs value') };
    if (spent !== undefined) output.spent = LEDGER_TABLES.spent.value.decode(spent, 'spent value');
    return { ledgerIndex, output };
  }

  isUnspent(outputId: Uint8Array): Promise<boolean> {
    return this.store.has(LEDGER_TABLES.unspent, outputId);
  }

  /** Every unspent output ID in key order. */
  unspentOutputIds(): AsyncIterableIterator<Uint8Array> {
    return this.store.keys(LEDGER_TABLES.unspent);
  }

  milestoneDiff(index: number): Promise<MilestoneDiff | undefined> {
    return this.store.get(LEDGER_TABLES.milestoneDiffs, index);
  }

  /** The current (unspent) treasury output. */
  async treasury(): Promise<TreasuryState | undefined> {
    for await (const [milestoneId, record] of this.store.entries(LEDGER_TABLES.treasury)) {
      if (!record.spent) return { milestoneId, amount: record.amount };
    }
    return undefined;
  }

  /** Receipts in key order, all of them or those of one legacy `migratedAt` index. */
  async receipts(migratedAt?: number): Promise<StoredReceipt[]> {
    const range =
      migratedAt === undefined
        ? {}
        : { gte: { migratedAt, milestoneIndex: 0 }, lte: { migratedAt, milestoneIndex: 0xffffffff } };
    const out: StoredReceipt[] = [];
    for await (const [key, receipt] of this.store.entries(LEDGER_TABLES.receipts, range)) out.push({ ...key, receipt });
    return out;
  }

  async protocolParametersChanges(): Promise<ProtocolParametersChange[]> {
    return (await this.store.getMeta(LEDGER_META.protocolParametersChanges)) ?? [];
  }

  /** Announced changes that have not taken effect at the current ledger index yet. */
  async pendingProtocolParametersChanges(): Promise<ProtocolParametersChange[]> {
    const index = (await this.ledgerIndex()) ?? 0;
    return (await this.protocolParametersChanges()).filter((c) => c.targetMilestoneIndex > index);
  }

  /**
   * The protocol parameters in force at milestone `index`: the latest change whose target is <= index, else genesis.
   */
  async protocolParameters(index: number): Promise<ProtocolParameters | undefined> {
    const changes = await this.protocolParametersChanges();
    let best: ProtocolParametersChange | undefined;
    for (const c of changes)
      if (
        c.targetMilestoneIndex <= index &&
        (best === undefined || c.targetMilestoneIndex >= best.targetMilestoneIndex)
      )
        best = c;
    if (best !== undefined) return decodeProtocolParameters(best.params);
    return this.store.getMeta(LEDGER_META.protocolParameters);
  }

  async solidEntryPoints(): Promise<Uint8Array[]> {
    return (await this.store.getMeta(LEDGER_META.solidEntryPoints)) ?? [];
  }

  milestoneKeys(): Promise<MilestoneKeyConfig | undefined> {
    return this.store.getMeta(LEDGER_META.milestoneKeys);
  }
}
