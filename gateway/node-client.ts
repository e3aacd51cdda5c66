/**
 * The gateway's only way to the node: an object of the generated grpc-js NodeService client type, wrapped so each
 * call is a promise with a deadline that is cancelled when the HTTP client goes away (a PoW-heavy submit must not keep
 * mining for nobody). Failures reject with NodeCallError, which the error middleware maps to the REST answer.
 * Over the network the client is grpc-js's own (`unary`: one HTTP/2 stream per call) or the multiplexed transport
 * (`mux`: the calls as frames over long-lived streams, mux-client.ts), the default of `ledger-node gateway`.
 */
import { Metadata, type CallOptions, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import type { Context } from 'koa';
import { NodeServiceClient } from '../src/grpc/gen/node.ts';
import { NodeCallError } from './errors.ts';
import { createMuxNodeClient, type MuxClientOptions } from './mux-client.ts';
import { nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from './node-channel.ts';

export { NodeServiceClient };

/** How a gateway reaches a node over the network: a grpc-js unary call per request, or the multiplexed streams. */
export type NodeTransport = 'unary' | 'mux';
export const NODE_TRANSPORTS: readonly NodeTransport[] = ['unary', 'mux'];

/** grpc-js's channelz bookkeeping (call counters and traces per channel and subchannel) costs CPU on every call. */
const CHANNEL_OPTIONS = { 'grpc.enable_channelz': 0 };

/**
 * A client for `host:port` (the node's service door), plain unary gRPC unless `transport` is 'mux'; plaintext without
 * a token unless `security` says otherwise (node-channel.ts).
 */
export function createNodeClient(address: string, transport: NodeTransport = 'unary', mux: MuxClientOptions = {}, security?: NodeChannelSecurity): NodeServiceClient {
  if (transport === 'mux') return createMuxNodeClient(address, security ? { ...mux, security } : mux);
  return new NodeServiceClient(address, nodeCredentials(security), nodeClientOptions(security, CHANNEL_OPTIONS));
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<CallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** Anything that can end a call early: the HTTP request's `close` while the answer is not yet sent. */
export interface CallAbort {
  onAbort(cancel: () => void): () => void;
}

/**
 * The listener that cancels unless the answer was written. (Made here and returned: the TypeScript loader gives every
 * function expression bound to a name its name at run time, a property definition per call on this hot path.)
 */
function cancelUnlessAnswered(res: Context['res'], cancel: () => void): () => void {
  return () => {
    if (!res.writableEnded) cancel();
  };
}

/** Cancels the node call when the HTTP client disconnects before the answer is written. */
export function abortOn(ctx: Context): CallAbort {
  return {
    onAbort(cancel) {
      const res = ctx.res;
      const onClose = cancelUnlessAnswered(res, cancel);
      res.once('close', onClose);
      return () => res.off('close', onClose);
    },
  };
}

/** Calls `method` of `client` with a deadline; rejects with NodeCallError. */
export function callNode<Req, Res>(
  client: NodeServiceClient,
  name: string,
  method: UnaryMethod<Req, Res>,
  request: Req,
  timeoutMs: number,
  abort?: CallAbort,
): Promise<Res> {
  return new Promise<Res>((resolve, reject) => {
    let detach: (() => void) | undefined;
    const call = method.call(client, request, new Metadata(), { deadline: Date.now() + timeoutMs }, (err, res) => {
      detach?.();
      if (err) reject(new NodeCallError(name, err));
      else resolve(res);
    });
    if (abort) detach = abort.onAbort(() => call.cancel());
  });
}
