/**
 * The one source of the protocol parameters in force and of the solid entry points, owned by the ledger.
 *
 * Both live in the ledger's meta fields (core LEDGER_META): the genesis parameters, every change a confirmed
 * milestone announced (TIP-29 Protocol Parameters milestone option, with its target index), and the solid entry
 * points. The parameters in force are those of the ledger index: the latest change whose target index the ledger
 * has reached, else the genesis ones — so a change applies to intake, tip selection and PoW from the moment its
 * target milestone is confirmed, the same rule the ledger applies when it confirms that milestone. Changes whose
 * target lies ahead are pending (GET /info `pendingProtocolParameters`).
 *
 * Reads are synchronous (intake and tip selection ask on every block); `refresh` reloads after each confirmation and
 * after pruning moved the solid entry points (with the pruning index).
 */
import { toHex } from '../../core/bytes.ts';
import { LEDGER_META, LedgerState, type ProtocolParametersChange } from '../../core/ledger/index.ts';
import type { ProtocolParameters } from '../../core/model/index.ts';
import { META, StoreError, type NodeStore } from '../../core/store/index.ts';

export class ProtocolState {
  private params!: ProtocolParameters;
  private pendingChanges: readonly ProtocolParametersChange[] = [];
  private seps: readonly Uint8Array[] = [];
  private sepKeys = new Set<string>();
  private index = 0;
  private ledger_ = false;
  private pruned: number | undefined;

  private constructor(private readonly ledger: LedgerState) {}

  static async load(store: NodeStore): Promise<ProtocolState> {
    const state = new ProtocolState(new LedgerState(store));
    await state.refresh();
    return state;
  }

  /** Reloads from the store (after a confirmed milestone). */
  async refresh(): Promise<void> {
    const store = this.ledger.store;
    const ledgerIndex = await this.ledger.ledgerIndex();
    const index = ledgerIndex ?? (await store.getMeta(META.confirmedMilestoneIndex)) ?? 0;
    const params = await this.ledger.protocolParameters(index);
    if (params === undefined)
      throw new StoreError('SCHEMA_MISMATCH', 'Cannot read the protocol parameters: the store holds none');
    const seps = await this.ledger.solidEntryPoints();
    this.pruned = (await store.getMeta(LEDGER_META.pruning))?.index;
    this.params = params;
    this.index = index;
    this.ledger_ = ledgerIndex !== undefined;
    this.pendingChanges = (await this.ledger.protocolParametersChanges()).filter((c) => c.targetMilestoneIndex > index);
    this.seps = seps;
    this.sepKeys = new Set(seps.map(toHex));
  }

  /** The protocol parameters in force at the ledger index. */
  get current(): ProtocolParameters {
    return this.params;
  }

  /** The ledger index (the confirmed milestone index) the parameters were read at. */
  get ledgerIndex(): number {
    return this.index;
  }

  /** Whether the store holds a ledger (a network without milestone keys has none and never confirms). */
  get hasLedger(): boolean {
    return this.ledger_;
  }

  /** Announced changes whose target index the ledger has not reached, ascending by target. */
  get pending(): readonly ProtocolParametersChange[] {
    return this.pendingChanges;
  }

  /** Sorted. */
  get solidEntryPoints(): readonly Uint8Array[] {
    return this.seps;
  }

  /** The pruning index (core pruning/), undefined until the store was pruned. */
  get pruningIndex(): number | undefined {
    return this.pruned;
  }

  isSolidEntryPoint(blockId: Uint8Array): boolean {
    return this.sepKeys.has(toHex(blockId));
  }
}
