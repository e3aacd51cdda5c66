/**
 * The UTXO changes reads of TIP-48 (docs/decisions.md §39): `/commitments/{commitmentId}/utxo-changes[/full]` and
 * `/commitments/by-slot/{slot}/utxo-changes[/full]`, from the record written with each slot's commitment
 * (utxo-changes.ts). Shapes are iota.go's `UTXOChangesResponse` and `UTXOChangesFullResponse` (api/core.go), as JSON
 * or serix bytes (`application/vnd.iota.serializer-v2`, as iota-core answers by the Accept header).
 *
 * Lookup as iota-core's request handler (pkg/requesthandler/commitments.go): a slot after the latest commitment is
 * NOT_FOUND, a slot before the genesis slot INVALID_REQUEST, the empty (all-zero) commitment ID means the latest
 * commitment. Stricter than iota-core, which answers any ID by its slot's diff: an ID this node did not make is
 * NOT_FOUND, as on the commitment route. A committed slot without a record (the genesis slot, a pruned one, one
 * committed before the node kept these records) is NOT_FOUND naming which.
 */
import { concatBytes, fromHex0x, toHex0x } from '../../core/bytes.ts';
import { decodeOutputV3, outputToJsonV3, slotOfId } from '../../core/v3/index.ts';
import { NodeError } from '../support/errors.ts';
import type { CommitmentEntryV3 } from './commitments.ts';
import type { V3Engine } from './engine.ts';
import { V3_TABLES, type UtxoChangesRecord } from './tables.ts';

/** A slot's UTXO changes with the ID of the commitment they belong to. */
export interface UtxoChangesV3 {
  commitmentId: Uint8Array;
  record: UtxoChangesRecord;
}

/** iota.go `UTXOChangesResponse` (IDs only) or, `full`, `UTXOChangesFullResponse` (`{outputId, output}` each). */
export function utxoChangesJsonV3(c: UtxoChangesV3, full: boolean): Record<string, unknown> {
  const list = (l: [string, string][]) =>
    full
      ? l.map(([outputId, o]) => ({ outputId, output: outputToJsonV3(decodeOutputV3(fromHex0x(o))) }))
      : l.map(([id]) => id);
  return {
    commitmentId: toHex0x(c.commitmentId),
    createdOutputs: list(c.record.created),
    consumedOutputs: list(c.record.consumed),
  };
}

/**
 * The serix bytes of the same: the commitment ID (36 bytes), then each list as a u32 LE count and its items, an output
 * ID (38 bytes) or, `full`, an output ID followed by the output's bytes.
 */
export function utxoChangesBytesV3(c: UtxoChangesV3, full: boolean): Uint8Array {
  const list = (l: [string, string][]): Uint8Array[] => {
    const count = new Uint8Array(4);
    new DataView(count.buffer).setUint32(0, l.length, true);
    return [count, ...l.flatMap(([id, o]) => (full ? [fromHex0x(id), fromHex0x(o)] : [fromHex0x(id)]))];
  };
  return concatBytes(c.commitmentId, ...list(c.record.created), ...list(c.record.consumed));
}

export class V3UtxoReads {
  constructor(private readonly engine: V3Engine) {}

  /** The UTXO changes of the commitment with ID `key`, or of slot `key` (read in the engine's queue). */
  changes(key: Uint8Array | number): Promise<UtxoChangesV3> {
    return this.engine.read(async () => {
      const entry = await this.commitment(key);
      const slot = entry.commitment.slot;
      const record = await this.engine.store.get(V3_TABLES.utxoChanges, slot);
      if (record === undefined) throw new NodeError('NOT_FOUND', this.missing(slot));
      return { commitmentId: entry.id, record };
    });
  }

  private async commitment(key: Uint8Array | number): Promise<CommitmentEntryV3> {
    const e = this.engine;
    const latest = e.latestCommitment.commitment.slot;
    if (typeof key === 'number') {
      const { genesisSlot } = e.params;
      if (key < genesisSlot)
        throw new NodeError('INVALID_REQUEST', `invalid slot: ${key} is before the genesis slot ${genesisSlot}`);
      if (key > latest)
        throw new NodeError('NOT_FOUND', `slot ${key} is not committed yet (the latest committed slot is ${latest})`);
    } else if (key.every((b) => b === 0)) {
      return e.latestCommitment; // iota-core: the empty commitment ID names the latest commitment
    }
    const entry = await e.commitment(key);
    if (entry !== undefined) return entry;
    if (typeof key === 'number') throw new NodeError('INTERNAL', `the commitment of slot ${key} is not stored`);
    const slot = slotOfId(key);
    const why = slot > latest ? `, slot ${slot} is not committed yet (the latest committed slot is ${latest})` : '';
    throw new NodeError('NOT_FOUND', `commitment not found: ${toHex0x(key)}${why}`);
  }

  /** Why a committed slot has no UTXO changes record. */
  private missing(slot: number): string {
    const e = this.engine;
    const what = `no UTXO changes of slot ${slot}`;
    if (slot === e.params.genesisSlot)
      return `${what}: the genesis slot has none, its outputs come from the genesis snapshot, not from transactions`;
    const p = e.pruned;
    if (p !== undefined && slot < p.slot)
      return (
        `${what}: pruned, this node keeps none of a slot before ${p.slot}, the slot of milestone ` +
        `${p.milestoneIndex}, its pruning index`
      );
    return `${what}: the slot was committed before this node kept UTXO changes (a store of an older version)`;
  }
}
