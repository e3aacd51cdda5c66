/**
 * The gateway's way to the node is the port of src/grpc/port.ts (NodePort): in `ledger-node run` the node's service
 * itself, in a standalone gateway the port over a client of the generated grpc-js type, grpc-js's own (`unary`: one
 * HTTP/2 stream per call) or the multiplexed transport (`mux`: the calls as frames over long-lived streams,
 * mux-client.ts), the default of `ledger-node gateway`. Each route's call gets a deadline and a signal that aborts it
 * when the HTTP client goes away (`routeCall`). Failures reject with NodeCallError, which the error middleware maps to
 * the REST answer.
 */
import type { Context } from 'koa';
import { NodeServiceClient } from '../src/grpc/gen/node.ts';
import { portOverClient, type CallOptions, type NodePort } from '../src/grpc/port.ts';
import { createMuxNodePort, type MuxClientOptions } from './mux-client.ts';
import { nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from './node-channel.ts';

export { NodeServiceClient };

/** How a gateway reaches a node over the network: a grpc-js unary call per request, or the multiplexed streams. */
export type NodeTransport = 'unary' | 'mux';
export const NODE_TRANSPORTS: readonly NodeTransport[] = ['unary', 'mux'];

/** grpc-js's channelz bookkeeping (call counters and traces per channel and subchannel) costs CPU on every call. */
const CHANNEL_OPTIONS = { 'grpc.enable_channelz': 0 };

/**
 * grpc-js's unary client for `host:port` (the node's service door); plaintext without a token unless `security` says
 * otherwise (node-channel.ts).
 */
export function createNodeClient(address: string, security?: NodeChannelSecurity): NodeServiceClient {
  return new NodeServiceClient(address, nodeCredentials(security), nodeClientOptions(security, CHANNEL_OPTIONS));
}

/** A node reached over the network: the port, and how to close its client. */
export interface NodeConnection {
  port: NodePort;
  close(): void;
}

/** The port to the node at `address`: the mux's (mux-client.ts), or over grpc-js's unary client (portOverClient). */
export function connectNode(
  address: string,
  transport: NodeTransport = 'unary',
  mux: MuxClientOptions = {},
  security?: NodeChannelSecurity,
): NodeConnection {
  if (transport === 'mux') {
    const port = createMuxNodePort(address, security ? { ...mux, security } : mux);
    return { port, close: () => port.close() };
  }
  const client = createNodeClient(address, security);
  return { port: portOverClient(client), close: () => client.close() };
}

/** The options of a route's node call: the route's deadline, and the signal of the HTTP client going away. */
export type RouteCall = (ctx: Context, timeoutMs?: number) => CallOptions;

/** The signal's reason when the HTTP client went away before the answer was written. */
const CLIENT_GONE = 'the HTTP client went away';

/**
 * The listener that aborts unless the answer was written. (Made here and returned: the TypeScript loader gives every
 * function expression bound to a name its name at run time, a property definition per call on this hot path.)
 */
function abortUnlessAnswered(res: Context['res'], controller: AbortController): () => void {
  return () => {
    if (!res.writableEnded) controller.abort(CLIENT_GONE);
  };
}

/** The hook's listener: `cancel` unless the answer was written. */
function cancelUnlessAnswered(res: Context['res'], cancel: () => void): () => void {
  return () => {
    if (!res.writableEnded) cancel();
  };
}

/**
 * A route's call options. The signal is made when first read: the node's port in process reads it only for the calls
 * that have work to stop (SubmitBlock, QueryOutputs), and an AbortSignal costs more than the rest of an in-process
 * read; the network's ports take the abort as a hook (`onAbort`: a listener on the response's 'close', 0.2 µs).
 */
class KoaCall implements CallOptions {
  private controller: AbortController | undefined;

  constructor(
    private readonly res: Context['res'],
    readonly deadline: number,
  ) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      this.res.once('close', abortUnlessAnswered(this.res, this.controller));
    }
    return this.controller.signal;
  }

  onAbort(cancel: () => void): () => void {
    const res = this.res;
    const onClose = cancelUnlessAnswered(res, cancel);
    res.once('close', onClose);
    return () => res.off('close', onClose);
  }
}

/**
 * `call(ctx)`: a deadline `timeoutMs` (or the given one) from now, and a signal aborted when the HTTP client goes away
 * before the answer is written (a PoW-heavy submit must not keep mining for nobody).
 */
export function routeCall(timeoutMs: number): RouteCall {
  return (ctx, ms = timeoutMs) => new KoaCall(ctx.res, Date.now() + ms);
}
