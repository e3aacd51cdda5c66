// The explorer page's building blocks: JSON reads of the node's public routes and small DOM makers. Every text from
// the node is set with textContent (never as HTML); links are hash routes of this page (#/kind/id) built from IDs the
// page checked the shape of.

/** An error of a read: the node's JSON error message and the HTTP status. */
export class ReadError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** GET `path` as JSON; a non-2xx answer throws a ReadError with the node's message. */
export async function getJson(path) {
  const res = await fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' });
  let body;
  try {
    body = await res.json();
  } catch {
    throw new ReadError(res.status, `${res.status} ${res.statusText}`);
  }
  if (!res.ok) throw new ReadError(res.status, (body && body.error && body.error.message) || res.statusText);
  return body;
}

/** An element: `props` sets properties (className, href, title; `data`: dataset entries); children: nodes or text. */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    if (k === 'data') Object.assign(el.dataset, v);
    else el[k] = v;
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const ID_SHAPES = {
  block: /^0x[0-9a-f]{64}$/,
  transaction: /^0x[0-9a-f]{64}$/,
  output: /^0x[0-9a-f]{68}$/,
  milestone: /^(0x[0-9a-f]{64}|[0-9]{1,10})$/,
  address: /^[a-z0-9]{1,83}1[a-z0-9]{6,}$/,
};

/** A link to this page's view of `kind` `id` (text: `label`, else the ID); plain text when `id` has not the shape. */
export function linkTo(kind, id, label) {
  const text = label === undefined ? String(id) : label;
  if (!ID_SHAPES[kind] || !ID_SHAPES[kind].test(String(id))) return h('span', { className: 'mono' }, text);
  return h('a', { href: `#/${kind}/${id}`, className: `mono ${kind}-link`, data: { kind, id: String(id) } }, text);
}

/** A two-column table of [label, value] rows (a value is text or a node; rows with undefined values are left out). */
export function facts(rows, id) {
  return h(
    'table',
    { className: 'facts', id },
    h(
      'tbody',
      null,
      rows
        .filter((r) => r && r[1] !== undefined)
        .map(([label, value]) => h('tr', null, h('th', null, label), h('td', null, value))),
    ),
  );
}

/** A table with a header row and `rows` of cells (text or nodes). */
export function table(id, headers, rows, empty) {
  const body = rows.length
    ? rows.map((cells) =>
        h(
          'tr',
          null,
          cells.map((c) => h('td', null, c)),
        ),
      )
    : [h('tr', { className: 'empty' }, h('td', { colSpan: headers.length }, empty || 'none'))];
  return h(
    'table',
    { id, className: 'list' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        headers.map((t) => h('th', null, t)),
      ),
    ),
    h('tbody', null, body),
  );
}

/** A titled section. */
export function section(title, ...children) {
  return h('section', { className: 'part' }, h('h2', null, title), ...children);
}

/** A line of paging links; `links` are [label, href | undefined] (undefined: shown disabled). */
export function pager(id, links, note) {
  return h(
    'nav',
    { className: 'pager', id },
    links.map(([label, href, rel]) =>
      href ? h('a', { href, rel, className: `page-${rel}` }, label) : h('span', { className: 'muted' }, label),
    ),
    note ? h('span', { className: 'muted' }, note) : null,
  );
}

/** A message in place of a part the node could not answer (its status and message). */
export function failed(err) {
  const status = err instanceof ReadError ? err.status : 0;
  return h('p', { className: 'error', data: { status: String(status) } }, err.message || String(err));
}

/** The parameters of a hash route's query (`#/kind/id?name=value&...`). */
export function queryOf(query) {
  return new URLSearchParams(query || '');
}

/** A hash route with its query parameters (those undefined left out). */
export function route(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== undefined && v !== null && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `#${path}?${s}` : `#${path}`;
}
