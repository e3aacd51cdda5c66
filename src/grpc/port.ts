/**
 * The node's API as the gateway sees it: one promise-based port, NodePort, whose methods are the NodeService calls of
 * proto/node.proto with the generated message types, `(request, { signal, deadline }) => Promise<answer>`. The method
 * list and the message types come from the generated `NodeServiceService` definition, so nothing is written twice.
 *
 * Behind the port: in `ledger-node run` the service itself (src/node/grpc/port.ts: direct calls, no copying, no
 * metadata); in a standalone gateway a gRPC client, the NodeMux one or grpc-js's unary one (`portOverClient` below).
 * Every failure is one error type, NodeCallError: the gRPC status code, the status text and, when the node described
 * it (the ErrorInfo of src/grpc/status.ts), the stable domain code. The gateway's error middleware maps it to the REST
 * answer (gateway/errors.ts), whatever the transport.
 * The node's events (NodeEvents.Subscribe, proto/events.proto) come through a second port, EventsPort, with the same
 * two sides: the event bus in this process (src/node/grpc/events-port.ts), a gRPC stream in a standalone gateway
 * (gateway/mqtt/node-events.ts).
 * This file imports nothing of src/node or src/core's protocol code (the gateway uses it).
 */
import { Metadata, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import type { EventBatch, SubscribeRequest } from './gen/events.ts';
import { NodeServiceService, type NodeServiceClient } from './gen/node.ts';
import {
  decodeStatusDetails,
  GrpcStatus,
  safeDescription,
  STATUS_DETAILS_KEY,
  type ClientErrorLike,
  type ErrorDescription,
  type ParsedError,
} from './status.ts';

type Definition = typeof NodeServiceService;
/** A NodeService method by its generated (lower camel case) name: 'getBlock', 'submitBlock', ... */
export type NodeMethod = keyof Definition;
export type RequestOf<M extends NodeMethod> = Parameters<Definition[M]['requestSerialize']>[0];
export type AnswerOf<M extends NodeMethod> = ReturnType<Definition[M]['responseDeserialize']>;

/**
 * How a call may end early: `signal` aborts it (the HTTP client went away), `deadline` (ms since the epoch) expires it.
 */
export interface CallOptions {
  signal?: AbortSignal;
  deadline?: number;
  /**
   * The same abort as `signal`, offered as a hook (a route's options offer it, gateway/node-client.ts): `cancel` runs
   * when the caller gives up; the result detaches it. A transport takes it instead of listening to `signal`: making an
   * AbortSignal and a listener costs about 4.5 µs, as much as the client's side of a NodeMux call.
   */
  onAbort?(cancel: () => void): () => void;
}

/** Runs `cancel` when the call's caller gives up (the hook, else the signal); returns the detach. */
export function whenAborted(options: CallOptions, cancel: () => void): () => void {
  if (options.onAbort) return options.onAbort(cancel);
  const signal = options.signal;
  if (signal === undefined) return () => undefined;
  signal.addEventListener('abort', cancel, { once: true });
  return () => signal.removeEventListener('abort', cancel);
}

/** Whether the caller has given up already. */
function abortedAlready(options: CallOptions): boolean {
  return options.onAbort === undefined && options.signal?.aborted === true;
}

/** The node's API: every NodeService call as a promise; failures reject with NodeCallError. */
export type NodePort = {
  readonly [M in NodeMethod]: (request: RequestOf<M>, options?: CallOptions) => Promise<AnswerOf<M>>;
};

/** The proto's name of the events call, as its NodeCallErrors name it. */
export const SUBSCRIBE = 'Subscribe';

/**
 * The node's events as the gateway sees them: NodeEvents.Subscribe as an async iterable of the generated EventBatch
 * messages, from the call on, in order, read at the reader's pace. Its iteration
 *   * ends when the node stops (the stream's status OK);
 *   * throws a NodeCallError (method SUBSCRIBE) when the stream fails: UNAVAILABLE (the node cannot be reached or has
 *     stopped already), UNIMPLEMENTED (a node without the service), RESOURCE_EXHAUSTED (the reader left more batches
 *     unread than the node keeps for it, and was cut off), CANCELLED (`signal` aborted it);
 *   * unsubscribes when the reader leaves it (`return()`, a `break` out of `for await`).
 * The subscription starts when `subscribe` is called, not at the first read; `subscribe` itself never throws.
 */
export interface EventsPort {
  subscribe(request: SubscribeRequest, options?: { signal?: AbortSignal }): AsyncIterable<EventBatch>;
}

/** Every method of the port, in the proto's order. */
export const NODE_METHODS: readonly NodeMethod[] = Object.keys(NodeServiceService) as NodeMethod[];

const RPC_NAMES = new Map<string, string>(
  NODE_METHODS.map((m) => [m, NodeServiceService[m].path.slice(NodeServiceService[m].path.lastIndexOf('/') + 1)]),
);

/** The proto's name of a method ('getInfo' -> 'GetInfo'), as the metrics and the messages name calls. */
export function rpcName(method: NodeMethod): string {
  return RPC_NAMES.get(method)!;
}

/**
 * A failed call to the node, whatever the transport. `detailed`: the node described the failure (the ErrorInfo of
 * status.ts; `code` is then the stable domain code); without it the failure is the transport's or the door's
 * (`code` is the gRPC status name: UNAVAILABLE when the node cannot be reached, DEADLINE_EXCEEDED, CANCELLED, ...).
 */
export class NodeCallError extends Error implements ParsedError {
  readonly method: string;
  readonly grpcCode: GrpcStatus;
  readonly code: string;
  /** The status text as it came (the message of a detailed failure; the transport's words otherwise). */
  readonly details: string;
  readonly detailed: boolean;
  readonly retryAfterSeconds?: number;
  readonly field?: string;
  readonly offset?: number;
  readonly value?: string;

  /** `method`: the proto's name (GetInfo); `info`: the node's description, absent for a bare status. */
  constructor(method: string, grpcCode: GrpcStatus, details: string, info?: ErrorDescription) {
    super(`${method} failed: ${details}`);
    this.name = 'NodeCallError';
    this.method = method;
    this.grpcCode = grpcCode;
    this.details = details;
    this.detailed = info !== undefined;
    this.code = info?.code ?? GrpcStatus[grpcCode] ?? 'UNKNOWN';
    if (info?.retryAfterSeconds !== undefined) this.retryAfterSeconds = info.retryAfterSeconds;
    if (info?.field !== undefined) this.field = info.field;
    if (info?.offset !== undefined) this.offset = info.offset;
    if (info?.value !== undefined) this.value = info.value;
  }

  /** The failure the node describes with `info` (its texts made safe, as a status carries them). */
  static described(method: string, grpcCode: GrpcStatus, info: ErrorDescription): NodeCallError {
    const safe = safeDescription(info);
    return new NodeCallError(method, grpcCode, safe.message, safe);
  }

  /** A grpc-js client's error (a ServiceError): the ErrorInfo of its trailer when present, else the bare status. */
  static fromClientError(method: string, err: ClientErrorLike): NodeCallError {
    const grpcCode = (typeof err.code === 'number' ? err.code : GrpcStatus.UNKNOWN) as GrpcStatus;
    const raw = err.metadata?.get(STATUS_DETAILS_KEY)[0];
    const decoded = raw instanceof Uint8Array ? decodeStatusDetails(raw) : undefined;
    return new NodeCallError(
      method,
      grpcCode,
      decoded?.info.message ?? err.details ?? err.message ?? '',
      decoded?.info,
    );
  }

  /** What the error says, as a ParsedError (a plain object). */
  get description(): ParsedError {
    const out: ParsedError = { code: this.code, message: this.details, grpcCode: this.grpcCode };
    if (this.retryAfterSeconds !== undefined) out.retryAfterSeconds = this.retryAfterSeconds;
    if (this.field !== undefined) out.field = this.field;
    if (this.offset !== undefined) out.offset = this.offset;
    if (this.value !== undefined) out.value = this.value;
    return out;
  }
}

/** The reason an aborted call gives: CANCELLED, as grpc-js reports a call cancelled on the client. */
export function cancelledCall(method: string): NodeCallError {
  return new NodeCallError(method, GrpcStatus.CANCELLED, 'Cancelled on client');
}

type UnaryMethod = (
  request: unknown,
  metadata: Metadata,
  options: { deadline?: number },
  callback: (err: ServiceError | null, res?: unknown) => void,
) => ClientUnaryCall;

/**
 * The port over a client of the generated grpc-js type: grpc-js's own (unary gRPC) or the NodeMux one
 * (gateway/mux-client.ts). The deadline goes with the call, the caller's abort (whenAborted) cancels it.
 */
export function portOverClient(client: NodeServiceClient): NodePort {
  const port: Record<string, unknown> = {};
  for (const method of NODE_METHODS) {
    const name = rpcName(method);
    const fn = client[method] as unknown as UnaryMethod;
    port[method] = (request: unknown, options: CallOptions = {}): Promise<unknown> =>
      new Promise((resolve, reject) => {
        if (abortedAlready(options)) {
          reject(cancelledCall(name));
          return;
        }
        let detach: (() => void) | undefined;
        const deadline = options.deadline;
        const call = fn.call(
          client,
          request,
          new Metadata(),
          deadline === undefined ? {} : { deadline },
          (err, res) => {
            detach?.();
            if (err) reject(NodeCallError.fromClientError(name, err));
            else resolve(res);
          },
        );
        detach = whenAborted(options, () => call.cancel());
      });
  }
  return port as NodePort;
}
