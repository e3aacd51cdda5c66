// The explorer's output and address pages. An output is one core read (the output with its booking and spent
// metadata); an address is its balance and its history of ledger updates from the explorer API, paged with the
// history's cursor (carried in the hash route, so back and forward work; the previous page is known once walked).
import { addressToBech32 } from './bech32.js';
import { facts, getJson, h, linkTo, pager, route, section, table } from './explorer-dom.js';
import { addressesOf, isoTime, outputName } from './explorer-ids.js';

const ZERO_ID = `0x${'0'.repeat(64)}`;
export const HISTORY_PAGE_SIZE = 10;

/** The output page: amount, type, owner and other addresses, who created it, whether and by whom it was spent. */
export async function outputPage(ctx, id) {
  const { metadata: m, output } = await getJson(`/api/core/v2/outputs/${id}`);
  // the genesis and a snapshot book outputs without a block: their transaction is no transaction the node holds
  const fromBlock = m.blockId !== ZERO_ID;
  const addresses = addressesOf(output).map(({ role, address }) => {
    const bech = addressToBech32(ctx.hrp, address);
    return [role, bech ? linkTo('address', bech) : JSON.stringify(address)];
  });
  const tokens = (output.nativeTokens || []).length;
  return [
    h('h1', null, 'Output'),
    facts(
      [
        ['output ID', h('span', { className: 'mono', id: 'subject-id' }, id)],
        ['type', h('span', { id: 'output-type' }, outputName(output))],
        ['amount', h('span', { id: 'output-amount' }, output.amount)],
        ...addresses,
        ['native tokens', tokens ? String(tokens) : undefined],
        [
          'created by',
          fromBlock
            ? linkTo('transaction', m.transactionId)
            : h('span', { className: 'mono' }, `${m.transactionId} (the ledger's start: no block)`),
        ],
        ['output index', String(m.outputIndex)],
        ['in block', fromBlock ? linkTo('block', m.blockId) : undefined],
        [
          'booked',
          [
            linkTo('milestone', m.milestoneIndexBooked, `milestone ${m.milestoneIndexBooked}`),
            ` at ${isoTime(m.milestoneTimestampBooked)}`,
          ],
        ],
        ['spent', h('span', { id: 'output-spent' }, m.isSpent ? 'yes' : 'no')],
        ['spent by', m.isSpent ? linkTo('transaction', m.transactionIdSpent) : undefined],
        [
          'spent at',
          m.isSpent
            ? [
                linkTo('milestone', m.milestoneIndexSpent, `milestone ${m.milestoneIndexSpent}`),
                ` at ${isoTime(m.milestoneTimestampSpent)}`,
              ]
            : undefined,
        ],
        ['ledger index', String(m.ledgerIndex)],
      ],
      'output-facts',
    ),
  ];
}

// cursor -> the cursor of the page before it ('' for the first page), learnt while walking forward
const previousOf = new Map();

/** The address page: balance, and a page of its ledger updates (newest first) with links to move on. */
export async function addressPage(ctx, address, query) {
  const cursor = query.get('cursor') || '';
  const size = Number(query.get('pageSize')) || HISTORY_PAGE_SIZE;
  const params = new URLSearchParams({ pageSize: String(size) });
  if (cursor) params.set('cursor', cursor);
  const [balance, updates] = await Promise.all([
    getJson(`/api/explorer/v2/balance/${address}`),
    getJson(`/api/explorer/v2/ledger/updates/by-address/${address}?${params}`),
  ]);
  const self = `/address/${address}`;
  const pageSize = size === HISTORY_PAGE_SIZE ? undefined : size;
  if (updates.cursor) previousOf.set(updates.cursor, cursor);
  const previous =
    cursor && previousOf.has(cursor) ? route(self, { cursor: previousOf.get(cursor), pageSize }) : undefined;
  const rows = updates.items.map((u) => [
    linkTo('milestone', u.milestoneIndex, String(u.milestoneIndex)),
    isoTime(u.milestoneTimestamp),
    linkTo('output', u.outputId),
    u.isSpent ? 'spent' : 'booked',
  ]);
  return [
    h('h1', null, 'Address'),
    facts(
      [
        ['address', h('span', { className: 'mono', id: 'subject-id' }, address)],
        ['total balance', h('span', { id: 'total-balance' }, balance.totalBalance)],
        ['available balance', h('span', { id: 'available-balance' }, balance.availableBalance)],
        ['at ledger index', String(balance.ledgerIndex)],
      ],
      'address-facts',
    ),
    section(
      'History (newest first)',
      table('history', ['milestone', 'time', 'output', 'update'], rows, 'no ledger updates'),
      pager(
        'history-pager',
        [
          ['« newest', cursor ? route(self, { pageSize }) : undefined, 'first'],
          ['‹ previous', previous, 'prev'],
          ['next ›', updates.cursor ? route(self, { cursor: updates.cursor, pageSize }) : undefined, 'next'],
        ],
        `${rows.length} ${rows.length === 1 ? 'update' : 'updates'} on this page`,
      ),
    ),
  ];
}
