/**
 * The TIP-26 list queries on a small ledger holding every kind of output with every unlock condition and feature:
 * each filter of each route, the (createdAt, output ID) order, the combined route, chain lookups, and outputs that
 * disappear once spent.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../../src/core/bytes.ts';
import { aliasIdFromOutputId, foundryId, nftIdFromOutputId } from '../../../../src/core/ids/index.ts';
import {
  outputIdByAliasId,
  outputIdByFoundryId,
  outputIdByNftId,
  positionOf,
  queryOutputs,
  type IndexableOutput,
  type IndexerRoute,
} from '../../../../src/core/ledger/index.ts';
import { compareBytes } from '../../../../src/core/bytes.ts';
import type { NodeStore } from '../../../../src/core/store/index.ts';
import {
  alias,
  aliasAddress,
  basic,
  bech,
  book,
  booked,
  bytes32,
  ed,
  foundry,
  HRP,
  newStore,
  nft,
  nftAddress,
  tagHex,
} from './support.ts';

const A = ed('A');
const B = ed('B');
const C = ed('C');
const X_ID = bytes32('alias X');
const X = aliasAddress(X_ID);
const N_ID = bytes32('nft N');
const N = nftAddress(N_ID);

const fixture: Record<string, IndexableOutput> = {
  b1: booked('b1', 100, basic({ address: A })),
  b2: booked(
    'b2',
    100,
    basic(
      { address: A, sdruc: B, timelock: 300, expiration: { address: B, time: 500 } },
      { sender: C, tag: 'hello', nativeTokens: 2 },
    ),
  ),
  b3: booked('b3', 110, basic({ address: B, expiration: { address: A, time: 200 } })),
  b4: booked('b4', 120, basic({ address: X, timelock: 150 }, { tag: 'world', nativeTokens: 1 })),
  a1: booked('a1', 120, alias(A, B, { sender: C, issuer: C, nativeTokens: 1 })),
  a2: booked('a2', 130, alias(B, B, {}, X_ID)),
  f1: booked('f1', 130, foundry(X_ID, 1, { nativeTokens: 3 })),
  n1: booked('n1', 140, nft({ address: A, sdruc: C }, { sender: B, issuer: C, tag: 'hello' })),
  n2: booked('n2', 150, nft({ address: N, timelock: 900, expiration: { address: A, time: 1000 } }, {}, N_ID)),
};
const nameOf = new Map(Object.entries(fixture).map(([name, o]) => [toHex0x(o.outputId), name]));
/** Names in (createdAt, output ID) order. */
const ordered = (...names: string[]): string[] =>
  names
    .map((n) => [n, positionOf(fixture[n]!.milestoneTimestampBooked, fixture[n]!.outputId)] as const)
    .sort((a, b) => compareBytes(a[1], b[1]))
    .map(([n]) => n);

describe('indexer: queries', () => {
  let store: NodeStore;
  before(async () => {
    store = await newStore();
    await book(store, Object.values(fixture));
  });

  async function names(route: IndexerRoute, params: Record<string, string> = {}): Promise<string[]> {
    const answer = await queryOutputs(store, route, params, 42, HRP);
    expect(answer.ledgerIndex).to.equal(42);
    expect(answer.cursor).to.equal(undefined);
    return answer.items.map((id) => nameOf.get(id) ?? id);
  }

  it('lists every output of a kind by createdAt then output ID; the combined route merges the kinds', async () => {
    expect(await names('basic')).to.deep.equal(ordered('b1', 'b2', 'b3', 'b4'));
    expect(await names('alias')).to.deep.equal(ordered('a1', 'a2'));
    expect(await names('foundry')).to.deep.equal(['f1']);
    expect(await names('nft')).to.deep.equal(ordered('n1', 'n2'));
    expect(await names('outputs')).to.deep.equal(ordered(...Object.keys(fixture)));
    const answer = await queryOutputs(store, 'basic', {}, 9, HRP);
    expect(answer).to.deep.equal({
      ledgerIndex: 9,
      pageSize: 1000,
      items: ordered('b1', 'b2', 'b3', 'b4').map((n) => toHex0x(fixture[n]!.outputId)),
    });
  });

  it('address, unlockableByAddress and the return-address filters of basic and NFT outputs', async () => {
    expect(await names('basic', { address: bech(A) })).to.deep.equal(ordered('b1', 'b2'));
    expect(await names('basic', { unlockableByAddress: bech(A) })).to.deep.equal(ordered('b1', 'b2', 'b3'));
    expect(await names('basic', { unlockableByAddress: bech(B) })).to.deep.equal(ordered('b2', 'b3'));
    expect(await names('basic', { storageDepositReturnAddress: bech(B) })).to.deep.equal(['b2']);
    expect(await names('basic', { expirationReturnAddress: bech(A) })).to.deep.equal(['b3']);
    expect(await names('basic', { expirationReturnAddress: bech(B), address: bech(A) })).to.deep.equal(['b2']);
    expect(await names('basic', { address: bech(X) })).to.deep.equal(['b4']);
    expect(await names('nft', { address: bech(A) })).to.deep.equal(['n1']);
    expect(await names('nft', { unlockableByAddress: bech(A) })).to.deep.equal(ordered('n1', 'n2'));
    expect(await names('nft', { storageDepositReturnAddress: bech(C) })).to.deep.equal(['n1']);
    expect(await names('nft', { address: bech(N) })).to.deep.equal(['n2']);
    expect(await names('basic', { address: bech(C) })).to.deep.equal([]);
    // Two address filters: one is scanned, the other checked on the decoded output.
    expect(await names('basic', { address: bech(A), unlockableByAddress: bech(B) })).to.deep.equal(['b2']);
    expect(await names('basic', { address: bech(B), unlockableByAddress: bech(A) })).to.deep.equal(['b3']);
    expect(await names('nft', { address: bech(A), unlockableByAddress: bech(C) })).to.deep.equal(['n1']);
    expect(await names('alias', { stateController: bech(A), unlockableByAddress: bech(B) })).to.deep.equal(['a1']);
  });

  it('unlock condition presence and time filters (strictly before / after; absent never matches a time)', async () => {
    expect(await names('basic', { hasStorageDepositReturn: 'true' })).to.deep.equal(['b2']);
    expect(await names('basic', { hasStorageDepositReturn: 'false' })).to.deep.equal(ordered('b1', 'b3', 'b4'));
    expect(await names('basic', { hasExpiration: 'true' })).to.deep.equal(ordered('b2', 'b3'));
    expect(await names('basic', { hasExpiration: 'false', hasTimelock: 'false' })).to.deep.equal(['b1']);
    expect(await names('basic', { expiresBefore: '500' })).to.deep.equal(['b3']);
    expect(await names('basic', { expiresBefore: '501' })).to.deep.equal(ordered('b2', 'b3'));
    expect(await names('basic', { expiresAfter: '200' })).to.deep.equal(['b2']);
    expect(await names('basic', { expiresAfter: '199', expiresBefore: '201' })).to.deep.equal(['b3']);
    expect(await names('basic', { hasTimelock: 'true' })).to.deep.equal(ordered('b2', 'b4'));
    expect(await names('basic', { timelockedBefore: '300' })).to.deep.equal(['b4']);
    expect(await names('basic', { timelockedAfter: '150' })).to.deep.equal(['b2']);
    expect(await names('nft', { hasTimelock: 'true', timelockedAfter: '899', expiresBefore: '1001' })).to.deep.equal([
      'n2',
    ]);
    expect(await names('nft', { hasExpiration: 'false' })).to.deep.equal(['n1']);
  });

  it('sender, issuer, tag and native token filters', async () => {
    expect(await names('basic', { sender: bech(C) })).to.deep.equal(['b2']);
    expect(await names('basic', { tag: tagHex('hello') })).to.deep.equal(['b2']);
    expect(await names('basic', { tag: tagHex('hell') })).to.deep.equal([]);
    expect(await names('basic', { sender: bech(C), tag: tagHex('hello'), address: bech(A) })).to.deep.equal(['b2']);
    expect(await names('nft', { tag: tagHex('hello'), sender: bech(B), issuer: bech(C) })).to.deep.equal(['n1']);
    expect(await names('nft', { issuer: bech(B) })).to.deep.equal([]);
    expect(await names('alias', { sender: bech(C) })).to.deep.equal(['a1']);
    expect(await names('alias', { issuer: bech(C) })).to.deep.equal(['a1']);
    expect(await names('basic', { hasNativeTokens: 'true' })).to.deep.equal(ordered('b2', 'b4'));
    expect(await names('basic', { hasNativeTokens: 'false' })).to.deep.equal(ordered('b1', 'b3'));
    expect(await names('basic', { minNativeTokenCount: '2' })).to.deep.equal(['b2']);
    expect(await names('basic', { maxNativeTokenCount: '1' })).to.deep.equal(ordered('b1', 'b3', 'b4'));
    expect(await names('foundry', { minNativeTokenCount: '3', maxNativeTokenCount: '3' })).to.deep.equal(['f1']);
    expect(await names('outputs', { hasNativeTokens: 'true' })).to.deep.equal(ordered('b2', 'b4', 'a1', 'f1'));
  });

  it('alias filters: state controller, governor, and unlockableByAddress as either', async () => {
    expect(await names('alias', { stateController: bech(A) })).to.deep.equal(['a1']);
    expect(await names('alias', { stateController: bech(B) })).to.deep.equal(['a2']);
    expect(await names('alias', { governor: bech(B) })).to.deep.equal(ordered('a1', 'a2'));
    expect(await names('alias', { unlockableByAddress: bech(A) })).to.deep.equal(['a1']);
    expect(await names('alias', { unlockableByAddress: bech(B) })).to.deep.equal(ordered('a1', 'a2'));
    expect(await names('alias', { stateController: bech(A), governor: bech(A) })).to.deep.equal([]);
  });

  it('foundries by controlling alias; the combined route includes them only for an alias address', async () => {
    expect(await names('foundry', { aliasAddress: bech(X) })).to.deep.equal(['f1']);
    expect(await names('foundry', { aliasAddress: bech(aliasAddress(bytes32('other alias'))) })).to.deep.equal([]);
    expect(await names('outputs', { unlockableByAddress: bech(X) })).to.deep.equal(ordered('b4', 'f1'));
    expect(await names('outputs', { unlockableByAddress: bech(A) })).to.deep.equal(
      ordered('b1', 'b2', 'b3', 'a1', 'n1', 'n2'),
    );
    expect(await names('outputs', { unlockableByAddress: bech(B) })).to.deep.equal(ordered('b2', 'b3', 'a1', 'a2'));
    expect(await names('outputs', { unlockableByAddress: bech(N) })).to.deep.equal(['n2']);
  });

  it('createdBefore / createdAfter bound the booking time strictly, on every route', async () => {
    expect(await names('basic', { createdAfter: '100' })).to.deep.equal(ordered('b3', 'b4'));
    expect(await names('basic', { createdBefore: '110' })).to.deep.equal(ordered('b1', 'b2'));
    expect(await names('basic', { createdAfter: '100', createdBefore: '120' })).to.deep.equal(['b3']);
    expect(await names('basic', { createdAfter: '110', createdBefore: '111' })).to.deep.equal([]);
    expect(await names('basic', { createdAfter: '4294967295' })).to.deep.equal([]);
    expect(await names('outputs', { createdAfter: '120', createdBefore: '150' })).to.deep.equal(
      ordered('a2', 'f1', 'n1'),
    );
    expect(await names('outputs', { unlockableByAddress: bech(A), createdAfter: '110' })).to.deep.equal(
      ordered('a1', 'n1', 'n2'),
    );
    expect(await names('alias', { createdBefore: '121' })).to.deep.equal(['a1']);
  });

  it(
    'finds the current output of an alias, NFT or foundry (implicit IDs from the creating output ID); ' +
      'unknown IDs: undefined',
    async () => {
      const a1Id = aliasIdFromOutputId(fixture.a1!.outputId);
      expect(await outputIdByAliasId(store, a1Id)).to.deep.equal(fixture.a1!.outputId);
      expect(await outputIdByAliasId(store, toHex0x(X_ID))).to.deep.equal(fixture.a2!.outputId);
      expect(await outputIdByNftId(store, nftIdFromOutputId(fixture.n1!.outputId))).to.deep.equal(fixture.n1!.outputId);
      expect(await outputIdByNftId(store, toHex0x(N_ID).toUpperCase().replace('0X', '0x'))).to.deep.equal(
        fixture.n2!.outputId,
      );
      expect(await outputIdByFoundryId(store, foundryId(X_ID, 1, 0))).to.deep.equal(fixture.f1!.outputId);
      expect(await outputIdByFoundryId(store, foundryId(X_ID, 2, 0))).to.equal(undefined);
      expect(await outputIdByAliasId(store, N_ID)).to.equal(undefined);
      expect(await outputIdByNftId(store, X_ID)).to.equal(undefined);
    },
  );

  it('forgets spent outputs; a chain that moves is found at its new output', async () => {
    const s = await newStore();
    await book(s, Object.values(fixture));
    const a2next = booked('a2 next', 160, alias(A, B, {}, X_ID));
    const b1next = booked('b1 next', 160, basic({ address: C }));
    await book(s, [a2next, b1next], [fixture.a2!, fixture.b1!, fixture.n2!]);
    const list = async (route: IndexerRoute, params: Record<string, string> = {}) =>
      (await queryOutputs(s, route, params, 1, HRP)).items;
    const id = (o: IndexableOutput) => toHex0x(o.outputId);
    expect(await list('basic', { address: bech(A) })).to.deep.equal([id(fixture.b2!)]);
    expect(await list('basic', { address: bech(C) })).to.deep.equal([id(b1next)]);
    expect(await list('alias', { stateController: bech(B) })).to.deep.equal([]);
    expect(await list('alias', { stateController: bech(A) })).to.deep.equal([id(fixture.a1!), id(a2next)]);
    expect(await list('nft')).to.deep.equal([id(fixture.n1!)]);
    expect(await outputIdByAliasId(s, X_ID)).to.deep.equal(a2next.outputId);
    expect(await outputIdByNftId(s, N_ID)).to.equal(undefined);
    expect((await list('outputs')).length).to.equal(Object.keys(fixture).length - 3 + 2);
  });

  it('never indexes an output created and spent by the same change', async () => {
    const s = await newStore();
    const passing = booked('passing', 200, alias(A, A, {}, bytes32('alias P')));
    const kept = booked('kept', 200, alias(B, B, {}, bytes32('alias P')), 1);
    await book(s, [passing, kept], [passing]);
    expect((await queryOutputs(s, 'alias', {}, 1, HRP)).items).to.deep.equal([toHex0x(kept.outputId)]);
    expect((await queryOutputs(s, 'alias', { stateController: bech(A) }, 1, HRP)).items).to.deep.equal([]);
    expect(await outputIdByAliasId(s, bytes32('alias P'))).to.deep.equal(kept.outputId);
  });
});
