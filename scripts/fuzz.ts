/**
 * The longer fuzz run (the test suite runs a bounded sample of the same generators):
 *
 *   npx tsx scripts/fuzz.ts --seconds N [--seed S] [--target SUBSTRING] [--node URL]
 *   npx tsx scripts/fuzz.ts --replay "<target name>" --case SEED      (one case, printed in full)
 *
 * Core mode feeds the v2 / v3 decoders and JSON mappers mutations of the real vectors (test/core/fuzz) round-robin
 * for N seconds and prints the outcome counts per target. With --node it POSTs mutated v2 (and v3, when the node
 * serves POST /api/core/v3/blocks) blocks, binary and JSON, plus malformed HTTP requests to a running node's REST
 * base URL (e.g. http://127.0.0.1:14265) and counts the statuses; a 5xx, an error answer without the JSON error body,
 * or a dropped connection is a failure. Every failure is printed with its target and seed. Exit code 1 on failures.
 */
import { generate, loadTargets, runCase, Tally, type Target } from '../test/core/fuzz/targets.ts';
import { Rng } from '../test/core/fuzz/mutate.ts';
import { blockCase, rawHttpCases, sendCase, sendRaw, servesPost } from '../test/fuzz/http.ts';

interface Args {
  seconds: number;
  seed: number;
  target?: string;
  node?: string;
  replay?: string;
  caseSeed?: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { seconds: 10, seed: Date.now() % 0x7fffffff };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const [flag, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`missing value for ${flag}`);
      return v;
    };
    const num = (v: string): number => {
      if (!/^\d+(\.\d+)?$/.test(v)) throw new Error(`invalid ${flag}: "${v}", expected a number`);
      return Number(v);
    };
    switch (flag) {
      case '--seconds':
        args.seconds = num(value());
        break;
      case '--seed':
        args.seed = num(value());
        break;
      case '--target':
        args.target = value();
        break;
      case '--node':
        args.node = value().replace(/\/+$/, '');
        break;
      case '--replay':
        args.replay = value();
        break;
      case '--case':
        args.caseSeed = num(value());
        break;
      default:
        throw new Error(`unknown flag "${a}"`);
    }
  }
  return args;
}

function replay(targets: Target[], name: string, seed: number): number {
  const target = targets.find((t) => t.name === name);
  if (!target) throw new Error(`no target "${name}"; targets: ${targets.map((t) => t.name).join(', ')}`);
  const input = generate(target, seed);
  console.log(`${target.name}, seed ${seed}, mutation ${input.mutation}`);
  console.log(input.bytes ? `bytes ${Buffer.from(input.bytes).toString('hex')}` : `json ${JSON.stringify(input.json)}`);
  const outcome = runCase(target, input);
  console.log(outcome);
  return outcome.kind === 'failure' ? 1 : 0;
}

function fuzzCore(targets: Target[], args: Args): number {
  const tally = new Tally();
  const rng = new Rng(args.seed);
  const end = performance.now() + args.seconds * 1000;
  const t0 = performance.now();
  while (performance.now() < end) {
    for (const target of targets) {
      const seed = rng.int(0x7fffffff);
      const outcome = runCase(target, generate(target, seed));
      tally.add(target, outcome);
      if (outcome.kind === 'failure') console.log(`FAILURE ${outcome.reason}`);
    }
  }
  const secs = (performance.now() - t0) / 1000;
  console.log(`core fuzz: ${tally.total} cases in ${secs.toFixed(1)} s (${Math.round(tally.total / secs)}/s), master seed ${args.seed}, ${tally.failures.length} failures`);
  console.log(tally.render());
  return tally.failures.length > 0 ? 1 : 0;
}

async function fuzzNode(targets: Target[], args: Args): Promise<number> {
  const base = args.node!;
  const port = Number(new URL(base).port || 80);
  const blockTargets: Target[] = [];
  for (const t of targets.filter((x) => ['v2 decodeBlock', 'v2 blockFromJson (submission)', 'v3 decodeBlockV3', 'v3 blockFromJsonV3'].includes(x.name))) {
    const v3 = t.name.startsWith('v3');
    const type = t.input === 'bytes' ? (v3 ? 'application/vnd.iota.serializer-v2' : 'application/vnd.iota.serializer-v1') : 'application/json';
    if (await servesPost(base, v3 ? '/api/core/v3/blocks' : '/api/core/v2/blocks', type)) blockTargets.push(t);
    else console.log(`skipping ${t.name}: the node does not serve its submission route`);
  }
  const statuses = new Map<string, Map<number, number>>();
  const count = (name: string, status: number): void => {
    const m = statuses.get(name) ?? new Map<number, number>();
    m.set(status, (m.get(status) ?? 0) + 1);
    statuses.set(name, m);
  };
  const failures: string[] = [];
  const rng = new Rng(args.seed);
  const end = performance.now() + args.seconds * 1000;
  let total = 0;
  let round = 0;
  while (performance.now() < end) {
    for (const t of blockTargets) {
      const c = blockCase(t, rng.int(0x7fffffff));
      const v = await sendCase(base, c);
      total++;
      count(t.name, v.status);
      if (!v.ok) {
        failures.push(`${c.label}: ${v.reason}`);
        console.log(`FAILURE ${c.label}: ${v.reason}`);
      }
    }
    if (round++ % 50 === 0) {
      for (const c of rawHttpCases(`127.0.0.1:${port}`)) {
        const { status } = await sendRaw(port, c.raw, 10_000, c.halfClose === true).catch((e: Error) => ({ status: -1, text: e.message }));
        total++;
        count('malformed HTTP', status);
        if (status !== 0 && (status < 400 || status >= 500)) {
          failures.push(`malformed HTTP "${c.label}": ${status}`);
          console.log(`FAILURE malformed HTTP "${c.label}": ${status}`);
        }
      }
      const info = await fetch(`${base}/api/core/v2/info`).catch(() => undefined);
      if (info?.status !== 200) {
        failures.push(`GET /api/core/v2/info answered ${info?.status ?? 'nothing'} during the run`);
        console.log(`FAILURE the node stopped serving: GET /api/core/v2/info -> ${info?.status ?? 'no answer'}`);
      }
      await info?.arrayBuffer();
    }
  }
  console.log(`node fuzz against ${base}: ${total} requests in ${args.seconds} s, master seed ${args.seed}, ${failures.length} failures`);
  for (const [name, m] of statuses) {
    console.log(`${name}: ${[...m.entries()].sort((a, b) => b[1] - a[1]).map(([s, n]) => `${s === 0 ? 'closed' : s} ${n}`).join(', ')}`);
  }
  return failures.length > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\nusage: npx tsx scripts/fuzz.ts --seconds N [--seed S] [--target SUBSTRING] [--node URL] | --replay NAME --case SEED`);
    return 2;
  }
  let targets = loadTargets();
  if (args.replay !== undefined) return replay(targets, args.replay, args.caseSeed ?? 0);
  if (args.target !== undefined) targets = targets.filter((t) => t.name.includes(args.target!));
  if (targets.length === 0) {
    console.error(`no target matches "${args.target}"`);
    return 2;
  }
  return args.node !== undefined ? fuzzNode(targets, args) : fuzzCore(targets, args);
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
