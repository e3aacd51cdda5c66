/**
 * The shipped monitoring (ops/prometheus/, ops/grafana/) against the real thing, Debian's Prometheus 2.x (installed
 * with apt-get when missing, scripts/ensure-prometheus.sh; skipped without it, failing with CI=true):
 * - `promtool` checks the rules and the example configuration and runs the rules' unit tests on recorded series;
 * - every series the rules and the Grafana dashboard name is one a running node serves;
 * - a real Prometheus server scrapes a coordinator and a follower: `up` is 1 and the milestone series move; the
 *   coordinator is stopped and the alerts fire (its `LedgerNodeDown`, the follower's `LedgerPeersGone`). The rules are
 *   the shipped ones with every `for:` cut to 2 s, so that the test does not wait minutes; their timing is what the
 *   promtool unit tests check.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { genesisToJson } from '../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../src/node/genesis/dev-genesis.ts';
import { spawnNode, spawnReady, type Spawned, type SpawnedNode } from '../../harness/process.ts';
import { waitFor } from '../../harness/wait.ts';

const run = promisify(execFile);
const OPS = fileURLToPath(new URL('../../ops/', import.meta.url));
const ENSURE = fileURLToPath(new URL('../../scripts/ensure-prometheus.sh', import.meta.url));
const METRICS_READY = /Prometheus metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/;

/** waitFor's probe answers undefined until done: true, or undefined. */
const when = (ok: boolean): true | undefined => (ok ? true : undefined);

/** Every series name an expression names (functions, labels and keywords are not series). */
function seriesNames(expr: string): string[] {
  return [...expr.matchAll(/\b((?:ledger|process|nodejs)_[a-z0-9_]+)\b/g)].map((m) => m[1]!);
}

function rulesExpressions(): string[] {
  return [...readFileSync(join(OPS, 'prometheus/alerts.yml'), 'utf8').matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!);
}

function dashboardExpressions(): string[] {
  const d = JSON.parse(readFileSync(join(OPS, 'grafana/ledger-node.json'), 'utf8')) as {
    panels: { targets: { expr: string }[] }[];
  };
  return d.panels.flatMap((p) => p.targets.map((t) => t.expr));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

describe('ops: the shipped Prometheus rules and Grafana dashboard', function () {
  this.timeout(120000);
  let bin = '';
  const tmp = mkdtempSync(join(tmpdir(), 'ledger-ops-'));
  const procs: Spawned[] = [];

  before(async function () {
    try {
      bin = (await run('bash', [ENSURE])).stdout.trim();
    } catch (e) {
      if (process.env.CI === 'true')
        throw new Error(`Prometheus is needed on CI: ${(e as { stderr?: string }).stderr}`);
      this.skip();
    }
  });
  after(async () => {
    for (const p of procs.reverse()) await p.stop(3000);
    rmSync(tmp, { recursive: true, force: true });
  });

  it('promtool: the rules and the example configuration check, and the rules pass their unit tests', async () => {
    const promtool = join(bin, 'promtool');
    const dir = join(OPS, 'prometheus');
    await run(promtool, ['check', 'rules', 'alerts.yml'], { cwd: dir });
    await run(promtool, ['check', 'config', 'prometheus.yml'], { cwd: dir });
    const { stdout } = await run(promtool, ['test', 'rules', 'alerts.test.yml'], { cwd: dir });
    expect(stdout).to.contain('SUCCESS');
  });

  describe('a real Prometheus server over a coordinator and a follower', () => {
    let a: SpawnedNode;
    let b: SpawnedNode;
    let metricsA = '';
    let metricsB = '';
    let prometheus = '';

    const query = async (q: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
      const res = await fetch(`${prometheus}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = (await res.json()) as {
        data: { result: { metric: Record<string, string>; value: [number, string] }[] };
      };
      return body.data.result;
    };
    const sampleOf = async (q: string, target: string): Promise<number | undefined> => {
      const r = (await query(q)).find((s) => s.metric.instance === target);
      return r === undefined ? undefined : Number(r.value[1]);
    };

    before(async () => {
      const genesis = join(tmp, 'genesis.json');
      writeFileSync(
        genesis,
        JSON.stringify(genesisToJson(devNetworkGenesis({ minPowScore: 0, milestoneInterval: 1 }))),
      );
      const common = ['--genesis', genesis, '--metrics-port', '0', '--validation-interval', '0'];
      a = await spawnNode(join(tmp, 'a'), common, { ready: [METRICS_READY] });
      procs.push(a.proc);
      b = await spawnNode(join(tmp, 'b'), [...common, '--peer', a.peer], { ready: [METRICS_READY] });
      procs.push(b.proc);
      metricsA = `127.0.0.1:${a.captures[0]}`;
      metricsB = `127.0.0.1:${b.captures[0]}`;

      const rules = readFileSync(join(OPS, 'prometheus/alerts.yml'), 'utf8').replace(/^(\s+for: )\S+$/gm, '$12s');
      writeFileSync(join(tmp, 'alerts.yml'), rules);
      const config = [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'rule_files: [alerts.yml]',
        'scrape_configs:',
        `  - { job_name: ledger-node, static_configs: [{ targets: ['${metricsA}', '${metricsB}'] }] }`,
      ].join('\n');
      writeFileSync(join(tmp, 'prometheus.yml'), config);
      const port = await freePort();
      prometheus = `http://127.0.0.1:${port}`;
      const started = await spawnReady(
        [
          join(bin, 'prometheus'),
          `--config.file=${join(tmp, 'prometheus.yml')}`,
          `--storage.tsdb.path=${join(tmp, 'tsdb')}`,
          `--web.listen-address=127.0.0.1:${port}`,
        ],
        [/(Server is ready) to receive web requests/],
        { name: 'prometheus' },
      );
      procs.push(started.proc);
    });

    it('every series the rules and the dashboard name is served by a running node', async () => {
      // a labelled histogram shows its series once it observed something: one REST request
      expect((await fetch(`${b.rest}/api/core/v2/info`)).status).to.equal(200);
      const text = await (await fetch(`http://${metricsB}/metrics`)).text();
      const served = new Set([...text.matchAll(/^([a-z_:][a-z0-9_:]*)[{ ]/gm)].map((m) => m[1]!));
      const named = new Set([...rulesExpressions(), ...dashboardExpressions()].flatMap(seriesNames));
      const missing = [...named].filter((n) => !served.has(n) && !served.has(`${n}_bucket`));
      expect(missing, 'named by ops/ but not served').to.deep.equal([]);
      expect(named.size).to.be.greaterThan(20);
    });

    it('scrapes both nodes: up is 1 and their milestone series move', async () => {
      for (const target of [metricsA, metricsB])
        await waitFor(`up of ${target}`, async () => when((await sampleOf('up', target)) === 1), 20000, 250);
      const first = await waitFor(
        'a confirmed milestone on the follower',
        async () => {
          const v = await sampleOf('ledger_milestone_confirmed_index', metricsB);
          return v !== undefined && v > 0 ? v : undefined;
        },
        20000,
        250,
      );
      await waitFor(
        'the follower confirming more milestones',
        async () => when(((await sampleOf('ledger_milestone_confirmed_index', metricsB)) ?? 0) >= first + 3),
        20000,
        250,
      );
      expect(await sampleOf('ledger_peers_connected', metricsB)).to.equal(1);
    });

    it('the coordinator stops: LedgerNodeDown fires for it and LedgerPeersGone for the follower', async () => {
      await a.proc.stop(3000);
      const firing = async (name: string, target: string): Promise<boolean> => {
        const res = await fetch(`${prometheus}/api/v1/alerts`);
        const body = (await res.json()) as {
          data: { alerts: { labels: Record<string, string>; state: string }[] };
        };
        return body.data.alerts.some(
          (x) => x.labels.alertname === name && x.labels.instance === target && x.state === 'firing',
        );
      };
      await waitFor(
        'LedgerNodeDown for the coordinator',
        async () => when(await firing('LedgerNodeDown', metricsA)),
        30000,
        500,
      );
      await waitFor(
        'LedgerPeersGone for the follower',
        async () => when(await firing('LedgerPeersGone', metricsB)),
        30000,
        500,
      );
      expect(await firing('LedgerNodeDown', metricsB)).to.equal(false);
    });
  });
});
