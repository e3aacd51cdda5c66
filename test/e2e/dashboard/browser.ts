/**
 * What the browser tests of the dashboard share (dashboard.test.ts, explorer.test.ts): headless Chromium (Debian's
 * `chromium` package, installed by scripts/ensure-chromium.sh when missing) driven by puppeteer-core, skipped with the
 * reason when no browser can be had and failed on CI (CI=true); every console error or warning, page error, failed
 * request and HTTP answer of 400 or above collected as a line naming its URL; and PNG checks of screenshots.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

const ENSURE = fileURLToPath(new URL('../../../scripts/ensure-chromium.sh', import.meta.url));

/** The Chromium to drive, or why there is none. */
export function findChromium(): { path: string } | { reason: string } {
  const r = spawnSync('bash', [ENSURE], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
  const path = r.stdout?.trim().split('\n').pop();
  if (r.status === 0 && path) return { path };
  return { reason: (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').pop()! };
}

/** The Chromium's path; without one the test is skipped (with the reason), or fails on CI. */
export function chromiumOrSkip(ctx: Mocha.Context, test: string): string {
  const found = findChromium();
  if ('path' in found) return found.path;
  if (process.env.CI === 'true') throw new Error(`the ${test} needs Chromium on CI: ${found.reason}`);
  console.log(
    `      skipped: no Chromium for the ${test} (${found.reason}); run bash scripts/ensure-chromium.sh as root`,
  );
  return ctx.skip();
}

/** Headless Chromium as CI containers need it: root (no sandbox), no GPU, a small /dev/shm. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check'],
  });
}

/** Collects what goes wrong on `page` into the returned list, one line each with its URL. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn')
      problems.push(`console ${m.type()}: ${m.text()} (${m.location()?.url ?? 'no URL'})`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${(e as Error).message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  return problems;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG file's size from its IHDR chunk; throws when the file is not a PNG. */
export function pngSize(file: string): { width: number; height: number; bytes: number } {
  const b = readFileSync(file);
  if (b.length < 24 || PNG_SIGNATURE.some((v, i) => b[i] !== v)) throw new Error(`${file} is not a PNG`);
  if (b.toString('latin1', 12, 16) !== 'IHDR') throw new Error(`${file}: no IHDR chunk first`);
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bytes: b.length };
}
