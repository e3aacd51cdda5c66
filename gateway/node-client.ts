/**
 * The gateway's only way to the node: the generated grpc-js NodeService client, wrapped so each call is a promise
 * with a deadline that is cancelled when the HTTP client goes away (a PoW-heavy submit must not keep mining for
 * nobody). Failures reject with NodeCallError, which the error middleware maps to the REST answer.
 */
import { credentials, Metadata, type CallOptions, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import type { Context } from 'koa';
import { NodeServiceClient } from '../src/grpc/gen/node.ts';
import { NodeCallError } from './errors.ts';

export { NodeServiceClient };

/** grpc-js's channelz bookkeeping (call counters and traces per channel and subchannel) costs CPU on every call. */
const CHANNEL_OPTIONS = { 'grpc.enable_channelz': 0 };

/** A plaintext client for `host:port` (the node's gRPC listener). */
export function createNodeClient(address: string): NodeServiceClient {
  return new NodeServiceClient(address, credentials.createInsecure(), CHANNEL_OPTIONS);
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
