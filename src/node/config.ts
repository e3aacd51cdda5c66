/**
 * The node's configuration: defaults, an optional JSON config file (`--config FILE`, keys = the flag names in
 * camelCase) and command-line flags, in that order of precedence (flags win). Unknown flags or keys and bad values
 * are a ConfigError, which `ledger-node run` turns into exit code 2.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DB_ENGINES, isDbEngine, type DbEngine } from '../storage/engine.ts';
import { parseSize } from './pruning/size.ts';

export interface NodeConfig {
  /** Folder of the store (`<dataDir>/db` for LevelDB, `<dataDir>/db-rocksdb` for RocksDB) and of `genesis.json`. */
  dataDir: string;
  /**
   * Storage engine of a new data folder. A data folder keeps the engine it was created with: an existing folder is
   * opened with its own engine, and when `dbEngine` is set explicitly to the other one the node refuses to start
   * (src/storage/open.ts).
   */
  dbEngine: DbEngine;
  /** The three doors (src/node/doors.ts), each on its own address: REST and events, the node service, the peers. */
  restHost: string;
  /** REST gateway port; 0 = any free port. */
  restPort: number;
  /** The node service door (NodeService, NodeMux, NodeEvents): guarded by LEDGER_NODE_JWT_SECRET beyond loopback. */
  grpcHost: string;
  /** gRPC port of the node service door; 0 = any free port. */
  grpcPort: number;
  /** The peer door (PeerService only). */
  peerHost: string;
  /** Its port; absent = any free port (`ledger-node run` defaults to DEFAULT_PEER_PORT). */
  peerPort?: number;
  /** PEM files of TLS on the node service door and on the peer door (cert and key go together). */
  grpcTlsCert?: string;
  grpcTlsKey?: string;
  peerTlsCert?: string;
  peerTlsKey?: string;
  /** PEM certificates (CA or self-signed) that peers' doors are checked against: peers are dialed over TLS with it. */
  peerTlsCa?: string;
  /**
   * Minimum PoW score of the dev network created on a first start without `--genesis`. An existing network (or a
   * genesis file) keeps its own `protocol.minPowScore`.
   */
  minPowScore: number;
  /** PoW worker threads; 0 turns remote proof of work off. */
  powWorkers: number;
  /** PoW jobs that may wait or run at once; more are refused with RESOURCE_EXHAUSTED and a retry hint. */
  powQueueSize: number;
  /** A genesis / snapshot file for the first start (genesis.ts). */
  genesis?: string;
  /**
   * The network's genesis file, read for its network and milestone keys only: with `peers` and a data folder without
   * a store, the node bootstraps from a peer's snapshot checked against them (src/node/bootstrap/).
   */
  genesisKeys?: string;
  /** Seconds between milestones of the built-in coordinator (default: the genesis' `coordinator.milestoneInterval`, else 5). */
  milestoneInterval?: number;
  /** Run the built-in coordinator when the network has coordinator keys (default true, except on a node that dials peers). */
  coordinator?: boolean;
  /** Milliseconds between rounds of the built-in v3 validator (src/node/v3/validator.ts); 0 = off. */
  validationInterval?: number;
  /** Static peers ("host:port"), dialed and redialed with backoff (`--peer`, repeatable; a list in the config file). */
  peers?: string[];
  /** Per-client REST rate limit in requests per second (429 + Retry-After); off when absent. */
  rateLimit?: number;
  /** Burst of the REST rate limit (default: one second's worth). */
  rateBurst?: number;
  /** Apply the REST rate limit to loopback clients too (exempt by default). */
  rateLimitLoopback?: boolean;
  /** Deepest JSON nesting a submitted block may have (default 64). */
  maxJsonDepth?: number;
  /** Event API (MQTT at /api/mqtt/v1) limits; defaults in gateway/mqtt/mount.ts. */
  mqttMaxConnections?: number;
  mqttMaxConnectionsPerIp?: number;
  mqttMaxSubscriptions?: number;
  mqttMaxBufferedBytes?: number;
  mqttMaxPacketBytes?: number;
  /** Seconds between the event API's WebSocket pings. */
  mqttPingInterval?: number;
  /** Faucet of a dev network (src/node/faucet): what a request gets, what an address holding that much gets, and the
   * balance from which an address is refused; defaults inx-faucet's (FAUCET_DEFAULTS). */
  faucetAmount?: number;
  faucetSmallAmount?: number;
  faucetMaxAddressBalance?: number;
  /** Port of the Prometheus /metrics listener; off when absent (Hornet: off by default), 0 = any free port. */
  metricsPort?: number;
  /** Address the /metrics listener binds to (default 127.0.0.1; docs/decisions.md §28). */
  metricsHost?: string;
  /** Log lines as text (default) or one JSON object per line (`json`, for log shippers). */
  logFormat?: 'text' | 'json';
  /** Pruning (src/node/pruning): keep the last N confirmed milestones, and/or keep the store under a size like `30GB`. */
  pruneMilestones?: number;
  pruneSize?: string;
  /** Whether `minPowScore` was set explicitly (flag or file), so a conflict with the stored network can be reported. */
  minPowScoreExplicit?: boolean;
  /** Whether `dbEngine` was set explicitly (flag or file): then a data folder of the other engine is refused, not followed. */
  dbEngineExplicit?: boolean;
}

/**
 * Dev default min PoW score: 100 needs ceil(ln(len · 100) / ln 3) trailing zero trits, 9-10 for usual blocks,
 * i.e. about 20 000-60 000 Curl hashes: real proof of work that a multi-core miner finishes in milliseconds.
 * (Shimmer's 1500 needs 11-12 zeros, about 10-30 times as much.)
 */
export const DEV_MIN_POW_SCORE = 100;
export const DEFAULT_REST_PORT = 14265;
export const DEFAULT_GRPC_PORT = 14266;
/** Hornet's gossip port. */
export const DEFAULT_PEER_PORT = 15600;
export const DEFAULT_POW_QUEUE_SIZE = 16;
/**
 * The storage engine of new data folders, chosen by measurement (README, Performance, `benchmarks/storage/engines.ts`):
 * RocksDB stores the node's durable group commits about twice as fast as LevelDB at 100k and at 1M blocks, with the
 * same size on disk and less RSS; LevelDB reads random blocks up to a quarter faster at 100k, equally at 1M. A data
 * folder keeps the engine it was created with.
 */
export const DEFAULT_DB_ENGINE: DbEngine = 'rocksdb';

export function defaultConfig(): NodeConfig {
  return {
    dataDir: './data',
    dbEngine: DEFAULT_DB_ENGINE,
    restHost: '127.0.0.1',
    restPort: DEFAULT_REST_PORT,
    grpcHost: '127.0.0.1',
    grpcPort: DEFAULT_GRPC_PORT,
    peerHost: '127.0.0.1',
    minPowScore: DEV_MIN_POW_SCORE,
    powWorkers: availableParallelism(),
    powQueueSize: DEFAULT_POW_QUEUE_SIZE,
  };
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

type Kind = 'string' | 'port' | 'uint' | 'positive' | 'workers' | 'seconds' | 'bool' | 'peer' | 'engine' | 'amount';

/** Every setting: its flag, its config-file key and how its value is read. */
const SETTINGS: Record<string, { key: Exclude<keyof NodeConfig, 'minPowScoreExplicit' | 'dbEngineExplicit'>; kind: Kind }> = {
  '--data-dir': { key: 'dataDir', kind: 'string' },
  '--db-engine': { key: 'dbEngine', kind: 'engine' },
  '--rest-host': { key: 'restHost', kind: 'string' },
  '--rest-port': { key: 'restPort', kind: 'port' },
  '--grpc-host': { key: 'grpcHost', kind: 'string' },
  '--grpc-port': { key: 'grpcPort', kind: 'port' },
  '--peer-host': { key: 'peerHost', kind: 'string' },
  '--peer-port': { key: 'peerPort', kind: 'port' },
  '--grpc-tls-cert': { key: 'grpcTlsCert', kind: 'string' },
  '--grpc-tls-key': { key: 'grpcTlsKey', kind: 'string' },
  '--peer-tls-cert': { key: 'peerTlsCert', kind: 'string' },
  '--peer-tls-key': { key: 'peerTlsKey', kind: 'string' },
  '--peer-tls-ca': { key: 'peerTlsCa', kind: 'string' },
  '--min-pow-score': { key: 'minPowScore', kind: 'uint' },
  '--pow-workers': { key: 'powWorkers', kind: 'workers' },
  '--pow-queue-size': { key: 'powQueueSize', kind: 'positive' },
  '--genesis': { key: 'genesis', kind: 'string' },
  '--genesis-keys': { key: 'genesisKeys', kind: 'string' },
  '--milestone-interval': { key: 'milestoneInterval', kind: 'seconds' },
  '--coordinator': { key: 'coordinator', kind: 'bool' },
  '--validation-interval': { key: 'validationInterval', kind: 'uint' },
  '--peer': { key: 'peers', kind: 'peer' },
  '--rate-limit': { key: 'rateLimit', kind: 'positive' },
  '--rate-burst': { key: 'rateBurst', kind: 'positive' },
  '--rate-limit-loopback': { key: 'rateLimitLoopback', kind: 'bool' },
  '--max-json-depth': { key: 'maxJsonDepth', kind: 'positive' },
  '--metrics-port': { key: 'metricsPort', kind: 'port' },
  '--metrics-host': { key: 'metricsHost', kind: 'string' },
  '--log-format': { key: 'logFormat', kind: 'string' },
  '--faucet-amount': { key: 'faucetAmount', kind: 'amount' },
  '--faucet-small-amount': { key: 'faucetSmallAmount', kind: 'amount' },
  '--faucet-max-address-balance': { key: 'faucetMaxAddressBalance', kind: 'amount' },
  '--mqtt-max-connections': { key: 'mqttMaxConnections', kind: 'positive' },
  '--mqtt-max-connections-per-ip': { key: 'mqttMaxConnectionsPerIp', kind: 'positive' },
  '--mqtt-max-subscriptions': { key: 'mqttMaxSubscriptions', kind: 'positive' },
  '--mqtt-max-buffered-bytes': { key: 'mqttMaxBufferedBytes', kind: 'positive' },
  '--mqtt-max-packet-bytes': { key: 'mqttMaxPacketBytes', kind: 'positive' },
  '--mqtt-ping-interval': { key: 'mqttPingInterval', kind: 'seconds' },
  '--prune-milestones': { key: 'pruneMilestones', kind: 'positive' },
  '--prune-size': { key: 'pruneSize', kind: 'string' },
};

const MAX: Record<Kind, number> = { string: 0, port: 65535, uint: 0xffffffff, positive: 0xffffffff, workers: 256, seconds: 3600, bool: 0, peer: 0, engine: 0, amount: Number.MAX_SAFE_INTEGER };

/** A peer address: host (name, IPv4 or [IPv6]) and port 1..65535, optionally preceded by the expected `0xPUBKEY@`. */
export function parsePeerAddress(raw: unknown, where: string): string {
  const m = typeof raw === 'string' ? /^(?:0x[0-9A-Fa-f]{64}@)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})$/.exec(raw) : null;
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw new ConfigError(`${where}: expected HOST:PORT or 0xPUBKEY@HOST:PORT (port 1..65535, a 32-byte key), got ${JSON.stringify(raw)}`);
  return raw as string;
}

function readValue(kind: Kind, raw: unknown, where: string): string | number | boolean | string[] {
  if (kind === 'peer') return Array.isArray(raw) ? raw.map((r, i) => parsePeerAddress(r, `${where}[${i}]`)) : [parsePeerAddress(raw, where)];
  if (kind === 'bool') {
    if (raw === true || raw === 'true' || raw === 'on') return true;
    if (raw === false || raw === 'false' || raw === 'off') return false;
    throw new ConfigError(`${where}: expected true or false, got ${JSON.stringify(raw)}`);
  }
  if (kind === 'seconds') {
    const s = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(raw) ? Number(raw) : NaN;
    if (!(s > 0) || s > MAX.seconds) throw new ConfigError(`${where}: expected seconds in (0, 3600], got ${JSON.stringify(raw)}`);
    return s;
  }
  if (kind === 'engine') {
    if (!isDbEngine(raw)) throw new ConfigError(`${where}: expected ${DB_ENGINES.join(' or ')}, got ${JSON.stringify(raw)}`);
    return raw;
  }
  if (kind === 'string') {
    if (typeof raw !== 'string' || raw === '') throw new ConfigError(`${where}: expected a non-empty string, got ${JSON.stringify(raw)}`);
    return raw;
  }
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[0-9]+$/.test(raw) ? Number(raw) : NaN;
  const min = kind === 'positive' || kind === 'amount' ? 1 : 0;
  if (!Number.isSafeInteger(n) || n < min || n > MAX[kind]) {
    const what = kind === 'port' ? 'a port number 0..65535' : kind === 'positive' || kind === 'amount' ? 'an integer >= 1' : kind === 'workers' ? 'an integer 0..256' : 'an integer >= 0';
    throw new ConfigError(`${where}: expected ${what}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

function assign(config: NodeConfig, key: keyof NodeConfig, value: string | number | boolean | string[]): void {
  if (key === 'peers') {
    config.peers = [...(config.peers ?? []), ...(value as string[])];
    return;
  }
  (config as unknown as Record<string, unknown>)[key] = value;
  if (key === 'minPowScore') config.minPowScoreExplicit = true;
  if (key === 'dbEngine') config.dbEngineExplicit = true;
}

/** Reads a JSON config file: an object whose keys are the camelCase setting names. */
export function readConfigFile(path: string, config: NodeConfig): void {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`Cannot read config file ${path}: ${(e as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ConfigError(`Cannot read config file ${path}: expected a JSON object`);
  for (const [key, raw] of Object.entries(json)) {
    const setting = Object.values(SETTINGS).find((s) => s.key === key);
    if (!setting) {
      const known = Object.values(SETTINGS).map((s) => s.key).join(', ');
      throw new ConfigError(`Cannot read config file ${path}: unknown key "${key}" (known: ${known})`);
    }
    assign(config, setting.key, readValue(setting.kind, raw, `config file ${path}: ${key}`));
  }
}

/**
 * Parses `run` arguments (`--flag value` or `--flag=value`, plus `--config FILE`). The config file is applied
 * first, then the flags, whatever their order on the command line.
 */
export function parseRunArgs(argv: readonly string[], base: NodeConfig = defaultConfig()): NodeConfig {
  const config: NodeConfig = { ...base };
  const flags: [string, string][] = [];
  let configFile: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new ConfigError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (name !== '--config' && !(name in SETTINGS)) {
      throw new ConfigError(`unknown flag ${name} (known: --config, ${Object.keys(SETTINGS).join(', ')})`);
    }
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new ConfigError(`flag ${name} needs a value`);
      value = next;
      i++;
    }
    if (name === '--config') configFile = value;
    else flags.push([name, value]);
  }
  if (configFile !== undefined) readConfigFile(configFile, config);
  for (const [name, value] of flags) {
    const setting = SETTINGS[name]!;
    assign(config, setting.key, readValue(setting.kind, value, `flag ${name}`));
  }
  if (config.rateLimit === undefined && (config.rateBurst !== undefined || config.rateLimitLoopback !== undefined)) {
    throw new ConfigError('--rate-burst and --rate-limit-loopback need --rate-limit RPS');
  }
  if (config.logFormat !== undefined && config.logFormat !== 'text' && config.logFormat !== 'json') {
    throw new ConfigError(`--log-format: expected text or json, got ${JSON.stringify(config.logFormat)}`);
  }
  if (config.metricsHost !== undefined && config.metricsPort === undefined) throw new ConfigError('--metrics-host needs --metrics-port N');
  if (config.pruneSize !== undefined && parseSize(config.pruneSize) === undefined) throw new ConfigError(`--prune-size: expected a size like 30GB (KB, MB, GB, TB; KiB, MiB, GiB, TiB), got ${JSON.stringify(config.pruneSize)}`);
  for (const door of ['grpc', 'peer'] as const) {
    if ((config[`${door}TlsCert`] === undefined) !== (config[`${door}TlsKey`] === undefined)) throw new ConfigError(`--${door}-tls-cert and --${door}-tls-key go together`);
  }
  if (config.genesisKeys !== undefined && config.genesis !== undefined) throw new ConfigError('--genesis and --genesis-keys exclude each other: --genesis FILE starts from that genesis or snapshot, --genesis-keys FILE bootstraps from a peer\'s snapshot checked against its milestone keys');
  if (config.genesisKeys !== undefined && (config.peers?.length ?? 0) === 0) throw new ConfigError('--genesis-keys needs --peer: the peers a new node bootstraps from');
  config.peerPort ??= DEFAULT_PEER_PORT;
  return config;
}

export const RUN_FLAGS_HELP = `flags of "run" (also readable from --config FILE, a JSON object with the camelCase names):
  --data-dir DIR        store and genesis.json folder (default ./data)
  --db-engine E         storage engine of a new data folder: rocksdb (DIR/db-rocksdb) or leveldb (DIR/db)
                        (default ${DEFAULT_DB_ENGINE}); a data folder keeps its engine, naming the other one is refused
  --rest-host H, --rest-port N  REST and events door (default 127.0.0.1:${DEFAULT_REST_PORT}; port 0 = any free port)
  --grpc-host H, --grpc-port N  node service door for gateways and tools (default 127.0.0.1:${DEFAULT_GRPC_PORT}); beyond
                        loopback only with LEDGER_NODE_JWT_SECRET set: every call then needs a token (tool jwt)
  --peer-host H, --peer-port N  peer door, the PeerService only (default 127.0.0.1:${DEFAULT_PEER_PORT})
  --grpc-tls-cert FILE, --grpc-tls-key FILE  TLS on the node service door (PEM)
  --peer-tls-cert FILE, --peer-tls-key FILE  TLS on the peer door (PEM)
  --peer-tls-ca FILE    dial peers over TLS, checking their certificates against these PEM certificates
  --min-pow-score N     min PoW score of a new dev network (default ${DEV_MIN_POW_SCORE})
  --pow-workers N       PoW worker threads (default: number of cores; 0 = remote PoW off)
  --pow-queue-size N    PoW jobs admitted at once (default ${DEFAULT_POW_QUEUE_SIZE})
  --genesis FILE        genesis/snapshot JSON for the first start (default: a generated dev network)
  --genesis-keys FILE   bootstrap an empty data folder from a --peer's snapshot, checked against the milestone keys
                        of FILE (the network's genesis file) instead of replaying from the genesis
  --milestone-interval S  seconds between milestones of the built-in dev coordinator (default 5)
  --coordinator BOOL    run the built-in coordinator when the network has its keys (default: true, but false when --peer is given)
  --validation-interval MS  milliseconds between v3 validation blocks of the built-in validator (default 200; 0 = off)
  --peer [0xPUBKEY@]HOST:PORT  a static peer (its peer door), dialed and redialed with backoff; with 0xPUBKEY only
                        the node proving that identity key (tool identity) is accepted; repeat for more peers
  --rate-limit RPS      per-client REST rate limit, 429 beyond it (default off; loopback clients exempt)
  --rate-burst N        burst of the rate limit (default: one second's worth)
  --rate-limit-loopback BOOL  apply the rate limit to loopback clients too (default false)
  --max-json-depth N    deepest JSON nesting of a submitted block (default 64)
  --metrics-port N      serve Prometheus metrics at http://HOST:N/metrics (default off; 0 = any free port)
  --metrics-host H      address of the metrics listener (default 127.0.0.1; needs --metrics-port)
  --log-format F        text (default) or json: one JSON object per line {time, level, message[, error]}
  --faucet-amount N     what the dev network's faucet pays per request (default 1000000000; off without a dev wallet)
  --faucet-small-amount N  what it pays an address already holding the amount (default 100000000)
  --faucet-max-address-balance N  an address holding this much is refused (default 2000000000)
  --mqtt-max-connections N  event API (MQTT over WebSocket at /api/mqtt/v1 on the REST port): connections at once (default 10000)
  --mqtt-max-connections-per-ip N  event API connections from one address, loopback exempt (default 100)
  --mqtt-max-subscriptions N  topics one event API connection may follow (default 1000)
  --mqtt-max-buffered-bytes N  unsent bytes after which a slow event subscriber is cut off (default 4194304)
  --mqtt-max-packet-bytes N  longest MQTT packet a client may send; a longer one closes its connection (default 65536)
  --mqtt-ping-interval S  seconds between WebSocket pings; a connection that leaves one unanswered is closed (default 30)
  --prune-milestones N  prune automatically, keeping the last N confirmed milestones (default off; at least
                        belowMaxDepth + 5 are always kept)
  --prune-size SIZE     prune automatically when the store is larger than SIZE, e.g. 30GB (default off)`;
