/**
 * The v3 tests' shared pieces: a rejection's error, and for the pruning tests the boundary they prune to, what a
 * finished prune must not leave behind, and an engine over a memory store with a clock the test sets.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { MemoryKeyValueStore, NodeStore, TABLES } from '../../../src/core/store/index.ts';
import { encodeBlockV3, type SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { V3Engine, type V3PruneTarget } from '../../../src/node/v3/engine.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { V3Network } from '../../../src/node/v3/network.ts';
import { V3_TABLES, type BlockStateRecord } from '../../../src/node/v3/tables.ts';
import { validationBlockV3 } from '../../../src/node/v3/validation-block.ts';
import {
  basic,
  basicBlock,
  GENESIS_TIME,
  inputOf,
  key,
  signedTx,
  slotStartNs,
  testGenesisV3,
  USER,
} from '../../../harness/fixtures/v3.ts';

/** The error `p` rejects with. */
export async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error & { code?: string };
  }
  return expect.fail('expected a rejection');
}

/** The boundary of the engine tests: milestone 7's timestamp lies in slot 1050. */
export const S = 1050;
export const TARGET: V3PruneTarget = { milestoneIndex: 7, timestamp: GENESIS_TIME + S - 1 };

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** What a finished prune to `slot` must not leave behind; also the consistency of what it kept. */
export async function leftovers(store: NodeStore, slot: number, genesisBlockId: Uint8Array): Promise<string[]> {
  const out: string[] = [];
  const states = new Map<string, BlockStateRecord>();
  for await (const [id, r] of store.entries(V3_TABLES.blockState)) {
    states.set(toHex0x(id), r);
    if (r.confirmed && r.slot < slot) out.push(`blockState: confirmed block ${toHex0x(id)} of slot ${r.slot} is kept`);
    if (r.orphaned && r.slot < slot) out.push(`blockState: orphaned block ${toHex0x(id)} of slot ${r.slot} is kept`);
  }
  let indexed = 0;
  for await (const k of store.keys(V3_TABLES.slotBlocks)) {
    indexed++;
    const r = states.get(toHex0x(k.blockId));
    if (r?.slot !== k.slot)
      out.push(`slotBlocks: ${toHex0x(k.blockId)} at slot ${k.slot}, its state ${r ? `at ${r.slot}` : 'is gone'}`);
  }
  if (indexed !== states.size) out.push(`slotBlocks: ${indexed} entries for ${states.size} block states`);
  for await (const id of store.keys(TABLES.blocks))
    if (id.length === 36 && !states.has(toHex0x(id))) out.push(`blocks: v3 block ${toHex0x(id)} without a state`);
  for await (const id of store.keys(V3_TABLES.tips))
    if (!states.has(toHex0x(id)) && toHex0x(id) !== toHex0x(genesisBlockId))
      out.push(`tips: ${toHex0x(id)} without a state`);
  for await (const [tx, b] of store.keys(TABLES.transactionBlocks))
    if (b.length === 36 && !states.has(toHex0x(b)))
      out.push(`transactionBlocks: ${toHex0x(tx)} -> pruned block ${toHex0x(b)}`);
  const txs = new Set<string>();
  for await (const [id, r] of store.entries(V3_TABLES.transactions)) {
    txs.add(toHex0x(id));
    if (r.includedBlockId !== undefined && !states.has(r.includedBlockId))
      out.push(`transactions: ${toHex0x(id)} names pruned included block ${r.includedBlockId}`);
  }
  for await (const [id, r] of store.entries(V3_TABLES.outputs))
    if (r.spentBy !== undefined && !txs.has(r.spentBy))
      out.push(`outputs: ${toHex0x(id)} spent by pruned transaction ${r.spentBy} is kept`);
  for await (const s of store.keys(V3_TABLES.utxoChanges, { lt: slot }))
    out.push(`utxoChanges: the UTXO changes of slot ${s} are kept`);
  return out;
}

/** An engine over a memory store with a clock the test sets, reopened over the same store as after a restart. */
export class EngineHarness {
  constructor(readonly g: GenesisV3 = testGenesisV3()) {}
  readonly kv = new MemoryKeyValueStore();
  store!: NodeStore;
  engine!: V3Engine;
  nowMs = 0;

  async open(): Promise<this> {
    if (this.engine) await this.engine.idle();
    this.store ??= await NodeStore.open(this.kv);
    await V3Engine.create(this.store, this.g);
    // commitments at exactly minCommittableAge behind the clock (no lag: commitments.test.ts tests the lag)
    this.engine = (await V3Engine.open(this.store, { now: () => this.nowMs, commitLagSlots: 0 }))!;
    return this;
  }

  /** The clock in slot `slot`. */
  at(slot: number): void {
    this.nowMs = Number(slotStartNs(this.engine.params, slot) / 1_000_000n) + 100;
  }

  bytes(o: { slot: number; parents?: Uint8Array[]; payload?: SignedTransactionPayloadV3 }): Uint8Array {
    const e = this.engine;
    return basicBlock(e.params, {
      issuer: USER,
      parents: o.parents ?? e.selectTips(),
      issuingTime: slotStartNs(e.params, o.slot),
      commitmentId: e.commitmentIdForSlot(o.slot),
      ...(o.payload ? { payload: o.payload } : {}),
    });
  }

  /** Builds the block after the engine committed up to the clock (as a client reading the issuance route). */
  async submit(o: { slot: number; parents?: Uint8Array[]; payload?: SignedTransactionPayloadV3 }): Promise<Uint8Array> {
    return this.engine.submit({ raw: await this.engine.read(() => this.bytes(o)) });
  }

  /** The latest block `acceptBeside` issued and its issuing time. */
  private beside?: { id: Uint8Array; time: bigint };

  /**
   * Two validation blocks of the first seat, the first over the latest one of the previous call (or the genesis
   * block), the second over the first: a block of the clock's slot is accepted while the other tips stay unaccepted
   * (as when the committee never saw them).
   */
  async acceptBeside(): Promise<void> {
    const e = this.engine;
    const network = new V3Network(this.g);
    const seat = network.validatorSeats[0]!;
    for (let i = 0; i < 2; i++) {
      const parents = [this.beside?.id ?? e.genesisBlockId];
      const times = { nowNs: BigInt(this.nowMs) * 1_000_000n, latestParentTime: this.beside?.time ?? 0n };
      const block = validationBlockV3(network, seat, parents, times, e.commitments);
      this.beside = { id: await e.submit({ raw: encodeBlockV3(block) }), time: block.header.issuingTime };
    }
    await e.idle();
  }

  /** Two validation rounds: everything submitted before is confirmed. */
  async confirm(): Promise<Uint8Array[]> {
    return [...(await this.engine.issueValidationBlocks()), ...(await this.engine.issueValidationBlocks())];
  }

  spend(outputId: Uint8Array, owner: ReturnType<typeof key>, slot: number, to = key(70)): SignedTransactionPayloadV3 {
    return signedTx(
      { creationSlot: slot, inputs: [inputOf(outputId)], outputs: [basic(1_000_000_000n, to)] },
      owner,
      this.engine.params,
    );
  }

  async state(id: Uint8Array): Promise<string> {
    return (await this.engine.blockMetadata(id)).blockState;
  }

  leftovers(slot = S): Promise<string[]> {
    return leftovers(this.store, slot, this.engine.genesisBlockId);
  }
}
