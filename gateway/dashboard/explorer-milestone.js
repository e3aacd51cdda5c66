// The explorer's milestone page and its start page. A milestone (by index or ID) is first asked of the search route,
// which says its ID, timestamp, the block that carried it (when the node holds it: the payload is then read from the
// core API), whether the history holds its blocks and ledger updates, and its neighbours; its blocks (white-flag
// order) and ledger updates come from the explorer API, each list paged with its own cursor in the hash route.
import { facts, getJson, h, linkTo, pager, route, section, table, failed } from './explorer-dom.js';
import { isoTime, PAYLOAD_NAMES } from './explorer-ids.js';

export const MILESTONE_PAGE_SIZE = 25;

/** One paged list of the milestone: its rows and a pager; `key` names the list's cursor in the hash route. */
async function pagedPart(self, query, key, path, read) {
  const cursor = query.get(key) || '';
  const params = new URLSearchParams({ pageSize: String(MILESTONE_PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  try {
    const page = await getJson(`${path}${path.includes('?') ? '&' : '?'}${params}`);
    const others = Object.fromEntries([...query].filter(([k]) => k !== key));
    return [
      read(page),
      pager(`${key}-pager`, [
        ['« first', cursor ? route(self, others) : undefined, 'first'],
        ['more ›', page.cursor ? route(self, { ...others, [key]: page.cursor }) : undefined, 'next'],
      ]),
    ];
  } catch (err) {
    return failed(err);
  }
}

function payloadFacts(ms) {
  const opts = (ms.options || []).map((o) => ({ 0: 'receipt', 1: 'protocol parameters' })[o.type] || `type ${o.type}`);
  return [
    ['previous milestone ID', linkTo('milestone', ms.previousMilestoneId)],
    ['protocol version', String(ms.protocolVersion)],
    ['inclusion merkle root', h('span', { className: 'mono' }, ms.inclusionMerkleRoot)],
    ['applied merkle root', h('span', { className: 'mono' }, ms.appliedMerkleRoot)],
    ['options', opts.length ? opts.join(', ') : undefined],
    ['signatures', String((ms.signatures || []).length)],
  ];
}

/** The milestone page (`arg`: an index or a milestone ID). */
export async function milestonePage(ctx, arg, query) {
  const m = await ctx.search(arg, 'milestone');
  const self = `/milestone/${m.index}`;
  const payload = m.blockId ? await getJson(`/api/core/v2/milestones/by-index/${m.index}`) : undefined;
  const parts = [
    h('h1', null, `Milestone ${m.index}`),
    facts(
      [
        ['index', h('span', { id: 'milestone-index' }, String(m.index))],
        ['milestone ID', h('span', { className: 'mono', id: 'subject-id' }, m.id)],
        [
          'timestamp',
          h('span', { id: 'milestone-time', data: { timestamp: String(m.timestamp) } }, isoTime(m.timestamp)),
        ],
        [
          'its block',
          m.blockId ? linkTo('block', m.blockId) : 'not held (the ledger starts from it, or it was pruned)',
        ],
        [
          'neighbours',
          [
            m.previousIndex === null ? '‹ previous' : linkTo('milestone', m.previousIndex, `‹ ${m.previousIndex}`),
            ' · ',
            m.nextIndex === null ? 'next ›' : linkTo('milestone', m.nextIndex, `${m.nextIndex} ›`),
          ],
        ],
        ...(payload ? payloadFacts(payload) : []),
      ],
      'milestone-facts',
    ),
  ];
  if (payload)
    parts.push(
      section(
        'Parents',
        h(
          'ul',
          { id: 'milestone-parents', className: 'ids' },
          payload.parents.map((p) => h('li', null, linkTo('block', p))),
        ),
      ),
    );
  if (!m.history) {
    parts.push(
      h(
        'p',
        { className: 'muted', id: 'no-history' },
        'The history no longer holds the blocks and ledger updates of this milestone.',
      ),
    );
    return parts;
  }
  const [blocks, updates] = await Promise.all([
    pagedPart(self, query, 'blocks', `/api/explorer/v2/milestones/by-index/${m.index}/blocks?sort=oldest`, (page) =>
      table(
        'milestone-blocks',
        ['block', 'payload'],
        page.blocks.map((b) => [
          linkTo('block', b.blockId),
          b.payloadType === null ? 'none' : PAYLOAD_NAMES[b.payloadType] || String(b.payloadType),
        ]),
        'no blocks',
      ),
    ),
    pagedPart(self, query, 'updates', `/api/explorer/v2/ledger/updates/by-milestone/${m.id}`, (page) =>
      table(
        'milestone-updates',
        ['address', 'output', 'update'],
        page.items.map((u) => [
          linkTo('address', u.address),
          linkTo('output', u.outputId),
          u.isSpent ? 'spent' : 'booked',
        ]),
        'no ledger updates',
      ),
    ),
  ]);
  parts.push(section('Blocks it referenced (white-flag order)', blocks), section('Ledger updates', updates));
  return parts;
}

/** The start page: what the search box takes, and the latest milestones of the history. */
export async function startPage() {
  const latest = await getJson('/api/explorer/v2/milestones?pageSize=10');
  return [
    h('h1', null, 'Explorer'),
    h(
      'p',
      { className: 'muted' },
      'Search for a milestone index, a block, transaction or milestone ID (0x and 64 hex digits), an output ID ' +
        '(0x and 68 hex digits) or an address of this network.',
    ),
    section(
      'Latest milestones',
      table(
        'latest-milestones',
        ['index', 'milestone ID'],
        latest.items.map((m) => [linkTo('milestone', m.index, String(m.index)), linkTo('milestone', m.milestoneId)]),
        'no milestones yet',
      ),
    ),
  ];
}
