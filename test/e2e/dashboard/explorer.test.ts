/**
 * Issue 26, the dashboard explorer in a real browser: headless Chromium (browser.ts) on `/dashboard/explorer` of a
 * node on the iota.js dev network (test/e2e/ledger/iota.ts: a milestone every 0.25 s) after real signed transfers
 * (iota.js `sendAdvanced`): the dev wallet pays eight outputs to a second wallet, which spends four of them to a
 * third wallet and itself. Through the search box the test reaches a block, a transaction, an output, a milestone by
 * index and by ID, and an address; each page shows what the REST API says on its own (core reads, explorer routes),
 * and its links lead on: block -> parent -> its children hold the block; transaction -> the output an input spends
 * -> its owner's address; address history -> next page (different items, every item once) -> previous; milestone ->
 * its blocks and neighbours; the dashboard's milestone rows -> milestone pages. Text that is no ID costs no request;
 * an ID the node does not hold is the search's one 404, shown with its message, and the only error of the whole run.
 *
 * A screenshot of each page kind goes to test-output/explorer/<kind>.png (or the folder LEDGER_EXPLORER_SCREENSHOTS
 * names), each checked to be a PNG of the viewport's size. Skipped without Chromium as dashboard.test.ts.
 */
import { sendAdvanced, type SingleNodeClient } from '@iota/iota.js';
import { expect } from 'chai';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { bech32EncodeAddress, outputId } from '../../../src/core/ids/index.ts';
import {
  addressHex,
  created,
  genesisWallet,
  randomSeed,
  referenced,
  spend,
  startIotaJsNode,
  txIdOf,
} from '../ledger/iota.ts';
import type { LedgerTestNode } from '../ledger/support.ts';
import { explorerPages, restOf, type Json } from '../explorer/support.ts';
import { chromiumOrSkip, launchChromium, pngSize, watchProblems } from './browser.ts';

const VIEWPORT = { width: 1280, height: 900 };
const KINDS = ['block', 'transaction', 'output', 'milestone', 'address'] as const;
const SHOTS =
  process.env.LEDGER_EXPLORER_SCREENSHOTS ?? fileURLToPath(new URL('../../../test-output/explorer', import.meta.url));

describe('e2e dashboard explorer: /dashboard/explorer in headless Chromium', function () {
  this.timeout(60_000);
  let n: LedgerTestNode | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let problems: string[] = [];
  let get: ReturnType<typeof restOf>;
  let origin: string;
  let hrp: string;
  let tx2: { blockId: string; txId: string; block: Json };
  const wallet2 = randomSeed();
  const wallet3 = randomSeed();
  const bech = (seed: typeof wallet2): string =>
    bech32EncodeAddress(hrp, { type: 0, pubKeyHash: fromHex0x(addressHex(seed)) });

  before(async function () {
    this.timeout(660_000); // installing Chromium may take minutes
    const chromium = chromiumOrSkip(this, 'explorer browser test');
    const started = await startIotaJsNode();
    n = started.n;
    const client: SingleNodeClient = started.client;
    origin = `http://127.0.0.1:${n.node.restPort}`;
    get = restOf(origin);
    hrp = (await get('/api/core/v2/info')).body.protocol.bech32Hrp;
    const start = genesisWallet(started.genesis);
    const eight = Array.from({ length: 8 }, () => ({
      address: addressHex(wallet2),
      addressType: 0,
      amount: 1_000_000n,
    }));
    const rest = BigInt(start.output.amount) - 8_000_000n;
    const first = await sendAdvanced(
      client,
      [spend(start)],
      [...eight, { ...eight[0]!, address: addressHex(start.seed), amount: rest }],
    );
    await referenced(client, first.blockId);
    const mine = created(first.block, [wallet2, start.seed]).slice(0, 4);
    const second = await sendAdvanced(client, mine.map(spend), [
      { address: addressHex(wallet3), addressType: 0, amount: 1_000_000n },
      { address: addressHex(wallet2), addressType: 0, amount: 3_000_000n },
    ]);
    await referenced(client, second.blockId);
    tx2 = { blockId: second.blockId, txId: txIdOf(second.block), block: second.block };
    browser = await launchChromium(chromium);
    page = await browser.newPage();
    await page.setViewport(VIEWPORT);
    problems = watchProblems(page);
    mkdirSync(SHOTS, { recursive: true });
    for (const kind of KINDS) rmSync(join(SHOTS, `${kind}.png`), { force: true }); // none of an earlier run
    console.log(`      screenshots: ${SHOTS}`);
  });
  after(async () => {
    await browser?.close();
    await n?.close();
  });

  // Page-side code is given as text: this project compiles without the DOM library.
  const evaluate = async <T>(code: string): Promise<T> =>
    JSON.parse((await page.evaluate(`JSON.stringify(${code})`)) as string);
  const textOf = (selector: string): Promise<string> =>
    evaluate(`document.querySelector(${JSON.stringify(selector)})?.textContent ?? null`);
  const hrefs = (selector: string): Promise<string[]> =>
    evaluate(`[...document.querySelectorAll(${JSON.stringify(selector)})].map((a) => a.getAttribute('href'))`);
  const rows = (table: string): Promise<string[][]> =>
    evaluate(`[...document.querySelectorAll('#${table} tbody tr:not(.empty)')].map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => td.querySelector('a')?.getAttribute('href') ?? td.textContent))`);

  const renders = (): Promise<number> => evaluate(`Number(document.querySelector('#view')?.dataset.render ?? 0)`);

  /**
   * Does `action` and waits until the view shows a new page of `kind` (and `id`) that finished reading; fails with
   * the view's text when the page shows an error. `load`: the action loads the page anew (its count starts over).
   */
  async function act(action: () => Promise<unknown>, kind: string, id?: string | number, load = false): Promise<void> {
    const before = load ? 0 : await renders();
    await action();
    const wanted = id === undefined ? 'true' : `v.dataset.id === ${JSON.stringify(String(id))}`;
    await page
      .waitForFunction(
        `(() => { const v = document.querySelector('#view');
        return v && Number(v.dataset.render) > ${before} && v.dataset.kind === '${kind}' && ${wanted} &&
          v.dataset.state !== 'loading'; })()`,
        { timeout: 15_000 },
      )
      .catch(async (e: Error) => {
        const shown = await evaluate(`{ hash: location.hash, ...document.querySelector('#view')?.dataset }`);
        throw new Error(`no ${kind} page ${id ?? ''} after ${before} views: ${JSON.stringify(shown)} (${e.message})`);
      });
    const state = await evaluate<string>(`document.querySelector('#view').dataset.state`);
    if (state !== 'ready') throw new Error(`the ${kind} page failed: ${await textOf('#view')}`);
  }

  /** Types `text` into the search box and submits it. */
  async function submit(text: string): Promise<void> {
    await page.evaluate(`document.querySelector('#search-text').value = ''`);
    await page.type('#search-text', text);
    await page.click('#search button');
  }
  const search = (text: string, kind: string, id: string | number): Promise<void> => act(() => submit(text), kind, id);
  const follow = (selector: string, kind: string, id?: string | number): Promise<void> =>
    act(() => page.click(selector), kind, id);
  const back = (kind: string, id: string | number): Promise<void> => act(() => page.goBack(), kind, id);

  const shot = (kind: string) => page.screenshot({ path: join(SHOTS, `${kind}.png`) as `${string}.png` });

  it('is reached from the dashboard: its milestone rows open the milestone pages', async () => {
    await page.goto(`${origin}/dashboard`, { waitUntil: 'load' });
    await page.waitForSelector('#milestones tbody tr a', { timeout: 15_000 });
    const [href] = await hrefs('#milestones tbody tr a');
    const index = Number(/^\/dashboard\/explorer#\/milestone\/(\d+)$/.exec(href!)![1]);
    // between two polls of the dashboard (one a second), so that leaving the page cuts no request short
    await page.waitForNetworkIdle({ idleTime: 200, timeout: 10_000 });
    const link = `#milestones a[href="${href}"]`;
    await act(() => Promise.all([page.waitForNavigation(), page.click(link)]), 'milestone', index);
    expect(await textOf('#milestone-index')).to.equal(String(index));
    expect(problems).to.deep.equal([]);
  });

  it('starts with the latest milestones; an ID under the wrong kind moves to its own page', async () => {
    const latest = (await get('/api/explorer/v2/milestones?pageSize=10')).body.items as Json[];
    await act(() => page.goto(`${origin}/dashboard/explorer`), 'start', '', true);
    const shown = (await rows('latest-milestones')).map((r) => r[0]);
    expect(shown.length).to.be.within(latest.length, 10);
    // newest first; milestones may have come between the two reads
    expect(Number(/\d+$/.exec(shown[0]!)![0])).to.be.at.least(latest[0].index);
    await act(() => page.goto(`${origin}/dashboard/explorer#/block/${tx2.txId}`), 'transaction', tx2.txId);
    expect(await evaluate('location.hash')).to.equal(`#/transaction/${tx2.txId}`);
    expect(problems).to.deep.equal([]);
  });

  it('a block by its ID: essentials, metadata, its transaction; a parent lists it among its children', async () => {
    await search(tx2.blockId, 'block', tx2.blockId);
    const md = (await get(`/api/core/v2/blocks/${tx2.blockId}/metadata`)).body;
    const block = (await get(`/api/core/v2/blocks/${tx2.blockId}`)).body;
    expect(await textOf('#subject-id')).to.equal(tx2.blockId);
    expect(await textOf('#payload-kind')).to.equal('transaction');
    expect(await textOf('#block-state')).to.match(/^included/);
    expect(await hrefs('#block-facts a.transaction-link')).to.deep.equal([`#/transaction/${tx2.txId}`]);
    expect(await hrefs('#block-facts a.milestone-link')).to.deep.equal([
      `#/milestone/${md.referencedByMilestoneIndex}`,
    ]);
    expect(await hrefs('#parents a')).to.deep.equal(block.parents.map((p: string) => `#/block/${p}`));
    await shot('block');
    // a parent the node holds (not a solid entry point of the genesis)
    let parent = '';
    for (const p of block.parents) if ((await get(`/api/explorer/v2/search/${p}`)).body.kind === 'block') parent ||= p;
    await follow(`#parents a[href="#/block/${parent}"]`, 'block', parent);
    const children = (await get(`/api/explorer/v2/blocks/${parent}/children`)).body.children as string[];
    expect(await hrefs('#children a')).to.deep.equal(children.map((c) => `#/block/${c}`));
    expect(children).to.include(tx2.blockId);
    await back('block', tx2.blockId);
    expect(problems).to.deep.equal([]);
  });

  it('a transaction by its ID: its block, the outputs its inputs spend, its outputs with owners', async () => {
    await search(tx2.txId, 'transaction', tx2.txId);
    const essence = tx2.block.payload.essence;
    expect(await hrefs('#transaction-facts a.block-link')).to.deep.equal([`#/block/${tx2.blockId}`]);
    expect(await textOf('#transaction-state')).to.equal('included');
    const spent = essence.inputs.map((i: Json) =>
      toHex0x(outputId(fromHex0x(i.transactionId), i.transactionOutputIndex)),
    );
    expect((await rows('inputs')).map((r) => r[1])).to.deep.equal(spent.map((id: string) => `#/output/${id}`));
    expect(await rows('outputs')).to.deep.equal(
      essence.outputs.map((o: Json, i: number) => [
        String(i),
        `#/output/${toHex0x(outputId(fromHex0x(tx2.txId), i))}`,
        'basic',
        o.amount,
        `#/address/${[bech(wallet3), bech(wallet2)][i]}`,
      ]),
    );
    await shot('transaction');
    await follow('#inputs tbody tr:first-child a', 'output', spent[0]);
    const out = (await get(`/api/core/v2/outputs/${spent[0]}`)).body;
    expect(await textOf('#output-amount')).to.equal(out.output.amount);
    expect(await textOf('#output-spent')).to.equal('yes');
    const links = await hrefs('#output-facts a');
    expect(links).to.include.members([`#/transaction/${tx2.txId}`, `#/address/${bech(wallet2)}`]);
    expect(links).to.include(`#/transaction/${out.metadata.transactionId}`);
    await shot('output');
    await follow('#output-facts a.address-link', 'address', bech(wallet2));
    expect(problems).to.deep.equal([]);
  });

  it("an address's history pages: next holds other items, every item once; previous goes back", async () => {
    const address = bech(wallet2);
    const balance = (await get(`/api/explorer/v2/balance/${address}`)).body;
    expect(await textOf('#total-balance')).to.equal(balance.totalBalance);
    expect(await textOf('#available-balance')).to.equal(balance.availableBalance);
    expect(balance.totalBalance).to.equal('7000000');
    const first = await rows('history');
    expect(first).to.have.length(10);
    await shot('address');
    await follow('#history-pager a.page-next', 'address', address);
    const second = await rows('history');
    expect(second).to.have.length(3); // eight booked, four spent, one booked
    const all = (await explorerPages(get, `/ledger/updates/by-address/${address}`, { pageSize: '5' })).items;
    const key = (r: string[]) => `${r[2]} ${r[3]}`;
    expect([...first, ...second].map(key)).to.deep.equal(
      all.map((u: Json) => `#/output/${u.outputId} ${u.isSpent ? 'spent' : 'booked'}`),
    );
    expect(new Set([...first, ...second].map(key)).size).to.equal(13);
    await follow('#history-pager a.page-prev', 'address', address);
    expect(await rows('history')).to.deep.equal(first);
    expect(problems).to.deep.equal([]);
  });

  it('an output by its ID: unspent, created by its transaction in its block, booked by its milestone', async () => {
    const id = toHex0x(outputId(fromHex0x(tx2.txId), 1));
    await search(id, 'output', id);
    const md = (await get(`/api/core/v2/outputs/${id}/metadata`)).body;
    expect(await textOf('#output-spent')).to.equal('no');
    expect(await hrefs('#output-facts a')).to.deep.equal([
      `#/address/${bech(wallet2)}`,
      `#/transaction/${tx2.txId}`,
      `#/block/${tx2.blockId}`,
      `#/milestone/${md.milestoneIndexBooked}`,
    ]);
    expect(problems).to.deep.equal([]);
  });

  it('a milestone by index and by ID: its blocks, ledger updates, block and neighbours', async () => {
    const index = (await get(`/api/core/v2/blocks/${tx2.blockId}/metadata`)).body.referencedByMilestoneIndex;
    await search(String(index), 'milestone', index);
    const listed = (await explorerPages(get, '/milestones', { sort: 'oldest', pageSize: '1000' })).items;
    const milestoneId = listed.find((m: Json) => m.index === index).milestoneId;
    expect(await textOf('#subject-id')).to.equal(milestoneId);
    const blocks = (await get(`/api/explorer/v2/milestones/by-index/${index}/blocks?sort=oldest&pageSize=25`)).body;
    expect((await rows('milestone-blocks')).map((r) => r[0])).to.deep.equal(
      blocks.blocks.map((b: Json) => `#/block/${b.blockId}`),
    );
    expect((await rows('milestone-blocks')).map((r) => r[0])).to.include(`#/block/${tx2.blockId}`);
    const updates = (await get(`/api/explorer/v2/ledger/updates/by-milestone/${milestoneId}?pageSize=25`)).body;
    expect(await rows('milestone-updates')).to.deep.equal(
      updates.items.map((u: Json) => [
        `#/address/${u.address}`,
        `#/output/${u.outputId}`,
        u.isSpent ? 'spent' : 'booked',
      ]),
    );
    expect(await hrefs('#milestone-facts a.milestone-link')).to.include.members([
      `#/milestone/${index - 1}`,
      `#/milestone/${index + 1}`,
    ]);
    await shot('milestone');
    await follow('#milestone-facts a.block-link', 'block');
    expect(await textOf('#payload-kind')).to.equal('milestone');
    await back('milestone', index);
    await search(milestoneId, 'milestone', index); // the milestone's page, by its index
    expect(await textOf('#milestone-index')).to.equal(String(index));
    await follow(`#milestone-facts a[href="#/milestone/${index - 1}"]`, 'milestone', index - 1);
    expect(problems).to.deep.equal([]);
  });

  it('an address by bech32: its balance and history as the explorer routes say', async () => {
    const address = bech(wallet3);
    await search(address.toUpperCase(), 'address', address);
    expect(await textOf('#total-balance')).to.equal(
      (await get(`/api/explorer/v2/balance/${address}`)).body.totalBalance,
    );
    const items = (await get(`/api/explorer/v2/ledger/updates/by-address/${address}?pageSize=10`)).body.items;
    expect((await rows('history')).map((r) => [r[0], r[2], r[3]])).to.deep.equal(
      items.map((u: Json) => [`#/milestone/${u.milestoneIndex}`, `#/output/${u.outputId}`, 'booked']),
    );
    expect(await hrefs('#history-pager a')).to.deep.equal([]); // one page
    expect(problems).to.deep.equal([]);
  });

  it('text that is no ID costs no request; an unknown ID is one 404, its message shown', async () => {
    await submit('hello');
    await page.waitForFunction(`!document.querySelector('#search-error').hidden`);
    expect(await textOf('#search-error')).to.match(/^neither a milestone index/);
    const unknown = `0x${'ab'.repeat(32)}`;
    await submit(unknown);
    await page.waitForFunction(`document.querySelector('#search-error').dataset.status === '404'`);
    expect(await textOf('#search-error')).to.equal(
      `could not find data: nothing known by ${unknown}: no block, transaction or milestone ` +
        '(unknown, or not seen by this node yet)',
    );
    const url = `${origin}/api/explorer/v2/search/${unknown}`;
    expect(problems.sort()).to.deep.equal(
      [
        `HTTP 404: ${url}`,
        `console error: Failed to load resource: the server responded with a status of 404 (Not Found) (${url})`,
      ].sort(),
    );
    problems.length = 0; // the one expected error, checked
  });

  it('a screenshot of each page kind: a PNG of the viewport', () => {
    for (const kind of KINDS) {
      const png = pngSize(join(SHOTS, `${kind}.png`));
      expect([png.width, png.height], kind).to.deep.equal([VIEWPORT.width, VIEWPORT.height]);
      expect(png.bytes, kind).to.be.above(1000);
    }
    expect(problems).to.deep.equal([]);
  });
});
