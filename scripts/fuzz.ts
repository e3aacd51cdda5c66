/**
 * The longer fuzz run (the test suite runs a bounded sample of the same generators):
 *
 *   npx tsx scripts/fuzz.ts --seconds N [--seed S] [--target SUBSTRING] [--node URL]
 *   npx tsx scripts/fuzz.ts --replay "<target name>" --case SEED      (one case, printed in full)
 *   npx tsx scripts/fuzz.ts --grpc HOST:PORT [--peer HOST:PORT] --seconds N [--seed S] [--target SUBSTRING]
 *   npx tsx scripts/fuzz.ts --grpc HOST:PORT [--peer HOST:PORT] --target "<target name>" --case SEED
 *
 * Core mode feeds the v2 / v3 decoders and JSON mappers mutations of the real vectors (test/core/fuzz) round-robin
 * for N seconds and prints the outcome counts per target. With --node it POSTs mutated v2 (and v3, when the node
 * serves POST /api/core/v3/blocks) blocks, binary and JSON, plus malformed HTTP requests to a running node's REST
 * base URL (e.g. http://127.0.0.1:14265) and counts the statuses; a 5xx, an error answer without the JSON error body,
 * or a dropped connection is a failure. Every failure is printed with its target and seed. Exit code 1 on failures.
 *
 * With --grpc it fuzzes a running node's gRPC doors (harness/fuzz/grpc.ts, grpc-mux.ts, grpc-peer.ts): the requests
 * that once crashed the node and oversized IDs on every method first, then round-robin every NodeService method and
 * the mux (NodeMux/Exchange) on the node service door, and with --peer the peer door's Connect and DownloadSnapshot;
 * a call without a status in 5 s, a dropped connection, an INTERNAL answer or details that are not short,
 * well-formed text are failures, and so is a node that stops answering GetInfo (then the run ends). Run it against a
 * throwaway dev node: it submits blocks, enqueues faucet requests, adds (and removes) peers, may prune and write
 * snapshots.
 * With --case it sends the one case of that seed (against the same node, the same request) and prints its verdict.
 */
import { parseArgs as parseFlags } from 'node:util';
import { generate, loadTargets, runCase, Tally, type Target } from '../harness/fuzz/targets.ts';
import { Rng } from '../harness/fuzz/mutate.ts';
import { blockCase, rawHttpCases, sendCase, sendRaw, servesPost } from '../harness/fuzz/http.ts';
import { settingsOf } from '../src/node/peering/context.ts';
import { consoleLogger } from '../src/node/logger.ts';
import {
  caseLabel,
  GrpcTally,
  RawDoor,
  wantInvalidArgument,
  type FuzzCase,
  type Verdict,
} from '../harness/fuzz/grpc-harness.ts';
import {
  blockCorpus,
  callTyped,
  CRASH_CASES,
  discover,
  NODE_METHODS,
  oversizedIdCases,
  sendUnary,
  targetOf,
  unaryCase,
  type NodeServiceMethod,
} from '../harness/fuzz/grpc.ts';
import { muxCase, MUX_TARGET, sendMux } from '../harness/fuzz/grpc-mux.ts';
import {
  connectCase,
  CONNECT_TARGET,
  downloadCase,
  DOWNLOAD_TARGET,
  sendConnect,
  sendDownload,
} from '../harness/fuzz/grpc-peer.ts';

interface Args {
  seconds: number;
  seed: number;
  target?: string;
  node?: string;
  replay?: string;
  caseSeed?: number;
  grpc?: string;
  peer?: string;
}

const USAGE = [
  'usage: npx tsx scripts/fuzz.ts --seconds N [--seed S] [--target SUBSTRING]',
  '[--node URL | --grpc HOST:PORT [--peer HOST:PORT]]',
  '| --replay NAME --case SEED | --grpc HOST:PORT [--peer HOST:PORT] --target NAME --case SEED',
].join(' ');

/** The flags (node's util.parseArgs: `--flag value` and `--flag=value`); numbers are checked, unknown flags refused. */
function parseArgs(argv: string[]): Args {
  const { values } = parseFlags({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      seconds: { type: 'string' },
      seed: { type: 'string' },
      target: { type: 'string' },
      node: { type: 'string' },
      replay: { type: 'string' },
      case: { type: 'string' },
      grpc: { type: 'string' },
      peer: { type: 'string' },
    },
  });
  const num = (flag: string, v: string): number => {
    if (!/^\d+(\.\d+)?$/.test(v)) throw new Error(`invalid --${flag}: "${v}", expected a number`);
    return Number(v);
  };
  const args: Args = { seconds: 10, seed: Date.now() % 0x7fffffff };
  if (values.seconds !== undefined) args.seconds = num('seconds', values.seconds);
  if (values.seed !== undefined) args.seed = num('seed', values.seed);
  if (values.case !== undefined) args.caseSeed = num('case', values.case);
  if (values.target !== undefined) args.target = values.target;
  if (values.node !== undefined) args.node = values.node.replace(/\/+$/, '');
  if (values.replay !== undefined) args.replay = values.replay;
  if (values.grpc !== undefined) args.grpc = values.grpc;
  if (values.peer !== undefined) args.peer = values.peer;
  if (args.peer !== undefined && args.grpc === undefined) {
    throw new Error('--peer needs --grpc (the node service door)');
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
  console.log(
    `core fuzz: ${tally.total} cases in ${secs.toFixed(1)} s (${Math.round(tally.total / secs)}/s), ` +
      `master seed ${args.seed}, ${tally.failures.length} failures`,
  );
  console.log(tally.render());
  return tally.failures.length > 0 ? 1 : 0;
}

async function fuzzNode(targets: Target[], args: Args): Promise<number> {
  const base = args.node!;
  const port = Number(new URL(base).port || 80);
  const blockTargets: Target[] = [];
  for (const t of targets.filter((x) =>
    ['v2 decodeBlock', 'v2 blockFromJson (submission)', 'v3 decodeBlockV3', 'v3 blockFromJsonV3'].includes(x.name),
  )) {
    const v3 = t.name.startsWith('v3');
    const type =
      t.input === 'bytes'
        ? v3
          ? 'application/vnd.iota.serializer-v2'
          : 'application/vnd.iota.serializer-v1'
        : 'application/json';
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
        const { status } = await sendRaw(port, c.raw, 10_000, c.halfClose === true).catch((e: Error) => ({
          status: -1,
          text: e.message,
        }));
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
  console.log(
    `node fuzz against ${base}: ${total} requests in ${args.seconds} s, ` +
      `master seed ${args.seed}, ${failures.length} failures`,
  );
  for (const [name, m] of statuses) {
    console.log(
      `${name}: ${[...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .map(([s, n]) => `${s === 0 ? 'closed' : s} ${n}`)
        .join(', ')}`,
    );
  }
  return failures.length > 0 ? 1 : 0;
}

/** A gRPC target of the long form: its case for a seed, sent and judged. */
interface GrpcTarget {
  name: string;
  run(seed: number): Promise<{ c: FuzzCase; v: Verdict }>;
}

type Send<C> = (c: C) => Promise<Verdict>;

function grpcTarget<C extends FuzzCase>(name: string, make: (seed: number) => C, send: Send<C>): GrpcTarget {
  return {
    name,
    run: async (seed) => {
      const c = make(seed);
      return { c, v: await send(c) };
    },
  };
}

async function fuzzGrpc(args: Args): Promise<number> {
  const door = new RawDoor(args.grpc!);
  const peerDoor = args.peer !== undefined ? new RawDoor(args.peer) : undefined;
  try {
    const known = await discover(door);
    const corpus = blockCorpus();
    const peer = { known, handshakeTimeoutMs: settingsOf({ peers: [], logger: consoleLogger }).handshakeTimeoutMs };
    const unary = (m: NodeServiceMethod): GrpcTarget =>
      grpcTarget(
        targetOf(m),
        (s) => unaryCase(m, s, known, corpus),
        (c) => sendUnary(door, c),
      );
    const all = NODE_METHODS.map(unary);
    all.push(
      grpcTarget(
        MUX_TARGET,
        (s) => muxCase(s, known, corpus),
        (c) => sendMux(door, c),
      ),
    );
    if (peerDoor) {
      all.push(
        grpcTarget(
          CONNECT_TARGET,
          (s) => connectCase(s, known),
          (c) => sendConnect(peerDoor, c, peer),
        ),
      );
      all.push(grpcTarget(DOWNLOAD_TARGET, downloadCase, (c) => sendDownload(peerDoor, c)));
    }
    const targets = all.filter((t) => args.target === undefined || t.name.includes(args.target));
    if (targets.length === 0) {
      console.error(`no target matches "${args.target}"; targets: ${all.map((t) => t.name).join(', ')}`);
      return 2;
    }
    const tally = new GrpcTally();
    const record = (c: FuzzCase, v: Verdict, group = c.target): void => {
      tally.add(group, v.label, v.ok ? undefined : `${caseLabel(c)}: ${v.reason}`);
      if (args.caseSeed !== undefined || !v.ok) {
        console.log(`${v.ok ? v.label : 'FAILURE'} ${caseLabel(c)}${v.ok ? '' : `: ${v.reason}`}`);
      }
    };
    if (args.caseSeed !== undefined) {
      for (const t of targets) {
        const { c, v } = await t.run(args.caseSeed);
        record(c, v);
      }
      return tally.failures.length > 0 ? 1 : 0;
    }
    const chosen = new Set(targets.map((t) => t.name));
    const fixed = [...CRASH_CASES, ...oversizedIdCases(known, corpus)].filter((c) => chosen.has(c.target));
    for (const c of fixed) record(c, wantInvalidArgument(await sendUnary(door, c)), 'fixed cases');
    const rng = new Rng(args.seed);
    const t0 = performance.now();
    let stopped = false;
    while (!stopped && performance.now() - t0 < args.seconds * 1000) {
      for (const t of targets) {
        const { c, v } = await t.run(rng.int(0x7fffffff));
        record(c, v);
      }
      // a node that stopped answering fails every case from here on: one failure says it
      stopped = await callTyped(door, 'getInfo', {}).then(
        () => false,
        (e: Error) => {
          tally.add('liveness', 'no answer', `GetInfo after a round of cases: ${e.message}`);
          console.log(`FAILURE the node stopped answering GetInfo (${e.message}): run ended`);
          return true;
        },
      );
    }
    const secs = (performance.now() - t0) / 1000;
    const doors = `${args.grpc}${peerDoor ? ` and ${args.peer}` : ''}`;
    const summary = `master seed ${args.seed}, ${tally.failures.length} failures`;
    console.log(`gRPC fuzz against ${doors}: ${tally.total} cases in ${secs.toFixed(1)} s, ${summary}`);
    console.log(tally.render());
    return tally.failures.length > 0 ? 1 : 0;
  } finally {
    door.close();
    peerDoor?.close();
  }
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.grpc !== undefined) return fuzzGrpc(args);
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
