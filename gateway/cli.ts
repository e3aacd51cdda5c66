/**
 * `ledger-node gateway --node HOST:PORT [--rest-port N] [--host H] [--body-limit BYTES]`: a REST gateway alone,
 * against a running node's gRPC port. The JWT secret for protected routes comes from the environment variable
 * LEDGER_GATEWAY_JWT_SECRET (never a flag: flags show up in process lists). Runs until SIGINT or SIGTERM.
 */
import { DEFAULT_REST_PORT, startGateway, type StartGatewayOptions } from './server.ts';
import { LIMIT_FLAGS, limitOptions } from './limit-flags.ts';

export const GATEWAY_USAGE = `usage: ledger-node gateway --node HOST:PORT [--rest-port N] [--host H] [--body-limit BYTES]
                            [--rate-limit RPS [--rate-burst N] [--rate-limit-loopback]] [--max-json-depth N]
  --node        the node's gRPC address (required)
  --rest-port   REST port to listen on (default ${DEFAULT_REST_PORT})
  --host        address to listen on (default 127.0.0.1)
  --body-limit  largest accepted request body in bytes (default 1048576)
  --rate-limit  requests per second per client IP (token bucket; default off); over it: 429 with Retry-After
  --rate-burst  requests a client may make at once (default: the rate rounded up)
  --rate-limit-loopback  also limit loopback clients (exempt by default)
  --max-json-depth  deepest accepted JSON nesting of a submitted block (default 64)
  environment:  LEDGER_GATEWAY_JWT_SECRET  HS256 secret for protected routes (none: protected routes are closed)`;

function port(text: string, flag: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) throw new Error(`invalid ${flag}: "${text}", expected a port number 0-65535`);
  return n;
}

/** Parses the gateway flags; throws an Error naming the bad flag. */
export function parseGatewayArgs(args: string[], env: Record<string, string | undefined> = {}): StartGatewayOptions {
  const values = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const [flag, inline] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    if (flag === '--rate-limit-loopback' && inline === undefined) {
      values.set(flag, 'true');
      continue;
    }
    if (!['--node', '--rest-port', '--host', '--body-limit', ...LIMIT_FLAGS].includes(flag)) throw new Error(`unknown flag "${arg}"`);
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`missing value for ${flag}`);
    values.set(flag, value);
  }
  const nodeAddress = values.get('--node');
  if (!nodeAddress) throw new Error('missing --node HOST:PORT');
  if (!/^.+:\d+$/.test(nodeAddress)) throw new Error(`invalid --node: "${nodeAddress}", expected HOST:PORT`);
  const options: StartGatewayOptions = { nodeAddress, port: port(values.get('--rest-port') ?? String(DEFAULT_REST_PORT), '--rest-port') };
  const host = values.get('--host');
  if (host !== undefined) options.host = host;
  const limit = values.get('--body-limit');
  if (limit !== undefined) {
    if (!/^[1-9]\d*$/.test(limit)) throw new Error(`invalid --body-limit: "${limit}", expected a positive number of bytes`);
    options.bodyLimitBytes = Number(limit);
  }
  Object.assign(options, limitOptions(values));
  const secret = env.LEDGER_GATEWAY_JWT_SECRET;
  if (secret) options.jwtSecret = secret;
  return options;
}

/** The `gateway` command: exit code 0 after a clean shutdown, 2 for bad flags, 1 when it cannot start. */
export async function gatewayCommand(args: string[]): Promise<number> {
  let options: StartGatewayOptions;
  try {
    options = parseGatewayArgs(args, process.env);
  } catch (err) {
    console.error(`${(err as Error).message}\n${GATEWAY_USAGE}`);
    return 2;
  }
  let gateway;
  try {
    gateway = await startGateway(options);
  } catch (err) {
    console.error(`cannot start the gateway: ${(err as Error).message}`);
    return 1;
  }
  console.log(`gateway listening on ${options.host ?? '127.0.0.1'}:${gateway.port}, node ${options.nodeAddress}`);
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
