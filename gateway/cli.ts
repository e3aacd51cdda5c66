/**
 * `ledger-node gateway --node HOST:PORT [flags]`: a REST gateway alone, against a running node's gRPC port (over the
 * multiplexed transport by default). Its flags, `--help` and secrets (LEDGER_GATEWAY_JWT_SECRET, never a flag: flags
 * show up in process lists) come from the declaration in settings/gateway.ts. Runs until SIGINT or SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { startGateway, type StartGatewayOptions } from './server.ts';
import { accessOptions, checkShared, GATEWAY_SETTINGS, limitOptions, type GatewayValues } from './settings/gateway.ts';
import { defaultsOf, helpText, parseCommandLine, readEnvironment, type Dialect } from './settings/kit.ts';

/** `ledger-node gateway --help`, from the declaration of its settings (settings/gateway.ts). */
export const GATEWAY_USAGE = helpText('usage: ledger-node gateway --node HOST:PORT [flags]', [
  { heading: 'flags of "gateway"', settings: GATEWAY_SETTINGS },
]);

/** The gateway's error texts: `invalid --flag: "value", expected ...`. */
const DIALECT: Dialect = {
  error: Error,
  unknown: (flag) => `unknown flag "${flag}"`,
  missing: (flag) => `missing value for ${flag}`,
  invalid: (flag, raw, expected) => `invalid ${flag}: ${JSON.stringify(raw)}, expected ${expected}`,
  positional: (arg) => `unknown flag "${arg}"`,
};

/** Parses the gateway flags (and its secrets from `env`); throws an Error naming the bad flag. */
export function parseGatewayArgs(args: string[], env: Record<string, string | undefined> = {}): StartGatewayOptions {
  const line = parseCommandLine(args, GATEWAY_SETTINGS, DIALECT);
  const v = {
    ...defaultsOf(GATEWAY_SETTINGS),
    ...line.values,
    ...readEnvironment(GATEWAY_SETTINGS, env),
  } as GatewayValues;
  if (v.node === undefined) throw new Error('missing --node HOST:PORT');
  checkShared(v, Error);
  const options: StartGatewayOptions = { nodeAddress: v.node, port: v.restPort! };
  if (v.nodeTransport !== undefined) options.nodeTransport = v.nodeTransport;
  if (v.nodeStreams !== undefined) {
    if (options.nodeTransport === 'unary') throw new Error('--node-streams needs --node-transport mux');
    options.mux = { streams: v.nodeStreams };
  }
  if (v.metricsPort !== undefined) options.metricsPort = v.metricsPort;
  if (v.metricsHost !== undefined) options.metricsHost = v.metricsHost;
  if (v.host !== undefined) options.host = v.host;
  if (v.bodyLimit !== undefined) options.bodyLimitBytes = v.bodyLimit;
  Object.assign(options, limitOptions(v), accessOptions(v));
  if (v.jwtSecret) options.jwtSecret = v.jwtSecret;
  let tlsCa: Buffer | undefined;
  if (v.nodeTlsCa !== undefined) {
    try {
      tlsCa = readFileSync(v.nodeTlsCa);
    } catch (e) {
      throw new Error(`invalid --node-tls-ca: cannot read ${v.nodeTlsCa} (${(e as Error).message})`);
    }
  }
  if (v.nodeToken || tlsCa)
    options.nodeSecurity = { ...(v.nodeToken ? { token: v.nodeToken } : {}), ...(tlsCa ? { tlsCa } : {}) };
  return options;
}

/** The `gateway` command: exit code 0 after a clean shutdown, 2 for bad flags, 1 when it cannot start. */
export async function gatewayCommand(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(GATEWAY_USAGE);
    return 0;
  }
  let options: StartGatewayOptions;
  try {
    options = parseGatewayArgs(args, process.env);
  } catch (err) {
    console.error(`${(err as Error).message}\n${GATEWAY_USAGE}`);
    return 2;
  }
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  try {
    gateway = await startGateway(options);
  } catch (err) {
    console.error(`cannot start the gateway: ${(err as Error).message}`);
    return 1;
  }
  console.log(
    `gateway listening on ${options.host ?? '127.0.0.1'}:${gateway.port}, ` +
      `node ${options.nodeAddress} (${options.nodeTransport ?? 'mux'})`,
  );
  if (gateway.metricsPort !== undefined)
    console.log(`Prometheus metrics on http://${options.metricsHost ?? '127.0.0.1'}:${gateway.metricsPort}/metrics`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await gateway.close();
  return 0;
}
