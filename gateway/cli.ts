/**
 * `ledger-node gateway --node HOST:PORT [--rest-port N] [--host H] [--body-limit BYTES] [--node-transport mux|unary]`:
 * a REST gateway alone, against a running node's gRPC port (over the multiplexed transport by default). The JWT secret for protected routes comes from the environment variable
 * LEDGER_GATEWAY_JWT_SECRET (never a flag: flags show up in process lists). Runs until SIGINT or SIGTERM.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_REST_PORT, startGateway, type StartGatewayOptions } from './server.ts';
import { LIMIT_FLAGS, limitOptions } from './limit-flags.ts';
import { NODE_TRANSPORTS, type NodeTransport } from './node-client.ts';

export const GATEWAY_USAGE = `usage: ledger-node gateway --node HOST:PORT [--rest-port N] [--host H] [--body-limit BYTES]
                            [--rate-limit RPS [--rate-burst N] [--rate-limit-loopback]] [--max-json-depth N]
                            [--node-transport mux|unary] [--node-streams N] [--mqtt-max-... N]
                            [--metrics-port N [--metrics-host H]] [--node-tls-ca FILE]
  --node        the node's gRPC address, its node service door (required)
  --node-tls-ca  PEM certificates (CA, or the node's self-signed certificate) to reach the node's door over TLS
  --node-transport  how calls reach the node: mux (default; many calls as frames over long-lived gRPC streams,
                falling back to unary calls when the node does not serve it) or unary (one gRPC call per request)
  --node-streams  streams the mux spreads calls over (default 1)
  --rest-port   REST port to listen on (default ${DEFAULT_REST_PORT})
  --host        address to listen on (default 127.0.0.1)
  --body-limit  largest accepted request body in bytes (default 1048576)
  --rate-limit  requests per second per client IP (token bucket; default off); over it: 429 with Retry-After
  --rate-burst  requests a client may make at once (default: the rate rounded up)
  --rate-limit-loopback  also limit loopback clients (exempt by default)
  --max-json-depth  deepest accepted JSON nesting of a submitted block (default 64)
  --mqtt-max-connections N  event API (MQTT over WebSocket at /api/mqtt/v1): connections at once (default 10000)
  --mqtt-max-connections-per-ip N  connections from one address, loopback exempt (default 100)
  --mqtt-max-subscriptions N  topics one connection may follow (default 1000)
  --mqtt-max-buffered-bytes N  unsent bytes after which a slow subscriber is cut off (default 4194304)
  --mqtt-max-packet-bytes N  longest MQTT packet a client may send; a longer one closes its connection (default 65536)
  --mqtt-ping-interval S  seconds between WebSocket pings; a connection that leaves one unanswered is closed (default 30)
  --metrics-port  serve Prometheus metrics (REST latency per route and status, event API, process) at
                http://H:N/metrics (default off; 0 = any free port)
  --metrics-host  address of the metrics listener (default 127.0.0.1; needs --metrics-port)
  environment:  LEDGER_GATEWAY_JWT_SECRET  HS256 secret for protected routes (none: protected routes are closed)
                LEDGER_GATEWAY_NODE_TOKEN  the token the node's door asks for when the node has a secret
                (made by "ledger-node tool jwt" on the node), sent on every call`;

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
    if (!['--node', '--rest-port', '--host', '--body-limit', '--node-transport', '--node-streams', '--metrics-port', '--metrics-host', '--node-tls-ca', ...LIMIT_FLAGS].includes(flag)) throw new Error(`unknown flag "${arg}"`);
    const value = inline ?? args[++i];
    if (value === undefined) throw new Error(`missing value for ${flag}`);
    values.set(flag, value);
  }
  const nodeAddress = values.get('--node');
  if (!nodeAddress) throw new Error('missing --node HOST:PORT');
  if (!/^.+:\d+$/.test(nodeAddress)) throw new Error(`invalid --node: "${nodeAddress}", expected HOST:PORT`);
  const options: StartGatewayOptions = { nodeAddress, port: port(values.get('--rest-port') ?? String(DEFAULT_REST_PORT), '--rest-port') };
  const transport = values.get('--node-transport');
  if (transport !== undefined) {
    if (!NODE_TRANSPORTS.includes(transport as NodeTransport)) throw new Error(`invalid --node-transport: "${transport}", expected ${NODE_TRANSPORTS.join(' or ')}`);
    options.nodeTransport = transport as NodeTransport;
  }
  const streams = values.get('--node-streams');
  if (streams !== undefined) {
    if (!/^[1-9]\d?$/.test(streams) || Number(streams) > 64) throw new Error(`invalid --node-streams: "${streams}", expected 1-64`);
    if (options.nodeTransport === 'unary') throw new Error('--node-streams needs --node-transport mux');
    options.mux = { streams: Number(streams) };
  }
  const metricsPort = values.get('--metrics-port');
  if (metricsPort !== undefined) options.metricsPort = port(metricsPort, '--metrics-port');
  const metricsHost = values.get('--metrics-host');
  if (metricsHost !== undefined) {
    if (metricsPort === undefined) throw new Error('--metrics-host needs --metrics-port N');
    options.metricsHost = metricsHost;
  }
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
  const token = env.LEDGER_GATEWAY_NODE_TOKEN;
  const ca = values.get('--node-tls-ca');
  let tlsCa: Buffer | undefined;
  if (ca !== undefined) {
    try {
      tlsCa = readFileSync(ca);
    } catch (e) {
      throw new Error(`invalid --node-tls-ca: cannot read ${ca} (${(e as Error).message})`);
    }
  }
  if (token || tlsCa) options.nodeSecurity = { ...(token ? { token } : {}), ...(tlsCa ? { tlsCa } : {}) };
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
  console.log(`gateway listening on ${options.host ?? '127.0.0.1'}:${gateway.port}, node ${options.nodeAddress} (${options.nodeTransport ?? 'mux'})`);
  if (gateway.metricsPort !== undefined) console.log(`Prometheus metrics on http://${options.metricsHost ?? '127.0.0.1'}:${gateway.metricsPort}/metrics`);
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
