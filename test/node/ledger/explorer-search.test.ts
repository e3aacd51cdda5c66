/**
 * The explorer's search read (src/node/ledger/explorer-search.ts) through its RPC (ExplorerService.search) over a
 * memory store holding a genesis (milestone 10), a transfer confirmed by milestone 11 and two more milestones: each
 * kind of text names what the store holds, with the facts a page links on; text that is no ID is INVALID_REQUEST or
 * INVALID_BECH32; what the node does not hold is NOT_FOUND, and after block pruning and history retention the answers
 * say that it may have been pruned (PRUNED for a milestone at or below the pruning index).
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { bech32EncodeAddress, outputId, transactionIdOf } from '../../../src/core/ids/index.ts';
import { pruneHistory } from '../../../src/core/ledger/index.ts';
import type { TransactionPayload } from '../../../src/core/model/index.ts';
import { pruneTo } from '../../../src/core/pruning/index.ts';
import { MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import type { ExplorerRequest } from '../../../src/grpc/gen/node.ts';
import { ExplorerService } from '../../../src/node/grpc/service-explorer.ts';
import { ExplorerReader } from '../../../src/node/ledger/explorer-reads.ts';
import { basicOutput, TestNetwork, transfer, Wallet, type BuiltBlock } from '../../../harness/fixtures/ledger.ts';
import { confirmNext } from '../../core/ledger/history/support.ts';

const alice = new Wallet('alice');
const bob = new Wallet('bob');
const HRP = 'smr';
const BOB = bech32EncodeAddress(HRP, bob.address);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Scenario {
  net: TestNetwork;
  service: ExplorerService;
  tx: BuiltBlock;
  txId: string;
  empty: BuiltBlock;
  milestones: Map<number, { id: string; blockId: string; timestamp: number }>;
}

async function scenario(): Promise<Scenario> {
  const net = await TestNetwork.create(new MemoryKeyValueStore(), [{ wallet: alice, amount: 5_000_000n }]);
  const tx = await net.add(transfer(alice, [net.genesisOutputs[0]!], [basicOutput(5_000_000n, bob.address)]));
  const milestones = new Map<number, { id: string; blockId: string; timestamp: number }>();
  const confirm = async (): Promise<void> => {
    const { c, ms } = await confirmNext(net);
    milestones.set(c.milestoneIndex, {
      id: toHex0x(c.milestoneId),
      blockId: toHex0x(ms.id),
      timestamp: c.milestoneTimestamp,
    });
  };
  await confirm();
  const empty = await net.add();
  await confirm();
  await net.add();
  await confirm();
  return {
    net,
    service: new ExplorerService(new ExplorerReader(net.store, () => HRP)),
    tx,
    txId: toHex0x(transactionIdOf(tx.block.payload as TransactionPayload)),
    empty,
    milestones,
  };
}

const request = (text: string, parameters: ExplorerRequest['parameters'] = []): ExplorerRequest => ({
  subject: { $case: 'text', value: text },
  parameters,
});

describe('explorer search: what a text names', () => {
  let s: Scenario;
  before(async () => {
    s = await scenario();
  });
  const search = async (text: string): Promise<Json> => JSON.parse((await s.service.search(request(text))).json);
  const failure = async (text: string): Promise<{ code: string; message: string }> => {
    const e = (await s.service.search(request(text)).then(
      () => expect.fail(`search ${text} answered`),
      (err: unknown) => err,
    )) as { code: string; message: string };
    return { code: e.code, message: e.message };
  };

  it('a decimal is a milestone index: its ID, timestamp, block, history and neighbours', async () => {
    const m11 = s.milestones.get(11)!;
    expect(await search('11')).to.deep.equal({
      kind: 'milestone',
      id: m11.id,
      index: 11,
      timestamp: m11.timestamp,
      blockId: m11.blockId,
      history: true,
      previousIndex: 10,
      nextIndex: 12,
    });
    // the genesis milestone has no block the node holds; the newest none after it
    expect(await search('10')).to.include({ kind: 'milestone', index: 10, blockId: null, previousIndex: null });
    expect(await search(' 013 ')).to.include({ index: 13, nextIndex: null });
  });

  it('a 32-byte ID is a block (with its transaction), a transaction (with its block) or a milestone', async () => {
    expect(await search(toHex0x(s.tx.id))).to.deep.equal({
      kind: 'block',
      id: toHex0x(s.tx.id),
      transactionId: s.txId,
    });
    expect(await search(toHex0x(s.empty.id))).to.deep.equal({
      kind: 'block',
      id: toHex0x(s.empty.id),
      transactionId: null,
    });
    expect(await search(s.txId.toUpperCase().replace('0X', '0x'))).to.deep.equal({
      kind: 'transaction',
      id: s.txId,
      blockId: toHex0x(s.tx.id),
      included: true,
    });
    expect(await search(s.milestones.get(12)!.id)).to.deep.equal(await search('12'));
  });

  it('a 34-byte ID is an output, spent or not; an address is bech32 of this network', async () => {
    const spent = toHex0x(s.net.genesisOutputs[0]!.outputId);
    expect(await search(spent)).to.deep.equal({ kind: 'output', id: spent });
    const bobs = toHex0x(outputId(transactionIdOf(s.tx.block.payload as TransactionPayload), 0));
    expect(await search(bobs)).to.deep.equal({ kind: 'output', id: bobs });
    expect(await search(BOB)).to.deep.equal({ kind: 'address', id: BOB });
    expect(await search(BOB.toUpperCase())).to.deep.equal({ kind: 'address', id: BOB });
  });

  const BAD: [string, string, RegExp][] = [
    ['hello', 'INVALID_REQUEST', /^search: "hello" is neither a milestone index, a block, transaction/],
    ['', 'INVALID_REQUEST', /^search: "" is neither/],
    ['0x1234', 'INVALID_REQUEST', /is neither/],
    [`0x${'ab'.repeat(33)}`, 'INVALID_REQUEST', /is neither/],
    ['-1', 'INVALID_REQUEST', /is neither/],
    ['4294967296', 'INVALID_REQUEST', /^search: milestone index 4294967296 is above 4294967295$/],
    [`0x${'ab'.repeat(32)}8000`, 'VALUE_OUT_OF_RANGE', /output index 128 is outside 0..127/],
    [BOB.replace('smr1', 'rms1'), 'INVALID_BECH32', /^Invalid address: .*invalid checksum|"rms" is not "smr"/],
    [bech32EncodeAddress('rms', bob.address), 'INVALID_BECH32', /human-readable part "rms" is not "smr"/],
    [`${BOB.slice(0, -1)}q`, 'INVALID_BECH32', /invalid checksum/],
  ];
  for (const [text, code, message] of BAD)
    it(`"${text.length > 20 ? `${text.slice(0, 20)}...` : text}": ${code}`, async () => {
      const e = await failure(text);
      expect(e.code).to.equal(code);
      expect(e.message).to.match(message);
    });

  it('what the node does not hold is NOT_FOUND, naming it', async () => {
    expect(await failure(`0x${'ab'.repeat(32)}`)).to.deep.equal({
      code: 'NOT_FOUND',
      message:
        `nothing known by 0x${'ab'.repeat(32)}: no block, transaction or milestone ` +
        '(unknown, or not seen by this node yet)',
    });
    expect(await failure(`0x${'ab'.repeat(32)}0100`)).to.deep.include({ code: 'NOT_FOUND' });
    expect(await failure('14')).to.deep.equal({
      code: 'NOT_FOUND',
      message: 'milestone 14 is not confirmed yet: the confirmed milestone is 13',
    });
    expect(await failure('9')).to.deep.equal({
      code: 'NOT_FOUND',
      message: 'milestone 9 is not known to this node (before the start of its ledger)',
    });
  });

  it('the RPC needs a text and takes no query parameter', async () => {
    const noText = await s.service
      .search({ subject: { $case: 'address', value: BOB }, parameters: [] })
      .catch((e) => e);
    expect([noText.code, noText.message]).to.deep.equal([
      'INVALID_REQUEST',
      'invalid explorer request: search needs a text as its subject',
    ]);
    const param = await s.service.search(request('11', [{ name: 'pageSize', value: '1' }])).catch((e) => e);
    expect([param.code, param.field]).to.deep.equal(['INVALID_FIELD', 'pageSize']);
    const other = await s.service.balance(request(BOB)).catch((e) => e);
    expect(other.message).to.equal('invalid explorer request: balance needs an address as its subject');
  });
});

describe('explorer search on a pruned node', () => {
  it('block pruning: blocks may be pruned, milestones come from the history, then are PRUNED', async () => {
    const s = await scenario();
    const search = async (text: string): Promise<Json> => JSON.parse((await s.service.search(request(text))).json);
    const failure = (text: string): Promise<{ code: string; message: string }> =>
      s.service.search(request(text)).then(
        () => expect.fail(`search ${text} answered`),
        (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
      );
    await pruneTo(s.net.store, 12, { exclusive: (fn) => fn() });
    const gone = await failure(toHex0x(s.tx.id));
    expect(gone.code).to.equal('NOT_FOUND');
    expect(gone.message).to.match(/^nothing known by 0x[0-9a-f]{64}: no block, transaction or milestone \(unknown/);
    expect(gone.message).to.match(/or pruned: this node keeps nothing referenced at or below milestone 12/);
    // the history (its own retention) still has milestone 11: no block, its blocks and updates kept
    expect(await search('11')).to.deep.include({ id: s.milestones.get(11)!.id, blockId: null, history: true });
    expect(await search(s.milestones.get(11)!.id)).to.deep.include({ index: 11 });
    expect((await search('13')).blockId).to.equal(s.milestones.get(13)!.blockId);
    await pruneHistory(s.net.store, 12);
    expect(await failure('11')).to.deep.equal({
      code: 'PRUNED',
      message: 'milestone 11 was pruned: this node keeps nothing at or below milestone 12, its pruning index',
    });
    expect(await search('13')).to.deep.include({ history: true, previousIndex: null });
    const spent = await failure(toHex0x(s.net.genesisOutputs[0]!.outputId));
    expect(spent.code).to.equal('NOT_FOUND');
    expect(spent.message).to.match(
      /^output not found: 0x[0-9a-f]{68} \(unknown, or not booked by a milestone yet, or pruned/,
    );
  });
});
