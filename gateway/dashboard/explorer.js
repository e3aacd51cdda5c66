// The explorer page (/dashboard/explorer): one search box and a view per kind, chosen by the hash route
// (#/block/0x…, #/transaction/0x…, #/output/0x…, #/milestone/<index or 0x…>, #/address/<bech32>), so links, back and
// forward work without a reload. Public routes only: /api/core/v2/info (the network's bech32 prefix), the core reads,
// the explorer API and its search, which says what a text names. The search box checks the text's shape first, so
// text that is no ID at all costs no request; an ID the node does not hold is the search's one 404, shown as its
// message. The view's state is on <main> for tests: data-kind, data-id, data-state (loading, ready or error) and
// data-render (how many views were shown).
import { ReadError, failed, getJson, h, queryOf } from './explorer-dom.js';
import { classify } from './explorer-ids.js';
import { addressPage, outputPage } from './explorer-ledger.js';
import { milestonePage, startPage } from './explorer-milestone.js';
import { blockPage, transactionPage } from './explorer-tangle.js';

const PAGES = {
  block: { view: blockPage, shape: /^0x[0-9a-f]{64}$/, what: 'a block ID (0x and 64 hex digits)' },
  transaction: { view: transactionPage, shape: /^0x[0-9a-f]{64}$/, what: 'a transaction ID (0x and 64 hex digits)' },
  output: { view: outputPage, shape: /^0x[0-9a-f]{68}$/, what: 'an output ID (0x and 68 hex digits)' },
  milestone: { view: milestonePage, shape: /^(0x[0-9a-f]{64}|[0-9]{1,10})$/, what: 'a milestone index or ID' },
  address: { view: addressPage, shape: /^[a-z0-9]{1,83}1[a-z0-9]{6,}$/, what: 'a bech32 address' },
};

const view = document.getElementById('view');
const form = document.getElementById('search');
const input = document.getElementById('search-text');
const searchError = document.getElementById('search-error');
let generation = 0;
// the hash route the last search went to: the search box keeps its text there, and is emptied on other pages
let searched = '';

/** Thrown by a page whose ID names another kind: the view goes there instead. */
class Moved extends Error {
  constructor(hash) {
    super(`moved to ${hash}`);
    this.hash = hash;
  }
}

/** The hash route of a search answer. */
function hashOf(found) {
  return found.kind === 'milestone' ? `#/milestone/${found.index}` : `#/${found.kind}/${found.id}`;
}

const ctx = {
  hrp: '',
  /** What `text` names (the search route); a page of kind `kind` given another kind's ID moves to that kind's page. */
  async search(text, kind) {
    const found = await getJson(`/api/explorer/v2/search/${encodeURIComponent(text)}`);
    if (kind !== undefined && found.kind !== kind) throw new Moved(hashOf(found));
    return found;
  },
};

/** The hash route as {kind, arg, query}. */
function parseHash(hash) {
  const m = /^#\/([a-z]+)\/([^?]*)(?:\?(.*))?$/.exec(hash);
  if (!m) return { kind: 'start', arg: '', query: '' };
  return { kind: m[1], arg: decodeURIComponent(m[2]), query: m[3] || '' };
}

async function show() {
  const g = ++generation;
  const { kind, arg, query } = parseHash(location.hash);
  if (location.hash !== searched) input.value = '';
  Object.assign(view.dataset, { kind, id: arg, state: 'loading' });
  let nodes;
  let state = 'ready';
  try {
    if (kind === 'start') nodes = await startPage(ctx);
    else {
      const page = PAGES[kind];
      if (!page) throw new ReadError(0, `no page for "${kind}": the explorer shows ${Object.keys(PAGES).join(', ')}`);
      if (!page.shape.test(arg)) throw new ReadError(0, `"${arg}" is not ${page.what}`);
      nodes = await page.view(ctx, arg, queryOf(query));
    }
  } catch (err) {
    if (g !== generation) return;
    if (err instanceof Moved) {
      location.replace(err.hash);
      return;
    }
    nodes = [h('h1', null, kind === 'start' ? 'Explorer' : `${kind[0].toUpperCase()}${kind.slice(1)}`), failed(err)];
    state = 'error';
  }
  if (g !== generation) return;
  view.replaceChildren(...nodes);
  view.dataset.state = state;
  view.dataset.render = String(Number(view.dataset.render || 0) + 1);
  document.title = kind === 'start' ? 'ledger-node explorer' : `${kind} ${arg} · ledger-node explorer`;
  window.scrollTo(0, 0);
}

function searchFailed(message, status) {
  searchError.hidden = !message;
  searchError.textContent = message || '';
  searchError.dataset.status = String(status || 0);
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const text = input.value.trim();
  const shape = classify(text, ctx.hrp);
  if (typeof shape !== 'string') {
    searchFailed(shape.error);
    return;
  }
  form.dataset.state = 'searching';
  try {
    const target = hashOf(await ctx.search(text));
    searchFailed('');
    searched = target;
    if (location.hash === target) show();
    else location.hash = target;
  } catch (err) {
    searchFailed(err.message, err.status);
  } finally {
    form.dataset.state = 'done';
  }
});

async function start() {
  try {
    const info = await getJson('/api/core/v2/info');
    ctx.hrp = info.protocol.bech32Hrp;
    document.getElementById('network').textContent = `${info.protocol.networkName} (${ctx.hrp})`;
  } catch (err) {
    searchFailed(`cannot read the node: ${err.message}`, err.status);
    return;
  }
  window.addEventListener('hashchange', show);
  form.hidden = false;
  show();
}

start();
