/**
 * The node's three doors (docs/decisions.md §29), each a listener of its own with its own address and guard:
 *
 *   REST and events  `--rest-host/--rest-port`   the gateway app: public and protected routes (JWT), rate limits
 *   node service     `--grpc-host/--grpc-port`   NodeService, NodeMux, NodeEvents for standalone gateways and
 *                                                tools; with LEDGER_NODE_JWT_SECRET every call needs a bearer token
 *                                                (grpc/guards.ts), and without one it stays on loopback
 *   peers            `--peer-host/--peer-port`   the PeerService only; peers prove their identity keys in the
 *                                                handshake (peering/handshake.ts)
 *
 * Each gRPC door has its own limits (message size, concurrent streams per connection, keepalive, the longest unary
 * call), and optional TLS from PEM files. This file holds the policy (what may bind where), the limits, the TLS
 * material and the peer door's server; node.ts starts the doors.
 */
import { credentials, Server, ServerCredentials, type ChannelCredentials, type ChannelOptions } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { signJwtHs256 } from '../grpc/jwt.ts';
import { MAX_MESSAGE_BYTES } from '../grpc/mux.ts';
import { safeStatusInterceptor } from '../grpc/status.ts';
import type { ComposedNode } from './compose.ts';
import { ConfigError, type NodeConfig } from './config.ts';
import { bearerGuard, deadlineCap, TokenCheck } from './grpc/guards.ts';
import type { CallObserver } from './grpc/handlers.ts';
import { bindServer, startGrpcServer, type ExtraService, type GrpcServerHandle } from './grpc/server.ts';
import type { Logger } from './logger.ts';
import { sourceAddressOf } from './peering/dial-from.ts';
import { dialPeer, MAX_PEER_MESSAGE, type PeerLink } from './peering/link.ts';

/** The longest unary call the node service door serves (the REST gateway's submit timeout: PoW may take that long). */
export const NODE_DOOR_MAX_CALL_MS = 120_000;

/**
 * The node service door's server options: 4 MiB messages (a block is at most 32 KiB; the mux batches calls), at most
 * 1000 streams at once per connection (a gateway's mux needs one, unary calls one each), keepalive pings every 60 s
 * (a dead gateway's connection is found within 80 s), connections without calls closed after 15 minutes.
 */
export const NODE_DOOR_OPTIONS: ChannelOptions = {
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_concurrent_streams': 1000,
  'grpc.keepalive_time_ms': 60_000,
  'grpc.keepalive_timeout_ms': 20_000,
  'grpc.max_connection_idle_ms': 15 * 60_000,
  'grpc.enable_channelz': 0,
};

/**
 * The peer door's: 64 KiB messages (a block is at most 32 KiB), 4 streams per connection (a peer needs one),
 * keepalive as on the dialing side (peering/link.ts DIAL_OPTIONS): a PING 10 s after the last one was answered, the
 * connection dropped when one goes unanswered for 5 s, so the connection under a dead link is gone within 15 s. The
 * link itself is closed earlier, when the peer layer hears nothing for its link timeout (peering/liveness.ts). Per
 * peer, the peer layer bounds the message rate, the handshake time and inbound streams in all (peering/context.ts).
 */
export const PEER_DOOR_OPTIONS: ChannelOptions = {
  'grpc.max_receive_message_length': MAX_PEER_MESSAGE,
  'grpc.max_send_message_length': MAX_PEER_MESSAGE,
  'grpc.max_concurrent_streams': 4,
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.enable_channelz': 0,
};

/** Whether `host` binds to loopback only: `localhost`, 127.0.0.0/8, ::1 (and its IPv4-mapped form). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** Refuses a node service door beyond loopback without a secret: anyone could submit blocks and read everything. */
export function checkDoorPolicy(config: NodeConfig, nodeJwtSecret: string | undefined): void {
  if (nodeJwtSecret || isLoopbackHost(config.grpcHost)) return;
  throw new ConfigError(
    `--grpc-host ${config.grpcHost} would open the node service door (block submission, every read, the peers ` +
      'API) beyond loopback without a guard: set LEDGER_NODE_JWT_SECRET in the environment of "ledger-node run" ' +
      'so that every call must carry a token ("ledger-node tool jwt"), or keep --grpc-host on 127.0.0.1. Peers ' +
      'use the peer door (--peer-host, --peer-port) instead',
  );
}

function pem(file: string, flag: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new ConfigError(`${flag} ${file}: cannot read it (${(e as Error).message})`);
  }
}

/** TLS from a PEM certificate chain and key (both or neither), else plaintext. */
export function doorCredentials(
  cert: string | undefined,
  key: string | undefined,
  door: 'grpc' | 'peer',
): ServerCredentials {
  if (cert === undefined || key === undefined) return ServerCredentials.createInsecure();
  return ServerCredentials.createSsl(
    null,
    [{ cert_chain: pem(cert, `--${door}-tls-cert`), private_key: pem(key, `--${door}-tls-key`) }],
    false,
  );
}

/**
 * How this node dials peers: over TLS checked against `--peer-tls-ca`, else plaintext; from the peer door's address
 * unless it is a wildcard or a host name (peering/dial-from.ts). No `dial` when neither applies (the default dial).
 */
export function peerDialer(config: NodeConfig): { dial?: (address: string) => PeerLink } {
  const tls =
    config.peerTlsCa === undefined ? undefined : credentials.createSsl(pem(config.peerTlsCa, '--peer-tls-ca'));
  const from = sourceAddressOf(config.peerHost);
  if (tls === undefined && from === undefined) return {};
  const channel: ChannelCredentials = tls ?? credentials.createInsecure();
  return { dial: (address) => dialPeer(address, channel, from) };
}

/** A bound door (node/grpc/server.ts bindServer). */
export type DoorHandle = GrpcServerHandle;

/** The peer door: a server of its own with the PeerService alone (a NodeService call there is UNIMPLEMENTED). */
export async function startPeerDoor(
  peerService: ExtraService,
  options: { host: string; port: number; credentials: ServerCredentials },
): Promise<DoorHandle> {
  const server = new Server({ ...PEER_DOOR_OPTIONS, interceptors: [safeStatusInterceptor] });
  server.addService(peerService.definition, peerService.implementation);
  return bindServer(server, options.host, options.port, options.credentials);
}

/** The two gRPC doors of a running node. */
export interface GrpcDoors {
  readonly grpcPort: number;
  readonly peerPort: number;
  /** Undefined without a secret: what the node's own REST gateway presents when it calls its service door. */
  readonly selfToken: string | undefined;
  /** The service door's certificate, for the node's own client of it (TLS on that door). */
  readonly selfTlsCa: Buffer | undefined;
  close(): Promise<void>;
}

/** Starts the node service door (guarded, limited) and the peer door; logs where each listens. */
export async function startGrpcDoors(
  parts: ComposedNode,
  config: NodeConfig,
  options: { logger: Logger; nodeJwtSecret?: string; calls?: CallObserver },
): Promise<GrpcDoors> {
  const { logger, nodeJwtSecret: secret } = options;
  const interceptors = [...(secret ? [bearerGuard(new TokenCheck(secret))] : []), deadlineCap(NODE_DOOR_MAX_CALL_MS)];
  const tls = config.grpcTlsCert !== undefined;
  const grpc = await startGrpcServer(parts.service, {
    host: config.grpcHost,
    port: config.grpcPort,
    logger,
    services: [parts.eventsService],
    ...(options.calls ? { calls: options.calls } : {}),
    interceptors,
    credentials: doorCredentials(config.grpcTlsCert, config.grpcTlsKey, 'grpc'),
    serverOptions: NODE_DOOR_OPTIONS,
  });
  let peer: DoorHandle;
  try {
    const creds = doorCredentials(config.peerTlsCert, config.peerTlsKey, 'peer');
    peer = await startPeerDoor(parts.peerService, {
      host: config.peerHost,
      port: config.peerPort ?? 0,
      credentials: creds,
    });
  } catch (e) {
    await grpc.close();
    throw e;
  }
  const guard = secret ? 'a bearer token required on every call' : 'no token required (loopback)';
  logger.info(`gRPC NodeService listening on ${config.grpcHost}:${grpc.port} (${guard}${tls ? ', TLS' : ''})`);
  const identity = `0x${Buffer.from(parts.peering.identity.publicKey).toString('hex')}`;
  logger.info(
    `peer door listening on ` +
      `${config.peerHost}:${peer.port}${config.peerTlsCert !== undefined ? ' (TLS)' : ''}, identity ${identity}`,
  );
  return {
    grpcPort: grpc.port,
    peerPort: peer.port,
    selfToken: secret
      ? signJwtHs256({ sub: 'ledger-node rest', iat: Math.floor(Date.now() / 1000) }, secret)
      : undefined,
    selfTlsCa: tls ? readFileSync(config.grpcTlsCert!) : undefined,
    close: async () => {
      await peer.close();
      await grpc.close();
    },
  };
}
