/**
 * Settings declared once (gateway/settings/kit.ts): the flags of `ledger-node run` and `ledger-node gateway`, their
 * `--help`, the config-file keys of `run` and docs/settings.md all come from the declarations in src/node/settings.ts
 * and gateway/settings/gateway.ts; the settings shared by both commands mean the same on both.
 */
import { expect } from 'chai';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_USAGE, parseGatewayArgs } from '../../gateway/cli.ts';
import { RateLimiter } from '../../gateway/rate-limit.ts';
import { GATEWAY_SETTINGS, limitOptions } from '../../gateway/settings/gateway.ts';
import { flagOf, settingsOf, type Setting } from '../../gateway/settings/kit.ts';
import { ConfigError, parseRunArgs, RUN_HELP, runSecrets } from '../../src/node/config.ts';
import { RUN_SETTINGS, settingsReference } from '../../src/node/settings.ts';
import { tempDir } from './support.ts';

/** A valid command-line value of each type, and the value it reads as. */
function sample(s: Setting, file: string): [string, unknown] {
  const byType: Record<string, [string, unknown]> = {
    seconds: ['2.5', 2.5],
    rate: ['0.5', 0.5],
    bool: ['true', true],
    string: ['x', 'x'],
    file: [file, file],
    host: ['0.0.0.0', '0.0.0.0'],
    size: ['30GB', '30GB'],
    'list of peer': ['127.0.0.1:1', ['127.0.0.1:1']],
    'list of route pattern': ['/api/*', ['/api/*']],
    'host:port': ['h:1', 'h:1'],
    'MS 2000..600000': ['2500', 2500],
    enum: [s.type.arg.split('|')[0]!, s.type.arg.split('|')[0]],
  };
  return byType[s.type.name] ?? ['7', 7];
}

/** What a setting needs beside it on the command line (the rules between settings). */
const COMPANIONS: Record<string, string[]> = {
  rateBurst: ['--rate-limit', '1'],
  rateLimitLoopback: ['--rate-limit', '1'],
  metricsHost: ['--metrics-port', '0'],
  grpcTlsCert: ['--grpc-tls-key', 'k'],
  grpcTlsKey: ['--grpc-tls-cert', 'c'],
  peerTlsCert: ['--peer-tls-key', 'k'],
  peerTlsKey: ['--peer-tls-cert', 'c'],
  genesisKeys: ['--peer', '127.0.0.1:1'],
};

const flagged = (list: readonly Setting[]): Setting[] => list.filter((s) => s.env === undefined);

describe('settings declared once', () => {
  const dir = tempDir('ledger-node-settings-', 'suite');
  let file: string;
  before(() => {
    file = join(dir.path, 'ca.pem');
    writeFileSync(file, 'not checked here');
  });

  it('run takes a flag for every setting of run, and nothing else', () => {
    const declared = settingsOf('run', RUN_SETTINGS);
    expect(declared.length).to.equal(RUN_SETTINGS.length);
    for (const s of flagged(RUN_SETTINGS)) {
      const [text, value] = sample(s, file);
      const config = parseRunArgs([flagOf(s), text, ...(COMPANIONS[s.key] ?? [])]) as Record<string, unknown>;
      expect(config[s.key], flagOf(s)).to.deep.equal(value);
    }
    const known = (() => {
      try {
        parseRunArgs(['--nope']);
      } catch (e) {
        return (e as Error).message;
      }
    })();
    expect(known).to.equal(`unknown flag --nope (known: --config, ${flagged(RUN_SETTINGS).map(flagOf).join(', ')})`);
  });

  it('gateway takes a flag for every setting of gateway', () => {
    for (const s of flagged(settingsOf('gateway', GATEWAY_SETTINGS))) {
      const [text] = sample(s, file);
      const args =
        s.key === 'node' ? ['--node', text] : ['--node', 'h:1', flagOf(s), text, ...(COMPANIONS[s.key] ?? [])];
      expect(() => parseGatewayArgs(args), flagOf(s)).to.not.throw();
    }
    for (const s of settingsOf('gateway', GATEWAY_SETTINGS)) expect(s.commands).to.include('gateway');
  });

  it('--rate-limit 0.5 means one request every 2 seconds per client on both commands', () => {
    const fromRun = limitOptions(parseRunArgs(['--rate-limit', '0.5']));
    const fromGateway = parseGatewayArgs(['--node', 'h:1', '--rate-limit', '0.5']);
    expect(fromRun.rateLimit).to.deep.equal({ requestsPerSecond: 0.5 });
    expect(fromGateway.rateLimit).to.deep.equal(fromRun.rateLimit);
    const configFile = join(dir.path, 'rate.json');
    writeFileSync(configFile, JSON.stringify({ rateLimit: 0.5 }));
    expect(parseRunArgs(['--config', configFile]).rateLimit).to.equal(0.5);
    let now = 0;
    const limiter = new RateLimiter({ ...fromGateway.rateLimit!, now: () => now });
    expect(limiter.burst).to.equal(1);
    expect(limiter.take('c')).to.equal(0);
    expect(limiter.take('c')).to.equal(2); // Retry-After: 2 s
    now += 2000;
    expect(limiter.take('c')).to.equal(0);
    for (const bad of ['0', '-1', 'fast', '1e3']) {
      expect(() => parseRunArgs(['--rate-limit', bad]), bad).to.throw(
        ConfigError,
        /--rate-limit: expected requests per second > 0/,
      );
      expect(() => parseGatewayArgs(['--node', 'h:1', '--rate-limit', bad]), bad).to.throw(
        /invalid --rate-limit: .*expected requests per second > 0/,
      );
    }
  });

  it('the shared settings read the same on both commands, bool flags alone mean true', () => {
    const args = [
      '--rate-limit',
      '2',
      '--rate-burst',
      '3',
      '--rate-limit-loopback',
      '--max-json-depth',
      '9',
      '--mqtt-max-packet-bytes',
      '4096',
      '--mqtt-ping-interval',
      '2.5',
      '--metrics-port',
      '0',
      '--metrics-host',
      '0.0.0.0',
      '--rest-port',
      '8080',
    ];
    const run = parseRunArgs(args);
    const gw = parseGatewayArgs(['--node', 'h:1', ...args]);
    const { rateLimit, maxJsonDepth, mqtt } = gw;
    expect(limitOptions(run)).to.deep.equal({ rateLimit, maxJsonDepth, mqtt });
    expect(mqtt).to.deep.equal({ maxPacketBytes: 4096, pingIntervalMs: 2500 });
    expect([run.metricsPort, run.metricsHost, run.restPort]).to.deep.equal([gw.metricsPort, gw.metricsHost, gw.port]);
    expect(() => parseRunArgs(['--rate-burst', '3'])).to.throw(
      ConfigError,
      '--rate-burst and --rate-limit-loopback need --rate-limit RPS',
    );
    expect(() => parseGatewayArgs(['--node', 'h:1', '--rate-burst', '3'])).to.throw(
      '--rate-burst and --rate-limit-loopback need --rate-limit RPS',
    );
  });

  it("unknown flags and bad values are refused with each command's texts", () => {
    expect(() => parseRunArgs(['--verbose'])).to.throw(ConfigError, /^unknown flag --verbose \(known:/);
    expect(() => parseGatewayArgs(['--node', 'h:1', '--verbose'])).to.throw('unknown flag "--verbose"');
    expect(() => parseRunArgs(['--mqtt-max-packet-bytes', '0'])).to.throw(
      ConfigError,
      'flag --mqtt-max-packet-bytes: expected an integer >= 1, got "0"',
    );
    expect(() => parseGatewayArgs(['--node', 'h:1', '--mqtt-max-packet-bytes', '0'])).to.throw(
      'invalid --mqtt-max-packet-bytes: "0", expected an integer >= 1',
    );
    for (const bad of ['0', '-1', 'abc', '3601', '']) {
      expect(() => parseRunArgs([`--mqtt-ping-interval=${bad}`]), bad).to.throw(
        ConfigError,
        /flag --mqtt-ping-interval: expected seconds in \(0, 3600\]/,
      );
      expect(() => parseGatewayArgs(['--node', 'h:1', `--mqtt-ping-interval=${bad}`]), bad).to.throw(
        /invalid --mqtt-ping-interval/,
      );
    }
    expect(() => parseRunArgs(['--rest-port'])).to.throw(ConfigError, 'flag --rest-port needs a value');
    expect(() => parseGatewayArgs(['--node', 'h:1', '--rest-port'])).to.throw('missing value for --rest-port');
    expect(() => parseRunArgs(['--coordinator', 'maybe'])).to.throw(
      ConfigError,
      'flag --coordinator: expected true or false, got "maybe"',
    );
  });

  it('config-file keys round trip: every setting of run written to a file reads back as from its flag', () => {
    const fromFlags: Record<string, unknown> = {};
    for (const s of flagged(RUN_SETTINGS)) {
      const argv = [flagOf(s), sample(s, file)[0], ...(COMPANIONS[s.key] ?? [])];
      const config = parseRunArgs(argv) as Record<string, unknown>;
      fromFlags[s.key] = config[s.key];
      const given = flagged(RUN_SETTINGS).filter((g) => argv.includes(flagOf(g)));
      const path = join(dir.path, `${s.key}.json`);
      writeFileSync(path, JSON.stringify(Object.fromEntries(given.map((g) => [g.key, config[g.key]]))));
      expect(parseRunArgs(['--config', path]), s.key).to.deep.equal(config);
    }
    expect(Object.keys(fromFlags)).to.have.length(flagged(RUN_SETTINGS).length);
    const bad = join(dir.path, 'bad.json');
    writeFileSync(bad, JSON.stringify({ nodeJwtSecret: 's' }));
    // secrets: environment only
    expect(() => parseRunArgs(['--config', bad])).to.throw(ConfigError, /unknown key "nodeJwtSecret"/);
  });

  it('secrets come from the environment only', () => {
    expect(runSecrets({ LEDGER_NODE_JWT_SECRET: 'a', LEDGER_GATEWAY_JWT_SECRET: 'b', OTHER: 'c' })).to.deep.equal({
      nodeJwtSecret: 'a',
      jwtSecret: 'b',
    });
    expect(
      parseGatewayArgs(['--node', 'h:1'], { LEDGER_GATEWAY_JWT_SECRET: 's', LEDGER_GATEWAY_NODE_TOKEN: 't' }),
    ).to.deep.include({ jwtSecret: 's', nodeSecurity: { token: 't' } });
    expect(() => parseRunArgs(['--node-jwt-secret', 's'])).to.throw(ConfigError, /unknown flag/);
    expect(() => parseGatewayArgs(['--node', 'h:1', '--jwt-secret', 's'])).to.throw(/unknown flag/);
  });

  it('--help of both commands lists every setting of the command', () => {
    for (const s of RUN_SETTINGS as readonly Setting[]) expect(RUN_HELP, s.key).to.contain(s.env ?? `${flagOf(s)} `);
    for (const s of settingsOf('gateway', GATEWAY_SETTINGS))
      expect(GATEWAY_USAGE, s.key).to.contain(s.env ?? `${flagOf(s)} `);
  });

  it('docs/settings.md is what the declarations produce (npx tsx scripts/gen-settings-doc.ts)', () => {
    const doc = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
    expect(doc).to.equal(settingsReference());
    for (const s of [...RUN_SETTINGS, ...GATEWAY_SETTINGS] as Setting[])
      expect(doc, s.key).to.contain(s.env ?? `${flagOf(s)} `);
  });
});
