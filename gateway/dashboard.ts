/**
 * The dashboard's files at `/dashboard` on the REST port: the page, its script and style (plain files in
 * gateway/dashboard/, no build step) and the chart library uPlot, served from its npm package (node_modules, no CDN).
 * Only these names are served, each read once and kept in memory. The files hold no node data and are public; the
 * page polls `/api/core/v2/info` and `/api/dashboard/v1/data`, which is public to loopback clients and needs the JWT
 * from anywhere else (access.ts; the page asks for a token when the data route answers 403).
 * The explorer (`/dashboard/explorer`, docs/explorer.md) is a page of ES modules that reads public routes only: the
 * core reads, the explorer API and its search.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { RouteGroups } from './route-groups.ts';
import type { Context } from 'koa';
import { HttpProblem } from './errors.ts';

const require = createRequire(import.meta.url);
const own = (name: string): string => fileURLToPath(new URL(`./dashboard/${name}`, import.meta.url));

const script = (name: string): [string, { path: () => string; type: string }] => [
  name,
  { path: () => own(name), type: 'text/javascript; charset=utf-8' },
];

/** The explorer page's ES modules (gateway/dashboard/). */
export const EXPLORER_MODULES: readonly string[] = [
  'explorer.js',
  'explorer-dom.js',
  'explorer-ids.js',
  'explorer-tangle.js',
  'explorer-ledger.js',
  'explorer-milestone.js',
  'bech32.js',
];

/** Served name -> file and content type. */
const FILES: ReadonlyMap<string, { path: () => string; type: string }> = new Map([
  ['index.html', { path: () => own('index.html'), type: 'text/html; charset=utf-8' }],
  ['app.js', { path: () => own('app.js'), type: 'text/javascript; charset=utf-8' }],
  ['style.css', { path: () => own('style.css'), type: 'text/css; charset=utf-8' }],
  // the explorer: its page (at /dashboard/explorer) and its ES modules (each imported by its path under /dashboard)
  ['explorer', { path: () => own('explorer.html'), type: 'text/html; charset=utf-8' }],
  ...EXPLORER_MODULES.map(script),
  [
    'uplot.min.js',
    { path: () => require.resolve('uplot/dist/uPlot.iife.min.js'), type: 'text/javascript; charset=utf-8' },
  ],
  ['uplot.min.css', { path: () => require.resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' }],
]);

/** Scripts, styles and requests only from this origin; no frames, no plugins. */
const CSP = "default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";

const cache = new Map<string, Promise<Buffer>>();

async function send(ctx: Context, name: string): Promise<void> {
  const file = FILES.get(name);
  if (!file) throw new HttpProblem(404, `no dashboard file ${name}`);
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = readFile(file.path());
    cache.set(name, bytes);
    bytes.catch(() => cache.delete(name));
  }
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = file.type;
  ctx.body = await bytes;
}

export function addDashboardRoutes(router: RouteGroups): void {
  router.get('/dashboard', (ctx) => send(ctx, 'index.html'));
  router.get('/dashboard/', (ctx) => send(ctx, 'index.html'));
  router.get('/dashboard/:file', (ctx) => send(ctx, ctx.params.file!));
}
