/**
 * The UTXO changes of a slot commitment (src/node/v3/utxo-changes.ts, reads-utxo.ts through the V3Service; docs/
 * decisions.md §39) over an engine on a memory store with a test clock: the outputs the covered transactions created
 * and consumed, by slot and by commitment ID, IDs or full, JSON (iota.go's shapes) or serix bytes; an output created
 * and consumed in one slot in both lists; a late confirmation in the slot whose commitment covers it, its spent
 * output still answered after pruning deleted it from the ledger; the same answers after a restart; NOT_FOUND or
 * INVALID_REQUEST naming why for the rest.
 */
import { expect } from 'chai';
import { concatBytes, fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { tableKey } from '../../../src/core/store/index.ts';
import {
  encodeOutputV3,
  idWithSlot,
  outputFromJsonV3,
  outputIdV3,
  outputToJsonV3,
  type OutputV3,
  type SignedTransactionPayloadV3,
} from '../../../src/core/v3/index.ts';
import { BlockView, type GetUtxoChangesV3Request } from '../../../src/grpc/gen/node.ts';
import { V3Service } from '../../../src/node/grpc/service-v3.ts';
import { utxoChangesJsonV3 } from '../../../src/node/v3/reads-utxo.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import {
  basic,
  basicBlock,
  GENESIS_TIME,
  genesisOutputId,
  inputOf,
  key,
  signedTx,
  txIdOf,
  USER,
  WALLET,
} from '../../../harness/fixtures/v3.ts';
import { EngineHarness, rejection } from './support.ts';

const UNSPECIFIED = BlockView.BLOCK_VIEW_UNSPECIFIED;
type Key = GetUtxoChangesV3Request['key'];
const slotKey = (value: number): Key => ({ $case: 'slot', value });
const idKey = (value: Uint8Array): Key => ({ $case: 'commitmentId', value });

const u32 = (n: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n, true);
  return b;
};

describe('v3 UTXO changes of a slot commitment (service over the engine)', () => {
  let h: EngineHarness;
  let svc: V3Service;

  const service = () => new V3Service(h.engine, { name: 'n', version: 'v', baseToken: {} });
  const changes = (k: Key, full = false, view = BlockView.BLOCK_VIEW_JSON) =>
    svc.getUtxoChanges({ key: k, full, view });
  const json = async (k: Key, full = false) => JSON.parse((await changes(k, full)).json);
  const commitmentId = async (slot: number) => toHex0x((await h.engine.commitment(slot))!.id);

  /** Spends `input` (owned by WALLET) in slot 1001 to the given outputs. */
  const transfer = (input: Uint8Array, outputs: OutputV3[]): SignedTransactionPayloadV3 =>
    signedTx({ creationSlot: 1001, inputs: [inputOf(input)], outputs }, WALLET, h.engine.params);

  beforeEach(async () => {
    h = await new EngineHarness().open();
    h.at(1001);
    svc = service();
  });

  it('a committed transfer: outputs created, input consumed; by slot and ID; IDs or full; JSON or bytes', async () => {
    const g0 = genesisOutputId(h.g, 0);
    const outputs = [basic(600_000_000n, key(70)), basic(400_000_000n, WALLET)];
    const tx = transfer(g0, outputs);
    await h.submit({ slot: 1001, payload: tx });
    await h.confirm();
    h.at(1012); // slot 1001 is committed: its commitment covers the transaction
    await h.engine.read(() => undefined);
    expect(h.engine.transactionState(txIdOf(tx))?.committedSlot).to.equal(1001);
    const created = outputs.map((_, i) => outputIdV3(txIdOf(tx), i));
    const cid = await commitmentId(1001);
    const ids = { commitmentId: cid, createdOutputs: created.map(toHex0x), consumedOutputs: [toHex0x(g0)] };
    expect(await json(slotKey(1001))).to.deep.equal(ids);
    expect(await json(idKey(fromHex0x(cid)))).to.deep.equal(ids);
    const full = {
      commitmentId: cid,
      createdOutputs: outputs.map((o, i) => ({ outputId: toHex0x(created[i]!), output: outputToJsonV3(o) })),
      consumedOutputs: [{ outputId: toHex0x(g0), output: outputToJsonV3(h.g.outputs[0]!) }],
    };
    expect(await json(slotKey(1001), true)).to.deep.equal(full);
    expect(await json(idKey(fromHex0x(cid)), true)).to.deep.equal(full);

    // serix bytes (iota.go UTXOChangesResponse / UTXOChangesFullResponse): ID, then u32 LE counted lists
    const raw = await changes(slotKey(1001), false, BlockView.BLOCK_VIEW_RAW);
    expect(raw.json).to.equal('');
    expect(toHex0x(raw.raw)).to.equal(toHex0x(concatBytes(fromHex0x(cid), u32(2), ...created, u32(1), g0)));
    const rawFull = (await changes(idKey(fromHex0x(cid)), true, UNSPECIFIED)).raw;
    const items = created.flatMap((id, i) => [id, encodeOutputV3(outputs[i]!)]);
    const consumed = [g0, encodeOutputV3(h.g.outputs[0]!)];
    expect(toHex0x(rawFull)).to.equal(toHex0x(concatBytes(fromHex0x(cid), u32(2), ...items, u32(1), ...consumed)));

    // the slots around it changed nothing: empty lists, stored as an empty value
    const empty = { commitmentId: await commitmentId(1002), createdOutputs: [], consumedOutputs: [] };
    expect(await json(slotKey(1002), true)).to.deep.equal(empty);
    expect(await h.kv.get(tableKey(V3_TABLES.utxoChanges, 1002))).to.deep.equal(new Uint8Array(0));

    // a restart answers the same
    await h.open();
    svc = service();
    expect(await json(slotKey(1001))).to.deep.equal(ids);
    expect(await json(idKey(fromHex0x(cid)), true)).to.deep.equal(full);
  });

  it('transactions of one slot in a chain: the output created and consumed there is in both lists', async () => {
    const g0 = genesisOutputId(h.g, 0);
    const a = transfer(g0, [basic(600_000_000n, WALLET), basic(400_000_000n, WALLET)]);
    await h.submit({ slot: 1001, payload: a });
    await h.confirm();
    const a0 = outputIdV3(txIdOf(a), 0);
    const b = transfer(a0, [basic(600_000_000n, key(71))]);
    // in slot 1001 too: issued 1 ms after the clock, after the validation rounds (the harness issues at slot starts)
    const e = h.engine;
    const issuingTime = BigInt(h.nowMs + 1) * 1_000_000n;
    const at = { parents: e.selectTips(), issuingTime, commitmentId: e.commitmentIdForSlot(1001) };
    await e.submit({ raw: basicBlock(e.params, { issuer: USER, ...at, payload: b }) });
    await h.confirm();
    h.at(1012);
    const created = [a0, outputIdV3(txIdOf(a), 1), outputIdV3(txIdOf(b), 0)].map(toHex0x).sort();
    expect(await json(slotKey(1001))).to.deep.equal({
      commitmentId: await commitmentId(1001),
      createdOutputs: created,
      consumedOutputs: [g0, a0].map(toHex0x).sort(),
    });
  });

  it('late confirmation: in the slot whose commitment covers it; pruned from the ledger, /full has it', async () => {
    const g0 = genesisOutputId(h.g, 0);
    const tx = transfer(g0, [basic(1_000_000_000n, key(70))]);
    await h.submit({ slot: 1001, payload: tx });
    await h.engine.issueValidationBlocks(); // accepted, not confirmed
    h.at(1011);
    await h.acceptBeside(); // a block of slot 1011 accepted: slot 1001 is committed, the transaction not applied
    await h.confirm(); // now applied, its included block in slot 1001
    h.at(1014);
    await h.confirm();
    await h.engine.read(() => undefined);
    expect(h.engine.transactionState(txIdOf(tx))?.committedSlot).to.equal(1002);
    expect(await json(slotKey(1001))).to.deep.include({ createdOutputs: [], consumedOutputs: [] });
    const full = await json(slotKey(1002), true);
    expect(full.consumedOutputs).to.deep.equal([{ outputId: toHex0x(g0), output: outputToJsonV3(h.g.outputs[0]!) }]);

    // pruning the slots before 1002 deletes the included block, the transaction record and the spent genesis output
    await h.engine.prune({ milestoneIndex: 3, timestamp: GENESIS_TIME + 1001 });
    expect(h.engine.output(g0)).to.equal(undefined);
    expect(await json(slotKey(1002), true)).to.deep.equal(full);
    const pruned = await rejection(changes(slotKey(1001)));
    expect([pruned.code, pruned.message]).to.deep.equal([
      'NOT_FOUND',
      'no UTXO changes of slot 1001: pruned, this node keeps none of a slot before 1002, the slot of milestone 3, ' +
        'its pruning index',
    ]);
    expect(await h.store.get(V3_TABLES.utxoChanges, 1001)).to.equal(undefined);
  });

  it('NOT_FOUND or INVALID_REQUEST, naming why; the all-zero ID names the latest commitment', async () => {
    await h.engine.read(() => undefined);
    const latest = h.engine.latestCommitment;
    const why = async (k: Key) => {
      const e = await rejection(changes(k));
      return [e.code, e.message];
    };
    const future = latest.commitment.slot + 1;
    const notYet = `slot ${future} is not committed yet (the latest committed slot is ${latest.commitment.slot})`;
    expect(await why(slotKey(future))).to.deep.equal(['NOT_FOUND', notYet]);
    const futureId = idWithSlot(new Uint8Array(32).fill(3), future);
    expect(await why(idKey(futureId))).to.deep.equal([
      'NOT_FOUND',
      `commitment not found: ${toHex0x(futureId)}, ${notYet}`,
    ]);
    const unknown = idWithSlot(new Uint8Array(32).fill(3), latest.commitment.slot);
    expect(await why(idKey(unknown))).to.deep.equal(['NOT_FOUND', `commitment not found: ${toHex0x(unknown)}`]);
    expect((await why(slotKey(0)))[1]).to.match(/genesis slot has none/);
    const short = await why(idKey(new Uint8Array(35)));
    expect(short[0]).to.equal('INVALID_REQUEST');
    expect(short[1]).to.match(/^invalid commitment ID: .*, expected 36 bytes, got 35$/);
    const structured = await rejection(
      svc.getUtxoChanges({ key: slotKey(1), full: false, view: BlockView.BLOCK_VIEW_STRUCTURED }),
    );
    expect(structured.code).to.equal('INVALID_REQUEST');
    expect((await rejection(svc.getUtxoChanges({ key: undefined, full: false, view: UNSPECIFIED }))).code).to.equal(
      'INVALID_REQUEST',
    );
    const zero = await json(idKey(new Uint8Array(36)));
    expect(zero).to.deep.equal({ commitmentId: toHex0x(latest.id), createdOutputs: [], consumedOutputs: [] });
    const commitment = JSON.parse(
      (await svc.getCommitment({ key: idKey(new Uint8Array(36)), view: BlockView.BLOCK_VIEW_JSON })).json,
    );
    expect(commitment.slot).to.equal(latest.commitment.slot);
  });

  it('a slot committed before the node kept UTXO changes (an older store): NOT_FOUND saying so', async () => {
    h.at(1012);
    await h.engine.read(() => undefined);
    const batch = h.store.batch();
    batch.del(V3_TABLES.utxoChanges, 1001);
    await batch.commit({ sync: true });
    const e = await rejection(changes(slotKey(1001)));
    expect([e.code, e.message]).to.deep.equal([
      'NOT_FOUND',
      'no UTXO changes of slot 1001: the slot was committed before this node kept UTXO changes (a store of an older ' +
        'version)',
    ]);
  });

  it("renders iota.go's JSON (api/core_test.go, UTXOChangesResponse and UTXOChangesFullResponse)", () => {
    const id = (b: number) => `0x${b.toString(16).padStart(2, '0')}${'00'.repeat(37)}`;
    const output = (amount: string, mana: string, hash: number) => ({
      type: 0,
      amount,
      mana,
      unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: `0x0${hash}${'00'.repeat(31)}` } }],
    });
    const bytes = (o: object) => toHex0x(encodeOutputV3(outputFromJsonV3(o)));
    const c = {
      commitmentId: idWithSlot(new Uint8Array(32), 42),
      record: {
        created: [[id(1), bytes(output('123', '456', 1))]] as [string, string][],
        consumed: [[id(2), bytes(output('456', '123', 2))]] as [string, string][],
      },
    };
    const commitment = '0x00000000000000000000000000000000000000000000000000000000000000002a000000';
    expect(JSON.stringify(utxoChangesJsonV3(c, false))).to.equal(
      JSON.stringify({ commitmentId: commitment, createdOutputs: [id(1)], consumedOutputs: [id(2)] }),
    );
    expect(JSON.stringify(utxoChangesJsonV3(c, true))).to.equal(
      JSON.stringify({
        commitmentId: commitment,
        createdOutputs: [{ outputId: id(1), output: output('123', '456', 1) }],
        consumedOutputs: [{ outputId: id(2), output: output('456', '123', 2) }],
      }),
    );
  });
});
