/**
 * The explorer routes' query parameters: chronicle's names, defaults and cursor texts read back; everything else a
 * ProtocolError naming the parameter (the node answers 400).
 */
import { expect } from 'chai';
import { ProtocolError } from '../../../../src/core/errors.ts';
import {
  parseAddressUpdatesQuery,
  parseAggregateQuery,
  parseChildrenQuery,
  parseMilestoneBlocksQuery,
  parseMilestonesQuery,
  parseMilestoneUpdatesQuery,
  parseNoParameters,
} from '../../../../src/core/ledger/index.ts';

const OID = `0x${'ab'.repeat(32)}0100`;

function refused(read: () => unknown): ProtocolError {
  try {
    read();
  } catch (e) {
    expect(e).to.be.instanceOf(ProtocolError);
    return e as ProtocolError;
  }
  throw new Error('expected a rejection');
}

describe('history: explorer query parameters', () => {
  it('defaults: page size 100, newest first, top 100', () => {
    expect(parseAddressUpdatesQuery({})).to.deep.equal({ pageSize: 100, sort: 'newest' });
    expect(parseMilestonesQuery({})).to.deep.equal({ pageSize: 100, sort: 'newest' });
    expect(parseChildrenQuery({})).to.deep.equal({ pageSize: 100, page: 0 });
    expect(parseAggregateQuery('richest', {})).to.deep.equal({ top: 100 });
    expect(parseMilestoneUpdatesQuery({ pageSize: '' })).to.deep.equal({ pageSize: 100 });
  });

  it("reads chronicle's cursors; their page size wins over pageSize", () => {
    expect(parseAddressUpdatesQuery({ cursor: `12.${OID}.true.7`, pageSize: '3', sort: 'oldest' })).to.deep.equal({
      pageSize: 7,
      sort: 'oldest',
      cursor: { milestoneIndex: 12, outputId: Uint8Array.from(Buffer.from(OID.slice(2), 'hex')), spent: true },
    });
    expect(parseMilestoneUpdatesQuery({ cursor: `${OID}.false.20` }).cursor?.spent).to.equal(false);
    expect(parseMilestonesQuery({ cursor: '102.2', startTimestamp: '5', endTimestamp: '5' })).to.deep.equal({
      pageSize: 2,
      sort: 'newest',
      cursor: 102,
      startTimestamp: 5,
      endTimestamp: 5,
    });
    expect(parseMilestoneBlocksQuery({ cursor: '4.100', sort: 'oldest' })).to.deep.equal({
      pageSize: 100,
      sort: 'oldest',
      cursor: 4,
    });
    expect(parseAggregateQuery('richest', { top: '5', ledger_index: '9' })).to.deep.equal({ top: 5, ledgerIndex: 9 });
    expect(parseAggregateQuery('distribution', { ledgerIndex: '9' })).to.deep.equal({ top: 100, ledgerIndex: 9 });
  });

  const bad: [string, () => unknown, string, RegExp][] = [
    ['page size 0', () => parseAddressUpdatesQuery({ pageSize: '0' }), 'pageSize', /at least 1/],
    ['page size above 1000', () => parseMilestonesQuery({ pageSize: '1001' }), 'pageSize', /above the maximum 1000/],
    ['page size not a number', () => parseChildrenQuery({ pageSize: '-1' }), 'pageSize', /not an unsigned integer/],
    ['sort', () => parseMilestoneBlocksQuery({ sort: 'latest' }), 'sort', /expected newest or oldest/],
    ['unknown parameter', () => parseMilestoneUpdatesQuery({ sort: 'oldest' }), 'sort', /unknown here/],
    ['a parameter to search', () => parseNoParameters('search', { pageSize: '1' }), 'pageSize', /no parameters/],
    ['cursor parts', () => parseAddressUpdatesQuery({ cursor: '12.7' }), 'cursor', /milestoneIndex.0xoutputId/],
    ['cursor output ID', () => parseAddressUpdatesQuery({ cursor: '1.0x12.true.5' }), 'cursor', /68 hex digits/],
    ['cursor flag', () => parseMilestoneUpdatesQuery({ cursor: `${OID}.yes.5` }), 'cursor', /true or false/],
    ['cursor page size', () => parseMilestonesQuery({ cursor: '5.0' }), 'cursor', /at least 1/],
    ['time range', () => parseMilestonesQuery({ startTimestamp: '9', endTimestamp: '8' }), 'endTimestamp', /range/],
    [
      'index range',
      () => parseAddressUpdatesQuery({ startMilestoneIndex: '9', endMilestoneIndex: '10' }),
      'endMilestoneIndex',
      /empty/,
    ],
    ['page number', () => parseChildrenQuery({ page: '1.5' }), 'page', /not an unsigned integer/],
    ['top', () => parseAggregateQuery('richest', { top: '0' }), 'top', /at least 1/],
    [
      'both index names',
      () => parseAggregateQuery('richest', { ledgerIndex: '1', ledger_index: '1' }),
      'ledger_index',
      /not both/,
    ],
    ['a u32', () => parseAddressUpdatesQuery({ startMilestoneIndex: '4294967296' }), 'startMilestoneIndex', /maximum/],
  ];
  for (const [what, read, field, message] of bad)
    it(`refuses ${what}, naming ${field}`, () => {
      const e = refused(read);
      expect(e.field).to.equal(field);
      expect(e.message).to.match(message);
      expect(e.message).to.match(new RegExp(`^Invalid query parameter ${field}: `));
    });
});
