/**
 * Issue 16, the dashboard in a real browser: headless Chromium (Debian's `chromium` package, installed by
 * scripts/ensure-chromium.sh when missing) driven by puppeteer-core opens `/dashboard` of a spawned `ledger-node run`
 * (a milestone every second). The page loads with no console error or failed request, shows the confirmed milestone
 * of GET /info, its chart advances as milestones arrive, and its milestone rows link to the explorer's milestone
 * pages (explorer.test.ts tests the explorer).
 *
 * Without a browser (no root, no apt-get, no Debian registry) the test is skipped with the reason; on CI (CI=true) a
 * missing browser fails it. The screenshot goes to the test's temporary folder, or to the file named by
 * LEDGER_DASHBOARD_SCREENSHOT (the README's docs/dashboard.png is made so).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { spawnNode, type SpawnedNode } from '../../../harness/process.ts';
import { taggedData } from '../rest/support.ts';
import { chromiumOrSkip, launchChromium, watchProblems } from './browser.ts';

interface Info {
  status: { confirmedMilestone: { index: number } };
}

describe('e2e dashboard: /dashboard in headless Chromium', function () {
  this.timeout(120000);
  let dir: string;
  let node: SpawnedNode | undefined;
  let browser: Browser | undefined;
  let page: Page;
  let problems: string[] = [];

  const confirmedOfInfo = async (): Promise<number> =>
    ((await (await fetch(`${node!.rest}/api/core/v2/info`)).json()) as Info).status.confirmedMilestone.index;
  // Page-side code is given as text: this project compiles without the DOM library.
  const chartState = async (): Promise<{
    points: number;
    milestonePoints: number;
    lastTime: number;
    canvases: number;
  }> =>
    JSON.parse(
      (await page.evaluate(`(() => {
        const el = document.querySelector('#chart');
        return JSON.stringify({ points: Number(el.dataset.points), milestonePoints: Number(el.dataset.milestonePoints),
          lastTime: Number(el.dataset.lastTime), canvases: el.querySelectorAll('canvas').length });
      })()`)) as string,
    );
  const textOf = async (selector: string): Promise<string> =>
    (await page.evaluate(`document.querySelector(${JSON.stringify(selector)}).textContent`)) as string;

  before(async function () {
    this.timeout(660_000); // installing Chromium may take minutes
    const chromium = chromiumOrSkip(this, 'dashboard browser test');
    dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-dashboard-'));
    node = await spawnNode(dir, [
      '--milestone-interval',
      '1',
      '--min-pow-score',
      '0',
      '--pow-workers',
      '1',
      '--peer-port',
      '0',
    ]);
    browser = await launchChromium(chromium);
    page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 1000 });
    problems = watchProblems(page);
  });
  after(async () => {
    await browser?.close();
    await node?.proc.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads with no console error and shows the confirmed milestone of /info', async () => {
    const res = await page.goto(`${node!.rest}/dashboard`, { waitUntil: 'load' });
    expect(res?.status()).to.equal(200);
    await page.waitForSelector('#confirmed-milestone[data-index]', { timeout: 15000 });
    const before = await confirmedOfInfo();
    await page.waitForFunction(`Number(document.querySelector('#confirmed-milestone').textContent) >= ${before}`, {
      timeout: 10000,
    });
    const shown = Number(await textOf('#confirmed-milestone'));
    const after = await confirmedOfInfo();
    expect(shown).to.be.within(before, after);
    expect(await textOf('#health')).to.equal('healthy');
    expect(await textOf('#sync')).to.equal('synced');
    // what runs out first (issue 27): the store, the free disk, the pruning index with its milestone's date
    expect(await textOf('#store-size')).to.match(/^\d+(\.\d)? (B|kB|MB|GB) store$|^\d+(\.\d)? (B|kB|MB|GB)$/);
    expect(await textOf('#disk-free')).to.match(/^\d+(\.\d)? (kB|MB|GB|TB) free of \d+(\.\d)? (MB|GB|TB|PB)$/);
    expect(await textOf('#disk-left')).to.equal('growth: measuring (10 min)');
    const info = (await (await fetch(`${node!.rest}/api/core/v2/info`)).json()) as {
      status: { pruningIndex: number };
      storage: { pruningIndexTimestamp: number };
    };
    expect(await textOf('#pruning')).to.match(new RegExp(`^pruning index ${info.status.pruningIndex}, milestone of `));
    expect(Number(await page.evaluate(`document.querySelector('#pruning').dataset.timestamp`))).to.equal(
      info.storage.pruningIndexTimestamp,
    );
    expect(problems).to.deep.equal([]);
  });

  it('its chart advances as milestones arrive', async () => {
    await page.waitForFunction(`Number(document.querySelector('#chart').dataset.milestonePoints) > 0`, {
      timeout: 10000,
    });
    const first = await chartState();
    expect(first.canvases).to.be.at.least(1); // uPlot drew
    const confirmed = await confirmedOfInfo();
    // blocks arrive while milestones go on
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${node!.rest}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ protocolVersion: 2, payload: taggedData('dashboard', `block ${i}`) }),
      });
      expect(res.status).to.equal(201);
      await new Promise((r) => setTimeout(r, 100));
    }
    await page.waitForFunction(
      `Number(document.querySelector('#confirmed-milestone').textContent) >= ${confirmed + 2}`,
      { timeout: 15000 },
    );
    await new Promise((r) => setTimeout(r, 1200)); // one more poll
    const later = await chartState();
    expect(later.milestonePoints).to.be.greaterThan(first.milestonePoints);
    expect(later.lastTime).to.be.greaterThan(first.lastTime);
    expect(later.points).to.be.greaterThan(first.points);
    expect(problems).to.deep.equal([]);
  });

  it("lists the last milestones with their cones, each linking to the explorer's milestone page", async () => {
    const rows = JSON.parse(
      (await page.evaluate(`JSON.stringify([...document.querySelectorAll('#milestones tbody tr')].map((tr) => ({
        href: tr.querySelector('a')?.getAttribute('href') ?? '',
        cells: [...tr.querySelectorAll('td')].map((td) => td.textContent) })))`)) as string,
    ) as { href: string; cells: string[] }[];
    expect(rows.length).to.be.at.least(2);
    for (const row of rows) expect(row.href).to.equal(`/dashboard/explorer#/milestone/${row.cells[0]}`);
    expect(Number(rows[0]!.cells[0])).to.be.greaterThan(Number(rows[1]!.cells[0])); // newest first
    expect(rows[0]!.cells[5]).to.match(/^\d+ ms$/);
    const ms = (await (await fetch(`${node!.rest}/api/core/v2/milestones/by-index/${rows[0]!.cells[0]}`)).json()) as {
      type: number;
      index: number;
    };
    expect(ms).to.include({ type: 7, index: Number(rows[0]!.cells[0]) });
    expect(await page.evaluate(`document.querySelector('#explorer-link').getAttribute('href')`)).to.equal(
      '/dashboard/explorer',
    );
    expect(Number(await textOf('#tips-nonlazy'))).to.be.at.least(1);
    expect(await textOf('#pow-state')).to.equal('on, 1 worker');
  });

  it('renders a screenshot', async function () {
    const file = process.env.LEDGER_DASHBOARD_SCREENSHOT ?? join(dir, 'dashboard.png');
    if (process.env.LEDGER_DASHBOARD_SCREENSHOT) {
      // for the README: a minute of blocks at a changing pace, so the chart has something to show
      this.timeout(180000);
      const until = Date.now() + 60000;
      for (let i = 0; Date.now() < until; i++) {
        const burst = 1 + Math.round(4 + 4 * Math.sin(i / 15));
        await Promise.all(
          Array.from({ length: burst }, (_, j) =>
            fetch(`${node!.rest}/api/core/v2/blocks`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ protocolVersion: 2, payload: taggedData('dashboard', `load ${i}.${j}`) }),
            }),
          ),
        );
        await new Promise((r) => setTimeout(r, 250));
      }
      await new Promise((r) => setTimeout(r, 2500));
    }
    await page.screenshot({ path: file as `${string}.png`, fullPage: true });
    expect(problems).to.deep.equal([]);
  });
});
