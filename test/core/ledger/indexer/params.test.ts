/**
 * Strict query parameters: unknown names, values of the wrong shape, bech32 of another network, bad cursors and page
 * sizes are ProtocolErrors naming the parameter; what inx-indexer accepts (Go booleans, empty values, pageSize=0,
 * upper-case cursors) is read as it reads it.
 */
import { expect } from 'chai';
import { ProtocolError } from '../../../../src/core/errors.ts';
import { bech32EncodeAddress } from '../../../../src/core/ids/index.ts';
import {
  formatCursor,
  INDEXER_MAX_PAGE_SIZE,
  outputIdByAliasId,
  outputIdByFoundryId,
  outputIdByNftId,
  parseOutputQuery,
  queryOutputs,
  ROUTE_PARAMS,
} from '../../../../src/core/ledger/index.ts';
import { encodeAddress } from '../../../../src/core/codec/index.ts';
import { aliasAddress, bech, bytes32, ed, HRP, newStore } from './support.ts';
import { protocolErrorOf } from '../../../support/protocol-error.ts';

const A = ed('A');
const cursor = `${'0'.repeat(8)}${'ab'.repeat(34)}.10`;

async function rejectionOf(p: Promise<unknown>): Promise<ProtocolError> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(ProtocolError);
    return e as ProtocolError;
  }
  throw new Error('expected a ProtocolError');
}

describe('indexer: query parameters', () => {
  it('takes exactly the parameters of each route (inx-indexer v1.0)', () => {
    expect([...ROUTE_PARAMS.outputs].sort()).to.deep.equal([
      'createdAfter',
      'createdBefore',
      'cursor',
      'hasNativeTokens',
      'maxNativeTokenCount',
      'minNativeTokenCount',
      'pageSize',
      'unlockableByAddress',
    ]);
    expect(ROUTE_PARAMS.foundry).to.include('aliasAddress').and.not.include('unlockableByAddress');
    expect(ROUTE_PARAMS.alias)
      .to.include.members(['stateController', 'governor', 'issuer', 'sender', 'unlockableByAddress'])
      .and.not.include('address');
    expect(ROUTE_PARAMS.nft).to.include.members(['issuer', 'tag', 'expiresBefore', 'timelockedAfter']);
    expect(ROUTE_PARAMS.basic).to.not.include('issuer');
    for (const [route, name] of [
      ['basic', 'issuer'],
      ['alias', 'address'],
      ['foundry', 'unlockableByAddress'],
      ['outputs', 'address'],
      ['nft', 'aliasAddress'],
      ['basic', 'limit'],
    ] as const) {
      const e = protocolErrorOf(() => parseOutputQuery(route, { [name]: bech(A) }, HRP));
      expect(e.field).to.equal(name);
      expect(e.message).to.match(new RegExp(`^Invalid query parameter ${name}: unknown for /outputs`));
    }
  });

  it('reads booleans as Go does and rejects anything else', () => {
    for (const v of ['true', 'True', 'TRUE', 't', 'T', '1'])
      expect(parseOutputQuery('basic', { hasTimelock: v }, HRP).hasTimelock).to.equal(true);
    for (const v of ['false', 'False', 'FALSE', 'f', 'F', '0'])
      expect(parseOutputQuery('basic', { hasExpiration: v }, HRP).hasExpiration).to.equal(false);
    for (const v of ['yes', 'tRUE', '2', ' true']) {
      const e = protocolErrorOf(() => parseOutputQuery('nft', { hasStorageDepositReturn: v }, HRP));
      expect(e.field).to.equal('hasStorageDepositReturn');
      expect(e.message).to.contain('is not a boolean');
    }
  });

  it('reads Unix times as u32 and native token counts as 0..64', () => {
    expect(parseOutputQuery('basic', { createdAfter: '4294967295', expiresBefore: '007' }, HRP)).to.include({
      createdAfter: 4294967295,
      expiresBefore: 7,
    });
    for (const [name, v] of [
      ['createdBefore', '-1'],
      ['createdAfter', '1.5'],
      ['expiresAfter', '0x10'],
      ['timelockedBefore', '+3'],
      ['timelockedAfter', '1e3'],
    ]) {
      const e = protocolErrorOf(() => parseOutputQuery('basic', { [name!]: v! }, HRP));
      expect(e.field).to.equal(name);
      expect(e.message).to.contain('not an unsigned decimal integer');
    }
    expect(protocolErrorOf(() => parseOutputQuery('basic', { createdBefore: '4294967296' }, HRP)).code).to.equal(
      'VALUE_OUT_OF_RANGE',
    );
    expect(parseOutputQuery('outputs', { minNativeTokenCount: '64', maxNativeTokenCount: '0' }, HRP)).to.include({
      minNativeTokenCount: 64,
      maxNativeTokenCount: 0,
    });
    const e = protocolErrorOf(() => parseOutputQuery('foundry', { maxNativeTokenCount: '65' }, HRP));
    expect(e.field).to.equal('maxNativeTokenCount');
    expect(e.message).to.contain('above the maximum 64');
  });

  it('reads addresses as bech32 of the network only; aliasAddress must be an alias address', () => {
    expect(parseOutputQuery('basic', { address: bech(A) }, HRP).address).to.deep.equal(encodeAddress(A));
    expect(parseOutputQuery('basic', { sender: bech(A).toUpperCase() }, HRP).sender).to.deep.equal(encodeAddress(A));
    const other = protocolErrorOf(() => parseOutputQuery('basic', { address: bech32EncodeAddress('rms', A) }, HRP));
    expect(other.field).to.equal('address');
    expect(other.code).to.equal('INVALID_BECH32');
    expect(other.message).to.contain('"rms" is not "smr"');
    const broken = bech(A).slice(0, -1) + (bech(A).endsWith('q') ? 'p' : 'q');
    expect(protocolErrorOf(() => parseOutputQuery('outputs', { unlockableByAddress: broken }, HRP)).message).to.match(
      /^Invalid query parameter unlockableByAddress: not a bech32 address of this network \(.*checksum/,
    );
    expect(protocolErrorOf(() => parseOutputQuery('alias', { governor: 'hello' }, HRP)).field).to.equal('governor');
    const notAlias = protocolErrorOf(() => parseOutputQuery('foundry', { aliasAddress: bech(A) }, HRP));
    expect(notAlias.field).to.equal('aliasAddress');
    expect(notAlias.message).to.contain('is not an alias address');
    expect(
      parseOutputQuery('foundry', { aliasAddress: bech(aliasAddress(bytes32('x'))) }, HRP).aliasAddress![0],
    ).to.equal(8);
  });

  it('reads tag as 0x-hex of 1..64 bytes', () => {
    expect(parseOutputQuery('basic', { tag: '0x68656c6c6f' }, HRP).tag).to.deep.equal(
      new TextEncoder().encode('hello'),
    );
    for (const v of ['68656c6c6f', '0x6', '0xzz', '0x', `0x${'00'.repeat(65)}`]) {
      const e = protocolErrorOf(() => parseOutputQuery('nft', { tag: v }, HRP));
      expect(e.field, v).to.equal('tag');
    }
  });

  it('page size: default and maximum 1000, 0 means the default, a cursor carries its own', () => {
    expect(parseOutputQuery('basic', {}, HRP).pageSize)
      .to.equal(INDEXER_MAX_PAGE_SIZE)
      .and.equal(1000);
    expect(parseOutputQuery('basic', { pageSize: '0' }, HRP).pageSize).to.equal(1000);
    expect(parseOutputQuery('basic', { pageSize: '1000' }, HRP).pageSize).to.equal(1000);
    expect(parseOutputQuery('basic', { pageSize: '25' }, HRP).pageSize).to.equal(25);
    expect(parseOutputQuery('basic', { pageSize: '25', cursor }, HRP).pageSize).to.equal(10);
    expect(parseOutputQuery('basic', { pageSize: '25', cursor: '' }, HRP).pageSize).to.equal(25);
    expect(parseOutputQuery('basic', {}, HRP, 4).pageSize).to.equal(4);
    expect(protocolErrorOf(() => parseOutputQuery('basic', { pageSize: '5' }, HRP, 4)).message).to.contain(
      'above the maximum 4',
    );
  });

  it('rejects page sizes above the maximum and malformed cursors, naming the parameter', () => {
    for (const v of ['1001', '-1', 'ten', '1.0'])
      expect(protocolErrorOf(() => parseOutputQuery('basic', { pageSize: v }, HRP)).field, v).to.equal('pageSize');
    const bad = [
      'abc',
      `${'0'.repeat(76)}`,
      `${'0'.repeat(75)}.5`,
      `${'0'.repeat(77)}.5`,
      `${'g'.repeat(76)}.5`,
      `${'0'.repeat(76)}.`,
      `${'0'.repeat(76)}.0`,
      `${'0'.repeat(76)}.1001`,
      `${'0'.repeat(76)}.5.5`,
      `0x${'0'.repeat(74)}.5`,
    ];
    for (const v of bad) {
      const e = protocolErrorOf(() => parseOutputQuery('outputs', { cursor: v }, HRP));
      expect(e.field, v).to.equal('cursor');
      expect(e.message).to.match(/^Invalid query parameter cursor: /);
    }
    const position = Uint8Array.from({ length: 38 }, (_, i) => i);
    expect(parseOutputQuery('nft', { cursor: formatCursor(position, 7) }, HRP)).to.deep.include({
      cursor: position,
      pageSize: 7,
    });
  });

  it('an empty value counts as not given (as inx-indexer)', () => {
    expect(
      parseOutputQuery(
        'basic',
        { address: '', tag: '', hasTimelock: '', createdAfter: '', pageSize: '', cursor: '' },
        HRP,
      ),
    ).to.deep.equal({ route: 'basic', pageSize: 1000 });
  });

  it('queryOutputs and the chain lookups reject before reading anything', async () => {
    const store = await newStore();
    expect(
      (await rejectionOf(queryOutputs(store, 'alias', { stateController: bech32EncodeAddress('iota', A) }, 1, HRP)))
        .field,
    ).to.equal('stateController');
    const e = await rejectionOf(outputIdByAliasId(store, '0x1234'));
    expect(e.field).to.equal('aliasId');
    expect(e.message).to.equal('Invalid aliasId: expected 32 bytes, got 2');
    expect((await rejectionOf(outputIdByNftId(store, 'ab'.repeat(32)))).field).to.equal('nftId');
    expect((await rejectionOf(outputIdByNftId(store, '0x' + 'zz'.repeat(32)))).code).to.equal('INVALID_HEX');
    expect((await rejectionOf(outputIdByFoundryId(store, '0x' + 'ab'.repeat(32)))).message).to.equal(
      'Invalid foundryId: expected 38 bytes, got 32',
    );
    expect(await outputIdByFoundryId(store, '0x' + 'ab'.repeat(38))).to.equal(undefined);
  });
});
