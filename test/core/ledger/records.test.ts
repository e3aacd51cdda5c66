/** Ledger records and genesis: exact round trips, strict decoding of corrupt records, initLedger guards. */
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { outputId } from '../../../src/core/ids/index.ts';
import {
  decodeMilestoneDiff,
  decodeOutputRecord,
  decodeReceiptRecord,
  decodeSpentRecord,
  decodeTreasuryRecord,
  encodeMilestoneDiff,
  encodeOutputRecord,
  encodeReceiptRecord,
  encodeSpentRecord,
  encodeTreasuryRecord,
  initLedger,
  LEDGER_META,
  LedgerState,
  receiptKeyCodec,
  type MilestoneDiff,
  type OutputRecord,
} from '../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import {
  basicOutput,
  bytes32,
  Coordinator,
  ENTRY_POINT,
  GENESIS_INDEX,
  PROTOCOL,
  TestNetwork,
  Wallet,
} from '../../../harness/fixtures/ledger.ts';

const alice = new Wallet('alice');

function expectProtocolError(fn: () => unknown, code: string): void {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, 'must throw').to.have.property('name', 'ProtocolError');
  expect(error).to.have.property('code', code);
}

describe('ledger: records', () => {
  const record: OutputRecord = {
    blockId: bytes32('block'),
    milestoneIndexBooked: 17339,
    milestoneTimestampBooked: 1664385901,
    output: basicOutput(42_000n, alice.address),
  };

  it('output records round-trip and reject truncation, trailing bytes and unknown versions', () => {
    const bytes = encodeOutputRecord(record);
    expect(decodeOutputRecord(bytes)).to.deep.equal(record);
    expectProtocolError(() => decodeOutputRecord(bytes.subarray(0, bytes.length - 1)), 'TRUNCATED');
    expectProtocolError(() => decodeOutputRecord(Uint8Array.of(...bytes, 0)), 'TRAILING_BYTES');
    expectProtocolError(() => decodeOutputRecord(Uint8Array.of(0, ...bytes.subarray(1))), 'VALUE_OUT_OF_RANGE');
    const badOutput = bytes.slice();
    badOutput[43] = 9; // output type 9
    expectProtocolError(() => decodeOutputRecord(badOutput), 'INVALID_FIELD');
    expect(() => encodeOutputRecord({ ...record, blockId: new Uint8Array(31) })).to.throw(RangeError);
  });

  it('spent records round-trip exactly (41 bytes)', () => {
    const spent = { transactionIdSpent: bytes32('tx'), milestoneIndexSpent: 5, milestoneTimestampSpent: 6 };
    const bytes = encodeSpentRecord(spent);
    expect(bytes.length).to.equal(41);
    expect(decodeSpentRecord(bytes)).to.deep.equal(spent);
    expectProtocolError(() => decodeSpentRecord(bytes.subarray(0, 40)), 'TRUNCATED');
  });

  it('milestone diffs round-trip with and without a treasury change, and refuse a count beyond the data', () => {
    const plain: MilestoneDiff = {
      created: [outputId(bytes32('a'), 0), outputId(bytes32('a'), 1)],
      consumed: [outputId(bytes32('b'), 127)],
    };
    expect(decodeMilestoneDiff(encodeMilestoneDiff(plain))).to.deep.equal(plain);
    const withTreasury: MilestoneDiff = {
      ...plain,
      treasury: {
        spent: { milestoneId: bytes32('m1'), amount: 10n },
        created: { milestoneId: bytes32('m2'), amount: 4n },
      },
    };
    expect(decodeMilestoneDiff(encodeMilestoneDiff(withTreasury))).to.deep.equal(withTreasury);
    const bytes = encodeMilestoneDiff(plain);
    bytes[1] = 200; // created count 200
    expectProtocolError(() => decodeMilestoneDiff(bytes), 'TRUNCATED');
    const flag = encodeMilestoneDiff(plain);
    flag[flag.length - 1] = 2;
    expectProtocolError(() => decodeMilestoneDiff(flag), 'VALUE_OUT_OF_RANGE');
  });

  it('treasury and receipt records round-trip; receipt keys sort by migratedAt, then milestone index', () => {
    expect(decodeTreasuryRecord(encodeTreasuryRecord({ amount: 123n, spent: true }))).to.deep.equal({
      amount: 123n,
      spent: true,
    });
    const receipt = {
      type: 0 as const,
      migratedAt: 3,
      final: true,
      funds: [{ tailTransactionHash: new Uint8Array(49).fill(7), address: alice.address, deposit: 1_000_000n }],
      transaction: {
        type: 4 as const,
        input: { type: 1 as const, milestoneId: bytes32('t') },
        output: { type: 2 as const, amount: 5n },
      },
    };
    expect(decodeReceiptRecord(encodeReceiptRecord(receipt))).to.deep.equal(receipt);
    const keys = [
      { migratedAt: 2, milestoneIndex: 300 },
      { migratedAt: 1, milestoneIndex: 0xffffffff },
      { migratedAt: 2, milestoneIndex: 7 },
    ].map((k) => toHex(receiptKeyCodec.encode(k)));
    expect([...keys].sort()).to.deep.equal([keys[1], keys[2], keys[0]]);
  });

  it('ledger meta values round-trip (protocol parameters, key configuration, solid entry points)', () => {
    const c = new Coordinator(3, 2);
    const keys = { keyRanges: c.keyRanges.map((k, i) => ({ ...k, start: i, end: i * 10 })), threshold: 2 };
    expect(LEDGER_META.milestoneKeys.codec.decode(LEDGER_META.milestoneKeys.codec.encode(keys), 'keys')).to.deep.equal(
      keys,
    );
    expect(
      LEDGER_META.protocolParameters.codec.decode(LEDGER_META.protocolParameters.codec.encode(PROTOCOL), 'pp'),
    ).to.deep.equal(PROTOCOL);
    const seps = [bytes32('s1'), bytes32('s2')];
    expect(
      LEDGER_META.solidEntryPoints.codec.decode(LEDGER_META.solidEntryPoints.codec.encode(seps), 'seps'),
    ).to.deep.equal(seps);
  });
});

describe('ledger: genesis', () => {
  it('writes outputs, treasury, milestone, indexes and configuration, readable through LedgerState', async () => {
    const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 7n }], { treasury: 99n });
    const ledger = new LedgerState(net.store);
    expect(await ledger.ledgerIndex()).to.equal(GENESIS_INDEX);
    const out = await ledger.output(net.genesisOutputs[0]!.outputId);
    expect(out?.output).to.deep.equal(basicOutput(7n, alice.address));
    expect(out?.spent).to.equal(undefined);
    const ids: string[] = [];
    for await (const id of ledger.unspentOutputIds()) ids.push(toHex(id));
    expect(ids).to.deep.equal([toHex(net.genesisOutputs[0]!.outputId)]);
    expect((await ledger.treasury())?.amount).to.equal(99n);
    expect((await ledger.solidEntryPoints()).map(toHex)).to.deep.equal([toHex(ENTRY_POINT)]);
    expect((await ledger.milestoneKeys())?.threshold).to.equal(2);
    expect(await ledger.protocolParameters(GENESIS_INDEX + 1)).to.deep.equal(PROTOCOL);
    expect((await net.store.milestone(GENESIS_INDEX))?.timestamp).to.be.a('number');
  });

  it('refuses a store that already holds a ledger (DUPLICATE) and duplicate genesis outputs', async () => {
    const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 7n }]);
    const genesis = {
      protocolParameters: PROTOCOL,
      milestone: { index: 1, timestamp: 1, milestoneId: bytes32('m') },
      milestoneKeyRanges: [],
      milestonePublicKeyCount: 1,
      solidEntryPoints: [],
      unspentOutputs: [],
    };
    const again = await initLedger(net.store, genesis).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(again).to.have.property('code', 'DUPLICATE');
    const fresh = await NodeStore.open(new MemoryKeyValueStore());
    const o = {
      outputId: outputId(bytes32('x'), 0),
      blockId: new Uint8Array(32),
      milestoneIndexBooked: 0,
      milestoneTimestampBooked: 0,
      output: basicOutput(1n, alice.address),
    };
    const dup = await initLedger(fresh, { ...genesis, unspentOutputs: [o, o] }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(dup).to.have.property('code', 'DUPLICATE');
    expect(await new LedgerState(fresh).ledgerIndex()).to.equal(undefined);
  });
});
