// The explorer's block and transaction pages. Each first asks the search route what its ID names (one read that
// answers 404 when the node does not hold it, and says which transaction a block carries or which block carries a
// transaction), then reads the block and its metadata from the core API, and a block's children from the explorer
// API once a milestone referenced it (the history holds referenced blocks only).
import { addressToBech32 } from './bech32.js';
import { facts, getJson, h, linkTo, section, table, failed } from './explorer-dom.js';
import { addressesOf, inputOutputId, outputIdOf, outputName, payloadName, printable } from './explorer-ids.js';

const STATES = {
  included: 'included (its transaction changed the ledger)',
  conflicting: 'conflicting (its transaction was not applied)',
  noTransaction: 'referenced, no transaction',
};

/** The block's state in words, from its metadata. */
function stateOf(meta) {
  if (meta.referencedByMilestoneIndex === undefined)
    return meta.isSolid ? 'solid, not referenced yet' : 'not solid yet';
  const state = STATES[meta.ledgerInclusionState] || meta.ledgerInclusionState || 'referenced';
  return meta.conflictReason ? `${state}, conflict reason ${meta.conflictReason}` : state;
}

function tagged(payload) {
  if (!payload) return [];
  const text = (hex) => {
    const t = printable(hex);
    return t === undefined ? h('span', { className: 'mono' }, hex || '0x') : `"${t}"`;
  };
  return [
    ['tag', text(payload.tag)],
    ['data', text(payload.data)],
  ];
}

/** The block page: its essentials, metadata, payload link, parents and children. */
export async function blockPage(ctx, id) {
  const found = await ctx.search(id, 'block');
  const [block, meta] = await Promise.all([
    getJson(`/api/core/v2/blocks/${id}`),
    getJson(`/api/core/v2/blocks/${id}/metadata`),
  ]);
  const payload = block.payload;
  const referenced = meta.referencedByMilestoneIndex;
  let children;
  if (referenced === undefined) {
    children = h(
      'p',
      { className: 'muted' },
      'Not referenced by a milestone yet: the history lists the children a milestone referenced.',
    );
  } else {
    try {
      const c = await getJson(`/api/explorer/v2/blocks/${id}/children`);
      const more = c.count >= c.maxResults ? ` (the first ${c.maxResults})` : '';
      children = [
        h(
          'ul',
          { id: 'children', className: 'ids' },
          c.children.map((child) => h('li', null, linkTo('block', child))),
        ),
        h('p', { className: 'muted' }, `${c.count} referenced ${c.count === 1 ? 'child' : 'children'}${more}`),
      ];
    } catch (err) {
      children = failed(err);
    }
  }
  return [
    h('h1', null, 'Block'),
    facts(
      [
        ['block ID', h('span', { className: 'mono', id: 'subject-id' }, id)],
        ['protocol version', String(block.protocolVersion)],
        ['payload', h('span', { id: 'payload-kind' }, payloadName(payload))],
        ['transaction', found.transactionId ? linkTo('transaction', found.transactionId) : undefined],
        [
          'milestone',
          payload && payload.type === 7 ? linkTo('milestone', payload.index, `milestone ${payload.index}`) : undefined,
        ],
        ...(payload && payload.type === 5 ? tagged(payload) : []),
        ['state', h('span', { id: 'block-state' }, stateOf(meta))],
        ['referenced by', referenced === undefined ? '–' : linkTo('milestone', referenced, `milestone ${referenced}`)],
        ['nonce', block.nonce],
      ],
      'block-facts',
    ),
    section(
      'Parents',
      h(
        'ul',
        { id: 'parents', className: 'ids' },
        block.parents.map((p) => h('li', null, linkTo('block', p))),
      ),
    ),
    section('Children', children),
  ];
}

/** An output's amount and owner cells (the owner as a bech32 link). */
function ownerCell(ctx, output) {
  const owner = addressesOf(output)[0];
  const bech = owner && addressToBech32(ctx.hrp, owner.address);
  return bech ? linkTo('address', bech) : '–';
}

/** The transaction page: its block, state, inputs (the outputs they spend) and outputs. */
export async function transactionPage(ctx, id) {
  const found = await ctx.search(id, 'transaction');
  const [block, meta] = await Promise.all([
    getJson(`/api/core/v2/blocks/${found.blockId}`),
    getJson(`/api/core/v2/blocks/${found.blockId}/metadata`),
  ]);
  const essence = block.payload.essence;
  const booked = found.included === true;
  const inputs = essence.inputs.map((input, i) => {
    const out = inputOutputId(input);
    return [String(i), out ? linkTo('output', out) : `input of type ${input.type}`];
  });
  const outputs = essence.outputs.map((o, i) => {
    const oid = outputIdOf(id, i);
    return [
      String(i),
      booked ? linkTo('output', oid) : h('span', { className: 'mono' }, oid),
      outputName(o),
      o.amount,
      ownerCell(ctx, o),
    ];
  });
  const inner = essence.payload;
  return [
    h('h1', null, 'Transaction'),
    facts(
      [
        ['transaction ID', h('span', { className: 'mono', id: 'subject-id' }, id)],
        [booked ? 'included in block' : 'carried by block', linkTo('block', found.blockId)],
        ['state', h('span', { id: 'transaction-state' }, booked ? 'included' : stateOf(meta))],
        [
          'referenced by',
          meta.referencedByMilestoneIndex === undefined
            ? '–'
            : linkTo('milestone', meta.referencedByMilestoneIndex, `milestone ${meta.referencedByMilestoneIndex}`),
        ],
        ['network ID', essence.networkId],
        ['inputs commitment', h('span', { className: 'mono' }, essence.inputsCommitment)],
        ['payload inside', inner ? payloadName(inner) : 'none'],
        ...(inner && inner.type === 5 ? tagged(inner) : []),
        ['unlocks', String((block.payload.unlocks || []).length)],
      ],
      'transaction-facts',
    ),
    section(`Inputs (${inputs.length})`, table('inputs', ['#', 'spends output'], inputs)),
    section(
      `Outputs (${outputs.length})`,
      booked ? null : h('p', { className: 'muted' }, 'Not included: these outputs were not booked.'),
      table('outputs', ['#', 'output ID', 'type', 'amount', 'owner'], outputs),
    ),
  ];
}
