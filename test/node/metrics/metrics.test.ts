/**
 * Issue 16, the node's metrics in process: Hornet's confirmed-milestone rates, the dashboard's per-second series and
 * last milestones, the prom-client registry read back with an independent Prometheus text parser, the JSON log lines,
 * the metrics and log flags, and the peer address forms of the peers routes.
 */
import { expect } from 'chai';
import { parseRunArgs } from '../../../src/node/config.ts';
import { jsonLogLine } from '../../../src/node/logger.ts';
import { ConfirmedMilestoneRates, RecentMilestones, SecondSeries } from '../../../src/node/metrics/metrics.ts';
import { dialAddress, multiAddressOf } from '../../../src/node/peering/addresses.ts';
import { NodeMetrics } from '../../../src/node/metrics/node-metrics.ts';
import { parseScrape, type Scrape } from '../../support/prometheus.ts';

async function scrape(m: NodeMetrics): Promise<Scrape> {
  return parseScrape(await m.registry.metrics());
}

function value(f: Scrape, name: string, labels: Record<string, string> = {}): number {
  const v = f.value(name, labels);
  if (v === undefined) throw new Error(`no ${name} with ${JSON.stringify(labels)}`);
  return v;
}

const id = (n: number): Uint8Array => new Uint8Array(32).fill(n);

describe('node metrics', () => {
  describe("Hornet's confirmed-milestone rates (GET /info)", () => {
    it('new and referenced blocks since the previous milestone over the seconds between their timestamps', () => {
      const r = new ConfirmedMilestoneRates();
      expect(r.confirmed(10, 0, 1000)).to.deep.equal({
        blocksPerSecond: 0,
        referencedBlocksPerSecond: 0,
        referencedRate: 0,
      }); // the first sets the base
      const m = r.confirmed(30, 16, 1005); // 20 new, 16 referenced in 5 s
      expect(m).to.deep.equal({ blocksPerSecond: 4, referencedBlocksPerSecond: 3.2, referencedRate: 80 });
      expect(r.confirmed(30, 20, 1005)).to.deep.equal(m); // same timestamp: kept (Hornet: division by zero)
      expect(r.confirmed(30, 20, 1007)).to.deep.equal({
        blocksPerSecond: 0,
        referencedBlocksPerSecond: 2,
        referencedRate: 0,
      }); // no new block: rate 0
    });
  });

  it('SecondSeries: one sample per finished second since it began, blocks counted, milestones kept as points', () => {
    let now = 1_000_000_500;
    const s = new SecondSeries(5, () => now);
    expect(s.samples()).to.deep.equal([]);
    s.markBlocks(3);
    s.markMilestone(2.5);
    now += 1000;
    s.markBlocks();
    now += 1000;
    const samples = s.samples();
    expect(samples.map((x) => x.t)).to.deep.equal([1_000_000, 1_000_001]);
    expect(samples.map((x) => x.blocks)).to.deep.equal([3, 1]);
    expect(samples.map((x) => x.referencedPerSecond)).to.deep.equal([2.5, null]);
    now += 10_000; // a full window later: the ring's slots are reused, old seconds are gone
    expect(s.samples().map((x) => x.t)).to.deep.equal([1_000_007, 1_000_008, 1_000_009, 1_000_010, 1_000_011]);
    expect(s.samples().every((x) => x.blocks === 0 && x.referencedPerSecond === null)).to.equal(true);
  });

  it('RecentMilestones keeps the newest first, at most its capacity', () => {
    const r = new RecentMilestones(2);
    for (let i = 1; i <= 3; i++)
      r.add({
        index: i,
        timestamp: i,
        milestoneId: id(i),
        blockId: id(i),
        referencedBlocks: i,
        includedTransactions: 0,
        conflictingTransactions: 0,
        confirmationMs: 1,
        confirmedAt: i,
      });
    expect(r.all().map((m) => m.index)).to.deep.equal([3, 2]);
  });

  it('the registry counts what the parts report, readable by a Prometheus text parser', async () => {
    let now = 1_000_000_000;
    const m = new NodeMetrics({ now: () => now });
    m.observe({
      milestones: async () => ({ latest: 7, confirmed: 6, pruning: 0 }),
      health: async () => ({
        healthy: false,
        codes: ['milestone_stale', 'no_live_peer'],
        cutOff: true,
        latestMilestoneAgeSeconds: 42,
      }),
      latestKnown: () => 9,
      synced: () => false,
      tips: () => ({ nonLazy: 4, semiLazy: 1 }),
      peers: () => ({ connected: 2, known: 1 }),
      traffic: () => ({ received: { heartbeat: 5, block: 2 }, sent: { heartbeat: 4 }, dropped: 1 }),
      pow: () => ({ workers: 2, pending: 1, limit: 16 }),
      eventSubscribers: () => 3,
    });
    m.blockReceived('client', 'stored');
    m.blockReceived('client', 'stored');
    m.blockReceived('peer', 'unsolid');
    m.blockReceived('peer', 'duplicate');
    m.blockReceived('client', 'invalid');
    m.unsolidStored(id(1));
    now += 1500;
    m.solidified(id(1));
    m.solidified(id(2)); // stored solid: not tracked, not observed
    m.milestoneConfirmed({
      index: 6,
      timestamp: 1_000_000,
      milestoneId: id(6),
      blockId: id(7),
      referencedBlocks: 3,
      includedTransactions: 1,
      conflicts: [1, 1, 255],
      ms: 12,
    });
    m.powJob('mined', 0.5, 1_000_000);
    m.powJob('refused', 0, 0);
    m.grpcCall('GetInfo', 'OK', 'in-process', 0.001);
    m.grpcCall('GetBlock', 'NOT_FOUND', 'grpc', 0.002);

    const f = await scrape(m);
    expect(value(f, 'ledger_blocks_received_total', { source: 'client', result: 'stored' })).to.equal(2);
    expect(value(f, 'ledger_blocks_received_total', { source: 'peer', result: 'unsolid' })).to.equal(1);
    expect(value(f, 'ledger_blocks_received_total', { source: 'peer', result: 'duplicate' })).to.equal(1);
    expect(value(f, 'ledger_blocks_received_total', { source: 'client', result: 'invalid' })).to.equal(1);
    expect(value(f, 'ledger_blocks_received_total', { source: 'coordinator', result: 'stored' })).to.equal(0);
    expect(value(f, 'ledger_blocks_referenced_total')).to.equal(3);
    expect(value(f, 'ledger_transactions_referenced_total', { state: 'included' })).to.equal(1);
    expect(value(f, 'ledger_transactions_referenced_total', { state: 'conflicting' })).to.equal(3);
    expect(value(f, 'ledger_conflicts_total', { reason: 'inputAlreadySpent' })).to.equal(2);
    expect(value(f, 'ledger_conflicts_total', { reason: 'semanticValidationFailed' })).to.equal(1);
    expect(value(f, 'ledger_milestones_confirmed_total')).to.equal(1);
    expect(f.types.get('ledger_milestone_confirmation_duration_seconds')).to.equal('HISTOGRAM');
    expect(value(f, 'ledger_milestone_confirmation_duration_seconds_sum')).to.be.closeTo(0.012, 1e-9);
    expect(value(f, 'ledger_milestone_confirmation_duration_seconds_bucket', { le: '0.025' })).to.equal(1);
    expect(value(f, 'ledger_solidification_duration_seconds_sum')).to.be.closeTo(1.5, 1e-9);
    expect(value(f, 'ledger_solidification_duration_seconds_count')).to.equal(1);
    expect(
      value(f, 'ledger_grpc_server_handling_seconds_count', { grpc_method: 'GetInfo', transport: 'in-process' }),
    ).to.equal(1);
    expect(value(f, 'ledger_milestone_latest_index')).to.equal(7);
    expect(value(f, 'ledger_milestone_confirmed_index')).to.equal(6);
    expect(value(f, 'ledger_healthy')).to.equal(0);
    expect(value(f, 'ledger_milestone_age_seconds')).to.equal(42);
    expect(value(f, 'ledger_health_reason', { reason: 'no_live_peer' })).to.equal(1);
    expect(value(f, 'ledger_health_reason', { reason: 'milestone_stale' })).to.equal(1);
    expect(value(f, 'ledger_health_reason', { reason: 'not_synced' })).to.equal(0);
    expect(value(f, 'ledger_health_reason', { reason: 'ledger_behind' })).to.equal(0);
    expect(value(f, 'ledger_cut_off')).to.equal(1);
    expect(value(f, 'ledger_sync_lag_milestones')).to.equal(3);
    expect(value(f, 'ledger_synced')).to.equal(0);
    expect(value(f, 'ledger_tips', { pool: 'non_lazy' })).to.equal(4);
    expect(value(f, 'ledger_peers_connected')).to.equal(2);
    expect(value(f, 'ledger_peer_messages_received_total', { type: 'heartbeat' })).to.equal(5);
    expect(value(f, 'ledger_peer_messages_dropped_total')).to.equal(1);
    expect(value(f, 'ledger_pow_jobs_total', { result: 'mined' })).to.equal(1);
    expect(value(f, 'ledger_pow_jobs_total', { result: 'refused' })).to.equal(1);
    expect(value(f, 'ledger_pow_hashes_total')).to.equal(1_000_000);
    expect(value(f, 'ledger_pow_hash_rate')).to.equal(2_000_000);
    expect(value(f, 'ledger_pow_queue_jobs')).to.equal(1);
    expect(value(f, 'ledger_event_subscribers')).to.equal(3);
    expect(
      value(f, 'ledger_grpc_server_handled_total', {
        grpc_method: 'GetBlock',
        grpc_code: 'NOT_FOUND',
        transport: 'grpc',
      }),
    ).to.equal(1);
    // every counter ends in _total, every duration is in seconds
    for (const [name, type] of f.types) {
      if (type === 'COUNTER') expect(name, name).to.match(/_total$/);
      if (/duration|seconds/.test(name)) expect(name, name).to.match(/_seconds$/);
    }
    // the dashboard's figures come from the same reports
    expect(m.recent.all()[0]).to.include({
      index: 6,
      referencedBlocks: 3,
      conflictingTransactions: 3,
      confirmationMs: 12,
    });
    // stored and unsolid blocks, in finished seconds
    expect(m.series.samples().reduce((a, x) => a + x.blocks, 0)).to.equal(3);
  });

  it('default process metrics join the registry once /metrics is served', async () => {
    const m = new NodeMetrics();
    m.withDefaultMetrics();
    m.withDefaultMetrics(); // idempotent
    const f = await scrape(m);
    expect(f.types.get('process_cpu_seconds_total')).to.equal('COUNTER');
    expect(f.value('nodejs_heap_size_used_bytes')).to.be.greaterThan(0);
  });

  it('JSON log lines carry time, level, message and the error', () => {
    const line = JSON.parse(jsonLogLine('ERROR', 'it broke', new RangeError('bad'), new Date(0))) as Record<
      string,
      unknown
    >;
    expect(line).to.deep.include({ time: '1970-01-01T00:00:00.000Z', level: 'ERROR', message: 'it broke' });
    expect(line.error).to.include({ name: 'RangeError', message: 'bad' });
    expect(JSON.parse(jsonLogLine('INFO', 'line "quoted"\nnext'))).to.include({
      level: 'INFO',
      message: 'line "quoted"\nnext',
    });
  });

  it('flags: --metrics-port, --metrics-host, --log-format', () => {
    expect(parseRunArgs([]).metricsPort).to.equal(undefined); // off by default, as Hornet's Prometheus plugin
    expect(parseRunArgs(['--metrics-port', '9311'])).to.include({ metricsPort: 9311 });
    expect(parseRunArgs(['--metrics-port=0', '--metrics-host', '0.0.0.0'])).to.include({
      metricsPort: 0,
      metricsHost: '0.0.0.0',
    });
    expect(parseRunArgs(['--log-format', 'json'])).to.include({ logFormat: 'json' });
    expect(() => parseRunArgs(['--log-format', 'xml'])).to.throw(/--log-format: expected text or json/);
    expect(() => parseRunArgs(['--metrics-host', '0.0.0.0'])).to.throw(/--metrics-host needs --metrics-port/);
    expect(() => parseRunArgs(['--metrics-port', '70000'])).to.throw(/port number/);
  });

  it('peer addresses: HOST:PORT or a multiaddress in, the multiaddress out', () => {
    expect(dialAddress('127.0.0.1:15600')).to.equal('127.0.0.1:15600');
    expect(dialAddress('/ip4/10.0.0.2/tcp/15600')).to.equal('10.0.0.2:15600');
    expect(dialAddress('/ip4/10.0.0.2/tcp/15600/p2p/12D3KooWC7uE9w3RN4Vh1FJAZa8SbE8yMWR6wCVBajcWpyWguV73')).to.equal(
      '10.0.0.2:15600',
    );
    expect(dialAddress('/dns/node.example/tcp/15600')).to.equal('node.example:15600');
    expect(dialAddress('/ip6/::1/tcp/15600')).to.equal('[::1]:15600');
    for (const bad of ['node', '/ip4/300.1.1.1/tcp/1', '/ip4/1.2.3.4/udp/1', '1.2.3.4:0', '/ip4/1.2.3.4/tcp/70000']) {
      expect(() => dialAddress(bad), bad).to.throw(/invalid peer address/);
    }
    expect(multiAddressOf('127.0.0.1:15600')).to.equal('/ip4/127.0.0.1/tcp/15600');
    expect(multiAddressOf('::ffff:127.0.0.1:54321')).to.equal('/ip4/127.0.0.1/tcp/54321');
    expect(multiAddressOf('::1:54321')).to.equal('/ip6/::1/tcp/54321');
    expect(multiAddressOf('[::1]:15600')).to.equal('/ip6/::1/tcp/15600');
    expect(multiAddressOf('node.example:15600')).to.equal('/dns/node.example/tcp/15600');
  });
});
