/** `ledger-node run` flags and config file; genesis parsing; the blocks-per-second meter. */
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  DEFAULT_DB_ENGINE,
  defaultConfig,
  DEV_MIN_POW_SCORE,
  parseRunArgs,
  RUN_HELP,
} from '../../src/node/config.ts';
import { devGenesis, genesisFromJson, genesisToJson } from '../../src/node/genesis/genesis.ts';
import { RateMeter } from '../../src/node/metrics/metrics.ts';
import { tempDir } from './support.ts';

describe('node config', () => {
  const dir = tempDir('ledger-node-config-', 'suite');

  it('defaults: ./data, REST 14265, gRPC 14266, min PoW score 100, one worker per core', () => {
    const c = parseRunArgs([]);
    expect(c).to.deep.include({
      dataDir: './data',
      restHost: '127.0.0.1',
      restPort: 14265,
      grpcHost: '127.0.0.1',
      grpcPort: 14266,
      peerHost: '127.0.0.1',
      peerPort: 15600,
      minPowScore: DEV_MIN_POW_SCORE,
      powQueueSize: 16,
    });
    expect(c.powWorkers).to.equal(defaultConfig().powWorkers).and.be.at.least(1);
    expect(c.minPowScoreExplicit).to.equal(undefined);
    expect(c.dbEngine).to.equal(DEFAULT_DB_ENGINE).and.equal(defaultConfig().dbEngine);
    expect(c.dbEngineExplicit).to.equal(undefined);
  });

  it('reads --db-engine from a flag or the config file key dbEngine, marks it explicit, and documents it', () => {
    for (const engine of ['leveldb', 'rocksdb'] as const) {
      expect(parseRunArgs(['--db-engine', engine])).to.deep.include({ dbEngine: engine, dbEngineExplicit: true });
      const file = join(dir.path, `engine-${engine}.json`);
      writeFileSync(file, JSON.stringify({ dbEngine: engine }));
      expect(parseRunArgs(['--config', file])).to.deep.include({ dbEngine: engine, dbEngineExplicit: true });
    }
    expect(() => parseRunArgs(['--db-engine', 'sqlite'])).to.throw(
      ConfigError,
      /flag --db-engine: expected leveldb or rocksdb, got "sqlite"/,
    );
    expect(RUN_HELP).to.contain('--db-engine').and.contain('db-rocksdb');
  });

  it('reads --flag value and --flag=value', () => {
    const c = parseRunArgs([
      '--data-dir',
      'x',
      '--rest-port=0',
      '--grpc-port',
      '1234',
      '--min-pow-score=5',
      '--pow-workers',
      '0',
      '--pow-queue-size',
      '3',
      '--genesis',
      'g.json',
    ]);
    expect(c).to.deep.include({
      dataDir: 'x',
      restPort: 0,
      grpcPort: 1234,
      minPowScore: 5,
      powWorkers: 0,
      powQueueSize: 3,
      genesis: 'g.json',
      minPowScoreExplicit: true,
    });
  });

  it('reads a JSON config file with the camelCase names; flags win', () => {
    const file = join(dir.path, 'node.json');
    writeFileSync(file, JSON.stringify({ dataDir: 'from-file', grpcPort: 1, restPort: 2, powWorkers: 3 }));
    const c = parseRunArgs(['--grpc-port', '7', '--config', file]);
    expect(c).to.deep.include({ dataDir: 'from-file', grpcPort: 7, restPort: 2, powWorkers: 3 });
  });

  it('refuses unknown flags, missing and bad values, unknown file keys, unreadable files', () => {
    const bad: [string[], RegExp][] = [
      [['--bogus', '1'], /unknown flag --bogus/],
      [['stray'], /unexpected argument "stray"/],
      [['--grpc-port'], /flag --grpc-port needs a value/],
      [['--grpc-port', '--rest-port', '1'], /flag --grpc-port needs a value/],
      [['--rest-port', '70000'], /flag --rest-port: expected a port number 0..65535, got "70000"/],
      [['--pow-workers', '-1'], /flag --pow-workers: expected an integer 0..256/],
      [['--pow-workers', '1000'], /flag --pow-workers: expected an integer 0..256/],
      [['--min-pow-score', '1.5'], /flag --min-pow-score: expected an integer >= 0/],
      [['--pow-queue-size', '0'], /flag --pow-queue-size: expected an integer >= 1/],
      [['--data-dir='], /flag --data-dir: expected a non-empty string/],
      [['--config', join(dir.path, 'missing.json')], /Cannot read config file/],
    ];
    for (const [args, message] of bad) expect(() => parseRunArgs(args), args.join(' ')).to.throw(ConfigError, message);
    const file = join(dir.path, 'bad.json');
    writeFileSync(file, JSON.stringify({ grpcport: 1 }));
    expect(() => parseRunArgs(['--config', file])).to.throw(ConfigError, /unknown key "grpcport"/);
    writeFileSync(file, JSON.stringify({ grpcPort: 'x' }));
    expect(() => parseRunArgs(['--config', file])).to.throw(ConfigError, /grpcPort: expected a port number/);
    writeFileSync(file, '[1]');
    expect(() => parseRunArgs(['--config', file])).to.throw(ConfigError, /expected a JSON object/);
  });
});

describe('node genesis', () => {
  const base = () => genesisToJson(devGenesis({ minPowScore: 7, timestamp: 1700000000 })) as Record<string, unknown>;

  it('round-trips the dev genesis through its JSON', () => {
    const g = devGenesis({ minPowScore: 7, timestamp: 1700000000 });
    expect(genesisFromJson(JSON.parse(JSON.stringify(genesisToJson(g))))).to.deep.equal(g);
    expect(g.protocol).to.deep.include({ version: 2, networkName: 'ledger-dev', bech32Hrp: 'rms', minPowScore: 7 });
    expect(g.solidEntryPoints).to.deep.equal([new Uint8Array(32)]);
  });

  it('keeps the ledger keys typed: milestone, key ranges, treasury, outputs, coordinator', () => {
    const json = {
      ...base(),
      milestone: { index: 5, timestamp: 1, milestoneId: '0x' + '11'.repeat(32) },
      milestonePublicKeyCount: 1,
      milestoneKeyRanges: [{ publicKey: '0x' + '22'.repeat(32), start: 0, end: 0 }],
      solidEntryPoints: ['0x' + 'ff'.repeat(32), '0x' + '01'.repeat(32)],
      outputs: [{ anything: 1 }],
      treasury: { milestoneId: '0x' + '33'.repeat(32), amount: '1000' },
      coordinator: { stateFile: 'x' },
    };
    const g = genesisFromJson(json);
    expect(g.milestone.index).to.equal(5);
    expect(g.milestoneKeyRanges[0]!.publicKey).to.deep.equal(new Uint8Array(32).fill(0x22));
    expect(g.solidEntryPoints.map((s) => s[0])).to.deep.equal([0x01, 0xff]); // sorted
    expect(g.treasury).to.deep.equal({ milestoneId: new Uint8Array(32).fill(0x33), amount: 1000n });
    expect(g.outputs).to.deep.equal([{ anything: 1 }]);
    expect(g.coordinator).to.deep.equal({ stateFile: 'x' });
  });

  it('refuses bad genesis files with the JSON path', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base(), protocol: undefined }, /invalid genesis JSON at protocol: missing/],
      [{ ...base(), protocol: { ...(base()['protocol'] as object), version: 3 } }, /protocol\.version.*not supported/],
      [{ ...base(), protocol: { ...(base()['protocol'] as object), minPowScore: -1 } }, /protocol\.minPowScore/],
      [{ ...base(), solidEntryPoints: [] }, /solidEntryPoints: at least one/],
      [{ ...base(), solidEntryPoints: ['0x00'] }, /solidEntryPoints\[0\]/],
      [
        { ...base(), solidEntryPoints: ['0x' + '00'.repeat(32), '0x' + '00'.repeat(32)] },
        /duplicate solid entry point/,
      ],
      [{ ...base(), extra: 1 }, /extra: unknown key/],
      [{ ...base(), milestonePublicKeyCount: 2 }, /threshold 2 exceeds the 0 distinct keys/],
      [
        { ...base(), milestoneKeyRanges: [{ publicKey: '0x' + '22'.repeat(32), start: 5, end: 4 }] },
        /end 4 is before start 5/,
      ],
      [{ ...base(), outputs: {} }, /outputs: expected an array/],
      [{ ...base(), baseToken: { name: 'x' } }, /baseToken/],
    ];
    for (const [json, message] of cases)
      expect(() => genesisFromJson(JSON.parse(JSON.stringify(json))), String(message)).to.throw(message);
  });
});

describe('node metrics: RateMeter', () => {
  it('averages the finished seconds of the window', () => {
    let now = 1_000_000;
    const m = new RateMeter(10, () => now);
    expect(m.rate()).to.equal(0);
    for (let i = 0; i < 20; i++) m.mark();
    expect(m.rate()).to.equal(0); // the current second is not finished
    now += 1000;
    expect(m.rate()).to.equal(2);
    m.mark(10);
    now += 1000;
    expect(m.rate()).to.equal(3);
    now += 9000; // the first second has left the window
    expect(m.rate()).to.equal(1);
    now += 5000;
    expect(m.rate()).to.equal(0);
    expect(() => new RateMeter(0)).to.throw(RangeError);
  });
});
