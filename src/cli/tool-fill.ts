/**
 * `ledger-node tool fill --blocks N [--concurrency C] [--sample S] [run flags...]`: starts the node on its data folder
 * (any `ledger-node run` flag applies: `--data-dir`, `--min-pow-score` for a first start, `--milestone-interval`, ...;
 * REST stays off) and stores N tagged-data blocks through the node's own intake, C at a time, with parents chosen by
 * the node's tip selection (and proof of work by its miner when the network asks for it), while the built-in
 * coordinator confirms them. So a store of a million valid blocks takes minutes, for scale runs and benchmarks.
 * Every S seconds one line: blocks stored, blocks/s over the window, confirmed milestone, the node's RSS (and how much
 * of it is the V8 heap and memory held outside it).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, parseRunArgs } from '../node/config.ts';
import { consoleLogger, type Logger } from '../node/logger.ts';
import { startNode } from '../node/node.ts';
import { META } from '../core/store/index.ts';

/** Linux: the anonymous part of RSS (the heaps, not the mapped files of the binary and the store). */
function anonymous(): string {
  try {
    const kb = /RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? '' : `, anonymous ${(Number(kb) / 1024).toFixed(0)}`;
  } catch {
    return '';
  }
}

const USAGE =
  'usage: ledger-node tool fill --blocks N [--concurrency C] [--sample SECONDS] [--verbose] [ledger-node run flags...]';

interface FillOptions {
  blocks: number;
  concurrency: number;
  sampleSeconds: number;
  /** The node's own log lines too (milestones confirmed, ...). */
  verbose: boolean;
  runArgs: string[];
}

function parseFillArgs(argv: readonly string[]): FillOptions {
  const out: FillOptions = { blocks: 0, concurrency: 256, sampleSeconds: 5, verbose: false, runArgs: [] };
  const string = { type: 'string' } as const;
  const { tokens } = parseArgs({
    args: [...argv],
    options: { blocks: string, concurrency: string, sample: string, verbose: { type: 'boolean' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  // The tool's own flags, by the index of their arguments; every other argument is a flag of `run`, passed on.
  const own = new Set<number>();
  for (const t of tokens) {
    if (
      t.kind !== 'option' ||
      !['blocks', 'concurrency', 'sample', 'verbose'].includes(t.name) ||
      !t.rawName.startsWith('--')
    )
      continue;
    own.add(t.index);
    if (t.name === 'verbose') {
      out.verbose = true;
      continue;
    }
    if (t.value !== undefined && !t.inlineValue) own.add(t.index + 1);
    const n = Number(t.value);
    if (t.value === undefined || !Number.isSafeInteger(n) || n < 1)
      throw new ConfigError(`${t.rawName}: expected an integer >= 1, got ${JSON.stringify(t.value)}`);
    if (t.name === 'blocks') out.blocks = n;
    else if (t.name === 'concurrency') out.concurrency = n;
    else out.sampleSeconds = n;
  }
  out.runArgs = argv.filter((_, i) => !own.has(i));
  if (out.blocks === 0) throw new ConfigError('--blocks is required');
  return out;
}

export async function toolFill(argv: readonly string[], logger: Logger = consoleLogger): Promise<number> {
  if (argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  let options: FillOptions;
  let config: ReturnType<typeof parseRunArgs>;
  try {
    options = parseFillArgs(argv);
    config = parseRunArgs(options.runArgs);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`ledger-node tool fill: ${e.message}\n${USAGE}`);
      return 2;
    }
    throw e;
  }
  const quiet: Logger = { info: () => undefined, warn: (m) => logger.warn(m), error: (m, e) => logger.error(m, e) };
  const node = await startNode(
    { ...config, grpcPort: 0, peerPort: 0 },
    { logger: options.verbose ? logger : quiet, rest: false },
  );
  const { parts } = node;
  const started = Date.now();
  let stored = 0;
  let failed = 0;
  let lastSample = { at: started, stored: 0 };
  const sample = async (): Promise<void> => {
    const now = Date.now();
    const rate = ((stored - lastSample.stored) * 1000) / Math.max(1, now - lastSample.at);
    lastSample = { at: now, stored };
    const confirmed = (await parts.store.getMeta(META.confirmedMilestoneIndex)) ?? 0;
    const m = process.memoryUsage();
    const mb = (n: number): string => (n / 2 ** 20).toFixed(0);
    console.log(
      `${((now - started) / 1000).toFixed(0)} s: ${stored} stored (${rate.toFixed(0)}/s), ${failed} ` +
        `refused, confirmed milestone ${confirmed}, RSS ${mb(m.rss)} MB (V8 heap ${mb(m.heapTotal)}, ` +
        `external ${mb(m.external)}, array buffers ${mb(m.arrayBuffers)}${anonymous()})`,
    );
  };
  const timer = setInterval(() => void sample(), options.sampleSeconds * 1000);
  const encoder = new TextEncoder();
  const tag = encoder.encode('ledger-node fill');
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < options.blocks) {
      const i = next++;
      const data = encoder.encode(`${started}:${i}`);
      try {
        await parts.submissions.submit({
          block: {
            protocolVersion: parts.protocol.current.version,
            parents: [],
            payload: { type: 5, tag, data },
            nonce: 0n,
          },
        });
        stored++;
      } catch (e) {
        failed++;
        if (failed <= 5) logger.warn(`fill: block ${i} refused: ${(e as Error).message}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(options.concurrency, options.blocks) }, worker));
    await sample();
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `filled ${stored} blocks in ${seconds.toFixed(1)} s ` +
        `(${(stored / seconds).toFixed(0)} blocks/s), ${failed} refused`,
    );
  } finally {
    clearInterval(timer);
    await node.stop();
  }
  return failed === 0 ? 0 : 1;
}
