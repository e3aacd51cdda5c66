/**
 * The node's configuration: defaults, an optional JSON config file (`--config FILE`, keys = the flag names in
 * camelCase) and command-line flags, in that order of precedence (flags win). Every setting is declared once, in
 * settings.ts (the REST gateway's shared ones in gateway/settings/gateway.ts): the flags, the file's keys, the
 * defaults and `--help` all come from there. Unknown flags or keys and bad values are a ConfigError, which
 * `ledger-node run` turns into exit code 2.
 */
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.ts';
import {
  checkShared,
  defaultsOf,
  GATEWAY_SETTINGS,
  helpText,
  settingsOf,
  parseCommandLine,
  readConfigObject,
  readEnvironment,
  type Dialect,
} from './rest.ts';
import { DEFAULT_PEER_PORT, NODE_SETTINGS, RUN_SETTINGS, type RunValues } from './settings.ts';

export { ConfigError } from './config-error.ts';
export {
  DEFAULT_DB_ENGINE,
  DEFAULT_GRPC_PORT,
  DEFAULT_PEER_PORT,
  DEFAULT_POW_QUEUE_SIZE,
  DEV_MIN_POW_SCORE,
} from './settings.ts';

/**
 * The node's settings (the values of RUN_SETTINGS, environment secrets aside), and whether `minPowScore` and `dbEngine`
 * were set explicitly (flag or file): a conflict with the stored network is then reported, and a data folder of the
 * other engine refused, not followed.
 */
export type NodeConfig = Omit<RunValues, 'nodeJwtSecret' | 'jwtSecret'> & {
  minPowScoreExplicit?: boolean;
  dbEngineExplicit?: boolean;
};

export function defaultConfig(): NodeConfig {
  return defaultsOf(RUN_SETTINGS) as NodeConfig;
}

/** The texts of `run`'s errors: `flag --x: expected ..., got "..."`. */
const DIALECT: Dialect = {
  error: ConfigError,
  unknown: (flag, known) => `unknown flag ${flag} (known: ${known.join(', ')})`,
  missing: (flag) => `flag ${flag} needs a value`,
  invalid: (flag, raw, expected) => `flag ${flag}: expected ${expected}, got ${JSON.stringify(raw)}`,
  positional: (arg) => `unexpected argument "${arg}"`,
};

/** `ledger-node run --help`. */
export const RUN_HELP = helpText(
  'usage: ledger-node run [--config FILE] [flags]\n(a config FILE ' +
    'is a JSON object with the camelCase names of the flags; flags win)',
  [
    { heading: 'flags of "run"', settings: NODE_SETTINGS },
    { heading: 'flags of the REST gateway, on "run" and "gateway"', settings: settingsOf('run', GATEWAY_SETTINGS) },
  ],
);

/**
 * The environment secrets of `run`: LEDGER_NODE_JWT_SECRET, and LEDGER_GATEWAY_JWT_SECRET for the REST routes alone.
 */
export function runSecrets(env: Record<string, string | undefined>): Pick<RunValues, 'nodeJwtSecret' | 'jwtSecret'> {
  return readEnvironment(RUN_SETTINGS, env);
}

function assign(config: NodeConfig, values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values)) {
    (config as Record<string, unknown>)[key] =
      key === 'peers' ? [...(config.peers ?? []), ...(value as string[])] : value;
    if (key === 'minPowScore') config.minPowScoreExplicit = true;
    if (key === 'dbEngine') config.dbEngineExplicit = true;
  }
}

/** Reads a JSON config file: an object whose keys are the camelCase setting names. */
export function readConfigFile(path: string, config: NodeConfig): void {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`Cannot read config file ${path}: ${(e as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new ConfigError(`Cannot read config file ${path}: expected a JSON object`);
  assign(config, readConfigObject(json, RUN_SETTINGS, `config file ${path}`, DIALECT));
}

/**
 * Parses `run` arguments (`--flag value` or `--flag=value`, plus `--config FILE`). The config file is applied
 * first, then the flags, whatever their order on the command line.
 */
export function parseRunArgs(argv: readonly string[], base: NodeConfig = defaultConfig()): NodeConfig {
  const config: NodeConfig = { ...base };
  const line = parseCommandLine(argv, RUN_SETTINGS, DIALECT, { config: { type: 'string' } });
  if (line.extras.config !== undefined) readConfigFile(line.extras.config as string, config);
  assign(config, line.values);
  checkShared(config, ConfigError);
  for (const door of ['grpc', 'peer'] as const) {
    if ((config[`${door}TlsCert`] === undefined) !== (config[`${door}TlsKey`] === undefined))
      throw new ConfigError(`--${door}-tls-cert and --${door}-tls-key go together`);
  }
  if (config.genesisKeys !== undefined && config.genesis !== undefined)
    throw new ConfigError(
      '--genesis and --genesis-keys exclude each other: --genesis FILE starts from that genesis or ' +
        "snapshot, --genesis-keys FILE bootstraps from a peer's snapshot checked against its milestone keys",
    );
  if (config.genesisKeys !== undefined && (config.peers?.length ?? 0) === 0)
    throw new ConfigError('--genesis-keys needs --peer: the peers a new node bootstraps from');
  config.peerPort ??= DEFAULT_PEER_PORT;
  return config;
}
