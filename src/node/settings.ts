/**
 * The node's settings, declared once (gateway/settings/kit.ts says what a declaration holds and what is derived from
 * it). `ledger-node run` takes these and the REST gateway's settings marked for `run` (gateway/settings/gateway.ts:
 * REST port, rate limit, JSON depth, event API limits, metrics listener), which are declared there once for both
 * commands. This file composes the two lists into RUN_SETTINGS, whose values are the NodeConfig (config.ts), and
 * writes the reference of both commands (docs/settings.md, `npx tsx scripts/gen-settings-doc.ts`).
 *
 * The gateway's declarations come through rest.ts, the node's one door to gateway/ (the rule of test/arch).
 */
import { availableParallelism } from 'node:os';
import { DB_ENGINES, type DbEngine } from '../storage/engine.ts';
import { FAUCET_DEFAULTS } from './faucet/faucet.ts';
import { RETENTION_SETTINGS } from './settings-retention.ts';
import { HEALTH_DEFAULTS } from './status/health.ts';
import {
  ACCESS_SETTINGS,
  file,
  GATEWAY_SETTINGS,
  host,
  int,
  JWT_SECRET,
  LIMIT_SETTINGS,
  METRICS_SETTINGS,
  oneOf,
  port,
  positive,
  REST_PORT,
  referenceTable,
  seconds,
  setting,
  settingsOf,
  text,
  uint,
  listOf,
  bool,
  type ValuesOf,
  type ValueType,
} from './rest.ts';

/**
 * Dev default min PoW score: 100 needs ceil(ln(len · 100) / ln 3) trailing zero trits, 9-10 for usual blocks,
 * i.e. about 20 000-60 000 Curl hashes: real proof of work that a multi-core miner finishes in milliseconds.
 * (Shimmer's 1500 needs 11-12 zeros, about 10-30 times as much.)
 */
export const DEV_MIN_POW_SCORE = 100;
export const DEFAULT_GRPC_PORT = 14266;
/** Hornet's gossip port. */
export const DEFAULT_PEER_PORT = 15600;
export const DEFAULT_POW_QUEUE_SIZE = 16;
/**
 * Milliseconds without any message from a peer before its link is closed (peering/liveness.ts): three of the 1 s
 * heartbeats missed, so a dead link is seen within 3.3 s on both sides (docs/decisions.md §40).
 */
export const DEFAULT_PEER_LINK_TIMEOUT_MS = 3000;
/**
 * The built-in v3 validator's cadence: iota-core's validator default (`committeeBroadcastInterval`, 2 s). A round runs
 * every interval whatever the load, so a user block is confirmed within two intervals and an idle network stores one
 * validation block per seat per interval (docs/architecture.md, IOTA 2.0).
 */
export const DEFAULT_VALIDATION_INTERVAL_MS = 2000;
/**
 * The storage engine of new data folders, chosen by measurement (README, Performance, `benchmarks/storage/engines.ts`):
 * RocksDB stores the node's durable group commits about twice as fast as LevelDB at 100k and at 1M blocks, with the
 * same size on disk and less RSS; LevelDB reads random blocks up to a quarter faster at 100k, equally at 1M. A data
 * folder keeps the engine it was created with: an existing folder opens with its own engine, and naming the other
 * one explicitly is refused (src/storage/open.ts).
 */
export const DEFAULT_DB_ENGINE: DbEngine = 'rocksdb';

/** A peer address: host (name, IPv4 or [IPv6]) and port 1..65535, optionally preceded by the expected `0xPUBKEY@`. */
const peerAddress: ValueType<string> = {
  name: 'peer',
  arg: '[0xPUBKEY@]HOST:PORT',
  expected: 'HOST:PORT or 0xPUBKEY@HOST:PORT (port 1..65535, a 32-byte key)',
  parse: (raw) => {
    const m =
      typeof raw === 'string'
        ? /^(?:0x[0-9A-Fa-f]{64}@)?([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})$/.exec(raw)
        : null;
    return m && Number(m[2]) >= 1 && Number(m[2]) <= 65535 ? (raw as string) : undefined;
  },
};

const amount = int('uint >= 1', 1, Number.MAX_SAFE_INTEGER, 'an integer >= 1');
const RUN = ['run'] as const;

/** The node's own settings (`ledger-node run` only), in the order of `run --help`. */
export const NODE_SETTINGS = [
  setting({
    key: 'dataDir',
    type: text,
    arg: 'DIR',
    default: './data',
    description: 'folder of the store (DIR/db-rocksdb or DIR/db) and of genesis.json',
    commands: RUN,
  }),
  setting({
    key: 'dbEngine',
    type: oneOf(DB_ENGINES),
    default: DEFAULT_DB_ENGINE,
    description:
      'storage engine of a new data folder; a data folder keeps its engine, and naming the other one is refused',
    commands: RUN,
  }),
  setting({
    key: 'restHost',
    type: host,
    default: '127.0.0.1',
    description: 'address of the REST and event API door',
    commands: RUN,
  }),
  setting({
    key: 'grpcHost',
    type: host,
    default: '127.0.0.1',
    description:
      'address of the node service door (NodeService, NodeMux, NodeEvents) ' +
      'for gateways and tools; beyond loopback only with LEDGER_NODE_JWT_SECRET set',
    commands: RUN,
  }),
  setting({
    key: 'grpcPort',
    type: port,
    default: DEFAULT_GRPC_PORT,
    description: 'port of the node service door (0 = any free port)',
    commands: RUN,
  }),
  setting({
    key: 'peerHost',
    type: host,
    default: '127.0.0.1',
    description:
      'address of the peer door (the PeerService only); peers are dialed from it too, unless it is 0.0.0.0, :: ' +
      'or a host name',
    commands: RUN,
  }),
  setting({
    key: 'peerPort',
    type: port,
    defaultText: String(DEFAULT_PEER_PORT),
    description: 'port of the peer door (0 = any free port)',
    commands: RUN,
  }),
  setting({
    key: 'grpcTlsCert',
    type: file,
    description: 'TLS certificate of the node service door (PEM; with --grpc-tls-key)',
    commands: RUN,
  }),
  setting({
    key: 'grpcTlsKey',
    type: file,
    description: 'TLS key of the node service door (PEM; with --grpc-tls-cert)',
    commands: RUN,
  }),
  setting({
    key: 'peerTlsCert',
    type: file,
    description: 'TLS certificate of the peer door (PEM; with --peer-tls-key)',
    commands: RUN,
  }),
  setting({
    key: 'peerTlsKey',
    type: file,
    description: 'TLS key of the peer door (PEM; with --peer-tls-cert)',
    commands: RUN,
  }),
  setting({
    key: 'peerLinkTimeout',
    type: int('MS 2000..600000', 2000, 600_000, 'milliseconds 2000..600000', 'MS'),
    default: DEFAULT_PEER_LINK_TIMEOUT_MS,
    description:
      'close a peer link, on either side, when nothing (not even a heartbeat, sent every second) came from the peer ' +
      'for this long; a static peer is then redialed',
    commands: RUN,
  }),
  setting({
    key: 'peerTlsCa',
    type: file,
    description: "dial peers over TLS, checking their certificates against these PEM certificates (a CA or peers' own)",
    commands: RUN,
  }),
  setting({
    key: 'minPowScore',
    type: uint,
    default: DEV_MIN_POW_SCORE,
    description: 'min PoW score of a new dev network (an existing network or a genesis file keeps its own)',
    commands: RUN,
  }),
  setting({
    key: 'powWorkers',
    type: int('uint 0..256', 0, 256, 'an integer 0..256'),
    default: () => availableParallelism(),
    defaultText: 'the number of cores',
    description: 'PoW worker threads (0 = remote proof of work off)',
    commands: RUN,
  }),
  setting({
    key: 'powQueueSize',
    type: positive,
    default: DEFAULT_POW_QUEUE_SIZE,
    description: 'PoW jobs admitted at once; more are refused with a retry hint',
    commands: RUN,
  }),
  setting({
    key: 'genesis',
    type: file,
    defaultText: 'a generated dev network',
    description: 'genesis or snapshot JSON for the first start',
    commands: RUN,
  }),
  setting({
    key: 'genesisKeys',
    type: file,
    description:
      "with --peer and a data folder without a store: start from a peer's snapshot checked " +
      "against the milestone keys of FILE (the network's genesis file); excludes --genesis",
    commands: RUN,
  }),
  setting({
    key: 'milestoneInterval',
    type: seconds,
    defaultText: "the genesis' coordinator.milestoneInterval, else 5",
    description: 'seconds between milestones of the built-in coordinator',
    commands: RUN,
  }),
  setting({
    key: 'coordinator',
    type: bool,
    defaultText: 'true, but false with --peer',
    description: 'run the built-in coordinator when the network has its keys (two coordinators fork a network)',
    commands: RUN,
  }),
  setting({
    key: 'validationInterval',
    type: uint,
    arg: 'MS',
    defaultText: String(DEFAULT_VALIDATION_INTERVAL_MS),
    description:
      'milliseconds between rounds of the built-in IOTA 2.0 validator, one validation block per seat each round, ' +
      'also on an idle network (0 = off)',
    commands: RUN,
  }),
  setting({
    key: 'peers',
    flag: 'peer',
    type: listOf(peerAddress),
    description:
      "a static peer's peer door, dialed and redialed with backoff; with 0xPUBKEY only " +
      'the node proving that identity key is accepted; repeatable (a list in the config file)',
    commands: RUN,
  }),
  setting({
    key: 'healthMilestoneIntervals',
    type: positive,
    default: HEALTH_DEFAULTS.milestoneIntervals,
    description:
      'milestone intervals without a new milestone after which the node is unhealthy, and one that dials peers (not ' +
      'the coordinator) is cut off and refuses submissions; between --health-min-milestone-age and 5 minutes',
    commands: RUN,
  }),
  setting({
    key: 'healthMinMilestoneAge',
    type: seconds,
    default: HEALTH_DEFAULTS.minMilestoneAgeSeconds,
    description: 'seconds a milestone stays recent at least, whatever the interval (timestamps are whole seconds)',
    commands: RUN,
  }),
  setting({
    key: 'healthPeerSilence',
    type: seconds,
    default: HEALTH_DEFAULTS.peerSilenceSeconds,
    description:
      'seconds without a heartbeat of any peer after which a node that dials peers (not the coordinator) has no ' +
      'live peer: unhealthy, cut off, submissions refused',
    commands: RUN,
  }),
  setting({
    key: 'logFormat',
    type: oneOf(['text', 'json'] as const),
    defaultText: 'text',
    description: 'log lines as text, or one JSON object per line {time, level, message[, error]} for log shippers',
    commands: RUN,
  }),
  setting({
    key: 'faucetAmount',
    type: amount,
    defaultText: String(FAUCET_DEFAULTS.amount),
    description: "what the dev network's faucet pays per request (off without a dev wallet)",
    commands: RUN,
  }),
  setting({
    key: 'faucetSmallAmount',
    type: amount,
    defaultText: String(FAUCET_DEFAULTS.smallAmount),
    description: 'what the faucet pays an address already holding the amount',
    commands: RUN,
  }),
  setting({
    key: 'faucetMaxAddressBalance',
    type: amount,
    defaultText: String(FAUCET_DEFAULTS.maxAddressBalance),
    description: 'the balance from which the faucet refuses an address',
    commands: RUN,
  }),
  ...RETENTION_SETTINGS,
  setting({
    key: 'nodeJwtSecret',
    type: text,
    env: 'LEDGER_NODE_JWT_SECRET',
    secret: true,
    description:
      'HS256 secret guarding the node service door (every call needs ' +
      "a token, made by tool jwt) and the REST gateway's protected routes",
    commands: RUN,
  }),
] as const;

/** Every setting of `ledger-node run`: the node's, then the REST gateway's it shares with `ledger-node gateway`. */
export const RUN_SETTINGS = [
  ...NODE_SETTINGS,
  REST_PORT,
  ...LIMIT_SETTINGS,
  ...ACCESS_SETTINGS,
  ...METRICS_SETTINGS,
  JWT_SECRET,
] as const;

/** The values `ledger-node run` reads: its flags, config-file keys and environment. */
export type RunValues = ValuesOf<typeof RUN_SETTINGS>;

/** docs/settings.md: the reference of both commands' settings, from the declarations. */
export function settingsReference(): string {
  const shared = settingsOf('run', GATEWAY_SETTINGS);
  const sharedKeys = new Set(shared.map((s) => s.key));
  return [
    '# Settings reference',
    '',
    '<!-- Generated from src/node/settings.ts and ' +
      'gateway/settings/gateway.ts by `npx tsx scripts/gen-settings-doc.ts`;',
    '     test/node/settings.test.ts fails when this file differs. Do not edit by hand. -->',
    '',
    'Every setting of `ledger-node run` and `ledger-node gateway`, declared once. Flags take `--flag value` or',
    '`--flag=value`; a bool flag alone means true. `ledger-node run --config FILE` also reads a JSON object whose keys',
    'are the config-file keys below (flags win). Secrets are ' +
      'read from the environment only, never from a flag or a file.',
    '',
    '## `ledger-node run`',
    '',
    referenceTable(NODE_SETTINGS),
    '',
    '## Both commands (`run` and `gateway`)',
    '',
    'The REST gateway serves the same API in the node (`run`) ' +
      'and alone (`gateway`): these settings mean the same on both.',
    '',
    referenceTable(shared),
    '',
    '## `ledger-node gateway`',
    '',
    referenceTable(settingsOf('gateway', GATEWAY_SETTINGS).filter((s) => !sharedKeys.has(s.key))),
    '',
  ].join('\n');
}
