/**
 * A store at scale for the explorer benchmark (run.ts): the ledger of benchmarks/ledger's cone scenario (50 wallets,
 * their genesis outputs, the cone's blocks not yet confirmed), then `outputs` unspent basic outputs booked as the
 * ledger books them, with everything a confirmation writes for them: output record, unspent entry, TIP-26 index
 * entries and the aggregates in batches of 10,000, and at the end of each booking milestone its ledger updates in one
 * write, as its confirmation writes them (one group per address, written once). They are booked at milestones 0-9
 * (a tenth of the outputs each), before the scenario's genesis milestone (10), as a snapshot's outputs are, so the
 * ledger stays one the scenario's milestone confirms on. Owners: 10 outputs per address over `outputs / 10` filler
 * addresses, and three addresses owning 10, 100 and 1,000 outputs spread over the whole store; amounts vary so the
 * addresses fall into several magnitudes.
 */
import {
  applyBalanceDeltas,
  BalanceDeltas,
  bookedUpdate,
  confirmMilestone,
  LEDGER_TABLES,
  putLedgerUpdates,
  putOutputIndex,
  StoreBlockSource,
  walkCone,
  type BookedOutput,
  type LedgerUpdate,
  type MilestoneHistory,
} from '../../src/core/ledger/index.ts';
import type { BasicOutput, Ed25519Address, MilestonePayload } from '../../src/core/model/index.ts';
import type { KeyValueStore, NodeStore } from '../../src/core/store/index.ts';
import { freshLedgerStore, type ConeScenario } from '../ledger/cone.ts';

export const TARGETS = [10, 100, 1000];
const PER_FILLER = 10;
const BATCH = 10_000;
/** Booked at milestones 0 to 9, below the scenario's genesis milestone (10). */
const BOOKED_AT = 10;
const T0 = 1_600_000_000;

export function addressOf(n: number): Ed25519Address {
  const pubKeyHash = new Uint8Array(32);
  new DataView(pubKeyHash.buffer).setUint32(0, n);
  pubKeyHash[31] = 0xa5;
  return { type: 0, pubKeyHash };
}

/** The address owning the `t`-th target's outputs. */
export const targetAddress = (t: number): Ed25519Address => addressOf(0xfffffff0 + t + 1);

function outputIdOf(i: number): Uint8Array {
  const id = new Uint8Array(34);
  const view = new DataView(id.buffer);
  view.setUint32(0, Math.imul(i, 2654435761) >>> 0); // spread over the key space
  view.setUint32(4, i);
  id[31] = 0x5a;
  return id;
}

/** Fills `kv` (empty); answers the store and how long the fill took. */
export async function fillStore(
  kv: KeyValueStore,
  scenario: ConeScenario,
  outputs: number,
  log: (line: string) => void,
): Promise<{ store: NodeStore; seconds: number }> {
  const store = await freshLedgerStore(kv, scenario);
  const started = Date.now();
  const every = TARGETS.map((n) => Math.floor(outputs / n));
  const ownerOf = (i: number): Ed25519Address => {
    for (let t = 0; t < TARGETS.length; t++) if (i % every[t]! === t) return targetAddress(t);
    return addressOf(Math.floor(i / PER_FILLER));
  };
  // Ledger records, TIP-26 entries and aggregates in chunks; the ledger updates of each booking milestone at its end,
  // in one write as its confirmation would make them (one group per address, written once).
  let chunk: BookedOutput[] = [];
  let updates: LedgerUpdate[] = [];
  const flush = async (): Promise<void> => {
    const batch = store.batch();
    const deltas = new BalanceDeltas();
    for (const o of chunk) {
      batch.put(LEDGER_TABLES.outputs, o.outputId, { blockId: new Uint8Array(32), ...o });
      batch.put(LEDGER_TABLES.unspent, o.outputId, null);
      putOutputIndex(batch, o);
      deltas.add(o.output, 1);
      updates.push(bookedUpdate(o));
    }
    await applyBalanceDeltas(store, batch, deltas);
    await batch.commit({ sync: false });
    chunk = [];
  };
  const perMilestone = Math.ceil(outputs / BOOKED_AT);
  for (let i = 0; i < outputs; i++) {
    const output: BasicOutput = {
      type: 3,
      amount: 100_000n + BigInt((i * 7919) % 100_000_000),
      nativeTokens: [],
      unlockConditions: [{ type: 0, address: ownerOf(i) }],
      features: [],
    };
    const index = Math.floor(i / perMilestone);
    chunk.push({ outputId: outputIdOf(i), milestoneIndexBooked: index, milestoneTimestampBooked: T0 + index, output });
    if (chunk.length >= BATCH) await flush();
    if ((i + 1) % perMilestone === 0 || i === outputs - 1) {
      if (chunk.length > 0) await flush();
      const batch = store.batch();
      putLedgerUpdates(batch, updates, 'whole');
      await batch.commit({ sync: false });
      updates = [];
    }
    if ((i + 1) % 200_000 === 0)
      log(`  ${(i + 1).toLocaleString('en-US')} outputs (${(Date.now() - started) / 1000} s)`);
  }
  await store.batch().commit({ sync: true });
  return { store, seconds: (Date.now() - started) / 1000 };
}

/**
 * What the history writes for the scenario's cone on `store` (its ledger changes computed with `history: false`,
 * nothing committed): the input of `writeMilestoneHistory`, for timing those writes alone.
 */
export async function coneHistory(store: NodeStore, s: ConeScenario): Promise<MilestoneHistory> {
  const payload = s.milestone.block.payload as MilestonePayload;
  const cone = await walkCone(payload.parents, await StoreBlockSource.open(store), payload.index);
  const c = await confirmMilestone({
    store,
    milestoneBlockId: s.milestone.id,
    milestoneBlock: s.milestone.block,
    history: false,
  });
  return { ...c, index: payload.index, timestamp: payload.timestamp, cone };
}
