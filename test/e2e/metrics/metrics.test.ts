/**
 * Issue 16 end to end: `ledger-node run --metrics-port 0 --log-format json` as a process (a milestone every second, PoW
 * score 0). Its /metrics, read with an independent Prometheus text parser, moves as blocks and milestones go through:
 * blocks by source and result, referenced blocks, milestones, the confirmation histogram, REST latency by route
 * pattern, NodeService calls; /info's rates come from the same counters and are real; every log line is one JSON
 * object. A standalone `ledger-node gateway --metrics-port 0` serves its own REST and process metrics.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseScrape, type Scrape } from '../../support/prometheus.ts';
import { spawnGateway, spawnNode, type Spawned } from '../../../harness/process.ts';
import { waitFor } from '../../../harness/wait.ts';
import { taggedData } from '../rest/support.ts';

const RAW = 'application/vnd.iota.serializer-v1';

interface Info {
  status: { confirmedMilestone: { index: number } };
  metrics: { blocksPerSecond: number; referencedBlocksPerSecond: number; referencedRate: number };
}

/** How long and how often the waits poll (ms). */
const POLL = [20000, 200] as const;
/** The start-up line naming the metrics port. */
const METRICS_READY = /Prometheus metrics on http:\/\/127\.0\.0\.1:(\d+)\/metrics/;

describe('e2e metrics: /metrics of ledger-node run and of a standalone gateway, JSON logs', function () {
  this.timeout(90000);
  let dir: string;
  let node: Spawned;
  let rest: string;
  let metricsUrl: string;
  let grpcPort: number;
  const procs: Spawned[] = [];

  const scrape = async (url = metricsUrl): Promise<Scrape> => {
    const res = await fetch(url);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    return parseScrape(await res.text());
  };
  const info = async (): Promise<Info> => (await fetch(`${rest}/api/core/v2/info`)).json() as Promise<Info>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-metrics-'));
    const flags = ['--metrics-port', '0', '--milestone-interval', '1', '--min-pow-score', '0', '--pow-workers', '1'];
    const spawned = await spawnNode(dir, [...flags, '--log-format', 'json'], { ready: [METRICS_READY] });
    node = spawned.proc;
    grpcPort = spawned.grpcPort;
    rest = spawned.rest;
    metricsUrl = `http://127.0.0.1:${spawned.captures[0]}/metrics`;
  });
  after(async () => {
    for (const p of procs) await p.stop();
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /metrics on its own port, 127.0.0.1 only; other paths are 404', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).to.equal(404);
    const s = await scrape();
    expect(s.types.get('process_cpu_seconds_total')).to.equal('COUNTER'); // the default process metrics
    expect(s.value('nodejs_eventloop_lag_seconds')).to.be.a('number');
    expect(s.value('ledger_database_size_bytes')).to.be.greaterThan(0);
    // the data folder's file system, as statfs tells it; no --prune-size: no target
    const free = s.value('ledger_disk_free_bytes')!;
    expect(free).to.be.greaterThan(0);
    expect(s.value('ledger_disk_size_bytes')).to.be.greaterThan(free);
    expect(s.value('ledger_pruning_target_bytes')).to.equal(0);
    expect(s.value('ledger_pow_workers')).to.equal(1);
  });

  it('blocks and milestones move the counters; /info rates come from them', async () => {
    const before = await waitFor(
      'a first milestone',
      async () => {
        const s = await scrape();
        return s.value('ledger_milestones_confirmed_total')! >= 1 ? s : undefined;
      },
      ...POLL,
    );
    const confirmed0 = before.value('ledger_milestone_confirmed_index')!;
    const milestones0 = before.value('ledger_milestones_confirmed_total')!;
    const referenced0 = before.value('ledger_blocks_referenced_total')!;
    expect(before.value('ledger_blocks_received_total', { source: 'client', result: 'stored' })).to.equal(0);
    expect(before.value('ledger_blocks_received_total', { source: 'coordinator', result: 'stored' })).to.be.at.least(1);

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${rest}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ protocolVersion: 2, payload: taggedData('metrics', `block ${i}`) }),
      });
      expect(res.status).to.equal(201);
      ids.push(((await res.json()) as { blockId: string }).blockId);
    }
    // the same block again is a duplicate; a block of another protocol version is invalid
    const raw = new Uint8Array(
      await (await fetch(`${rest}/api/core/v2/blocks/${ids[0]}`, { headers: { accept: RAW } })).arrayBuffer(),
    );
    expect(
      (await fetch(`${rest}/api/core/v2/blocks`, { method: 'POST', headers: { 'content-type': RAW }, body: raw }))
        .status,
    ).to.equal(201);
    const invalid = await fetch(`${rest}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ protocolVersion: 3, payload: taggedData('metrics', 'wrong version') }),
    });
    expect(invalid.status).to.equal(400);

    // every submitted block referenced by a milestone
    await waitFor(
      'the blocks to be referenced',
      async () => {
        const states = await Promise.all(
          ids.map(
            async (id) =>
              (
                (await (await fetch(`${rest}/api/core/v2/blocks/${id}/metadata`)).json()) as {
                  referencedByMilestoneIndex?: number;
                }
              ).referencedByMilestoneIndex,
          ),
        );
        return states.every((s) => s !== undefined) ? true : undefined;
      },
      ...POLL,
    );
    const after = await waitFor(
      'two more milestones',
      async () => {
        const s = await scrape();
        return s.value('ledger_milestone_confirmed_index')! >= confirmed0 + 2 ? s : undefined;
      },
      ...POLL,
    );
    expect(after.value('ledger_blocks_received_total', { source: 'client', result: 'stored' })).to.equal(5);
    expect(after.value('ledger_blocks_received_total', { source: 'client', result: 'duplicate' })).to.equal(1);
    expect(after.value('ledger_blocks_received_total', { source: 'client', result: 'invalid' })).to.equal(1);
    expect(after.value('ledger_blocks_referenced_total')! - referenced0).to.be.at.least(5);
    expect(after.value('ledger_milestones_confirmed_total')! - milestones0).to.be.at.least(2);
    expect(after.value('ledger_milestone_latest_index')).to.be.at.least(confirmed0 + 2);
    expect(after.value('ledger_milestone_confirmation_duration_seconds_count')).to.equal(
      after.value('ledger_milestones_confirmed_total'),
    );
    expect(after.value('ledger_milestone_referenced_blocks_sum')).to.equal(
      after.value('ledger_blocks_referenced_total'),
    );
    expect(after.value('ledger_tips', { pool: 'non_lazy' })).to.be.at.least(1);
    expect(after.value('ledger_synced')).to.equal(1);
    // REST latency by route pattern and status; the NodeService calls behind them (in process)
    expect(
      after.value('ledger_rest_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/core/v2/blocks',
        status: '201',
      }),
    ).to.equal(6);
    expect(
      after.value('ledger_rest_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/core/v2/blocks',
        status: '400',
      }),
    ).to.equal(1);
    expect(
      after.value('ledger_rest_request_duration_seconds_count', { route: '/api/core/v2/blocks/:blockId/metadata' }),
    ).to.be.at.least(5);
    expect(after.labelsOf('ledger_rest_request_duration_seconds_count').some((l) => l.route!.includes('0x'))).to.equal(
      false,
    );
    expect(
      after.value('ledger_grpc_server_handled_total', {
        grpc_method: 'SubmitBlock',
        grpc_code: 'OK',
        transport: 'in-process',
      }),
    ).to.equal(6);
    expect(
      after.value('ledger_grpc_server_handled_total', {
        grpc_method: 'SubmitBlock',
        grpc_code: 'INVALID_ARGUMENT',
        transport: 'in-process',
      }),
    ).to.equal(1);

    // /info: the last confirmed milestone's rates (the coordinator's own blocks alone are referenced every second)
    const i = await info();
    expect(i.metrics.referencedBlocksPerSecond).to.be.greaterThan(0);
    expect(i.metrics.blocksPerSecond).to.be.greaterThan(0);
    expect(i.metrics.referencedRate).to.be.greaterThan(0);
  });

  it('a standalone gateway with --metrics-port serves its REST latency and process metrics', async () => {
    const gateway = await spawnGateway(grpcPort, ['--metrics-port', '0'], { ready: [METRICS_READY] });
    procs.push(gateway.proc);
    const gw = gateway.rest;
    expect((await fetch(`${gw}/api/core/v2/info`)).status).to.equal(200);
    expect((await fetch(`${gw}/api/core/v2/blocks/0x${'00'.repeat(32)}`)).status).to.equal(404);
    const s = await scrape(`http://127.0.0.1:${gateway.captures[0]}/metrics`);
    expect(
      s.value('ledger_rest_request_duration_seconds_count', { route: '/api/core/v2/info', status: '200' }),
    ).to.equal(1);
    expect(
      s.value('ledger_rest_request_duration_seconds_count', { route: '/api/core/v2/blocks/:blockId', status: '404' }),
    ).to.equal(1);
    expect(s.types.get('process_resident_memory_bytes')).to.equal('GAUGE');
    expect(s.value('ledger_mqtt_connections')).to.equal(0);
    // the node counts the gateway's calls, which reach it over its gRPC port on the mux (the gateway's default)
    const n = await scrape();
    expect(
      n.value('ledger_grpc_server_handled_total', {
        grpc_method: 'GetBlock',
        grpc_code: 'NOT_FOUND',
        transport: 'mux',
      }),
    ).to.equal(1);
    expect(n.value('ledger_event_subscribers')).to.equal(2); // the node's own gateway and this one follow its events
  });

  it('--log-format json: every line the node wrote is one JSON object with time, level and message', () => {
    const lines = node
      .output()
      .split('\n')
      .filter((l) => l.length > 0);
    expect(lines.length).to.be.greaterThan(5);
    for (const line of lines) {
      const o = JSON.parse(line) as Record<string, unknown>;
      expect(o.time).to.match(/^\d{4}-\d\d-\d\dT/);
      expect(o.level).to.be.oneOf(['INFO', 'WARN', 'ERROR']);
      expect(o.message).to.be.a('string');
    }
    expect(lines.some((l) => /confirmed milestone \d+/.test(l))).to.equal(true);
  });
});
