/**
 * The in-process transport of the NodeService: an object of the generated client type (`NodeServiceClient`) whose
 * unary methods dispatch straight to the service's handlers (`nodeServiceHandlers`, or any implementation of the
 * generated `NodeServiceServer`) in this process: no HTTP/2 framing, no protobuf encoding, as grpc-gateway's
 * in-process registration does for Go services. `ledger-node run` serves its REST gateway over it (node.ts);
 * `ledger-node gateway --node HOST:PORT` keeps real gRPC (the multiplexed transport of mux-server.ts, or unary calls),
 * and the gateway code is the same for all: it only ever receives an object of the client type. The client call and
 * the server call objects, the handler's outcome as a status and the shared deadline timer are grpc-js's behaviour
 * written once for this transport and the mux (src/grpc/client-call.ts, server-call.ts).
 *
 * What the caller sees is what a grpc-js client of the same handlers sees (test/node/in-process.test.ts runs
 * every path over both and compares):
 *   * an answer is the message as the generated `decode` would build it: every field present with its default
 *     (the generated `fromPartial`), fresh objects and arrays, and every bytes field a copy (a Buffer, as decode gives
 *     views of the received Buffer). Nothing the caller does to an answer can reach the service's state or caches
 *     (which bytes alias them, block caches, tip pools, protocol parameters, is the service's business and changes);
 *     strings, numbers and bigints are immutable and are shared, which makes the copy cheap: for a block answer (one
 *     32-byte ID and, for the raw view, the block's bytes; the JSON text is never copied) 0.4-0.5 µs, where encoding
 *     and decoding it would take 3-4 µs;
 *   * a failure is a ServiceError with grpc-js's message `<code> <NAME>: <details>`, its code and details, and as
 *     metadata the trailers a trailers-only HTTP/2 answer carries: `content-type`, a copy of the handler's trailer
 *     metadata (the `grpc-status-details-bin` of src/grpc/status.ts), `date`. As in grpc-js's server: a handler that
 *     throws is UNKNOWN "Unknown error", a missing handler UNIMPLEMENTED, an answer that is not a message INTERNAL
 *     "Error serializing response", an error with code OK UNIMPLEMENTED "No message received";
 *   * the deadline (`CallOptions.deadline`) ends the call with DEADLINE_EXCEEDED, `cancel()` with CANCELLED
 *     "Cancelled on client", both without metadata; either way the server call turns `cancelled` and emits
 *     'cancelled' on the next tick (SubmitBlock aborts its proof of work) and a later answer of the handler is dropped;
 *     a deadline already passed fails on the next tick without reaching the handler;
 *   * callbacks never run inside the method call, as over the network; the client call emits 'metadata' (on success)
 *     and 'status' like grpc-js's ClientUnaryCall;
 *   * after the server's `shutdown()` calls fail with UNAVAILABLE without details (what a client of a stopped node
 *     sees: the gateway answers 503 "node unreachable"); calls under way finish (grpc-js's tryShutdown). After the
 *     client's `close()` its methods throw "Channel has been shut down".
 * Requests are normalized the same way (fromPartial: 0.2 µs, where encoding and decoding them would cost 1-2 µs) but
 * their bytes are not copied: the gateway builds a fresh request for each call and never touches it again, and the
 * service must not write into a request anyway (over gRPC it receives views of the received buffer too). So a request
 * missing a field arrives with the field's default, where grpc-js would fail it on the client ("Request message
 * serialization failure"); the gateway test suite runs over real gRPC too and would catch a gateway sending one. Alike,
 * an answer missing a scalar field gets its default, where ts-proto's encoder would fail or write nonsense (the
 * node's answers are complete, typed messages).
 * Left out, as nothing here uses them: the 4 MiB message limits (the node's answers stay far below), interceptors,
 * compression, grpc-js's user-agent in the server call's metadata (it holds a copy of the caller's metadata), and the
 * 'cancelled' event grpc-js also emits after a call was answered (nothing is left to abort then).
 */
import { Metadata, status as Status, type ClientUnaryCall, type Deadline, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { DeadlineTimer, relativeTimeout, trailersOnly, unaryArguments, UnaryClientCall, type UnaryCallback } from '../../grpc/client-call.ts';
import { NodeServiceService, type NodeServiceClient, type NodeServiceServer } from '../../grpc/gen/node.ts';
import { detachResponse, MESSAGES, type NodeServiceMethod, type Normalizer } from './in-process-messages.ts';
import { DispatchedServerCall, errorStatus, invokeHandler, type UnaryHandler } from './server-call.ts';

export type { NodeServiceMethod } from './in-process-messages.ts';

/** The handlers an in-process server dispatches to: the node's (`nodeServiceHandlers`) or a test's. */
export type NodeServiceHandlers = Partial<NodeServiceServer> | UntypedServiceImplementation;

/** One timer for the deadlines of all in-process calls (a timer per call cost more than the rest of the transport). */
const deadlines = new DeadlineTimer<UnaryClientCall>();

/** The client side of one call: what the method returns (grpc-js's ClientUnaryCall) and the call's state. */
class InProcessCall extends UnaryClientCall {
  private dispatching = false;
  private server: DispatchedServerCall<unknown> | undefined;

  constructor(
    private readonly method: NodeServiceMethod,
    callback: UnaryCallback,
    started: number,
  ) {
    super(callback, started, deadlines);
  }

  getPeer(): string {
    return 'in-process';
  }

  protected clientEnded(): void {
    this.server?.cancel();
  }

  /** Runs `handler` for the call (the caller has returned from the method before any callback runs). */
  dispatch(handler: UnaryHandler | undefined, self: object, request: unknown, metadata: Metadata, deadline: Deadline, timeout: number): void {
    if (timeout <= 0) {
      this.failLater({ code: Status.DEADLINE_EXCEEDED, details: this.deadlineDetails(), metadata: new Metadata() });
      return;
    }
    if (handler === undefined) {
      this.failLater({ code: Status.UNIMPLEMENTED, details: `The server does not implement the method ${this.method}`, metadata: trailersOnly(undefined) });
      return;
    }
    this.expireIn(timeout);
    const server = new DispatchedServerCall(request, metadata, deadline, NodeServiceService[this.method].path, 'in-process', 'in-process');
    this.server = server;
    this.dispatching = true;
    invokeHandler(handler, self, server, this.responder());
    this.dispatching = false;
  }

  /**
   * The handler's callback. (Made here and returned: the TypeScript loader gives every function expression bound to a
   * name its name at run time, a property definition per call.)
   */
  private responder(): (error: unknown, value?: unknown, trailer?: Metadata) => void {
    return (error, value, trailer) => this.respond(error, value, trailer);
  }

  /** An answer given inside the handler call waits for the next tick: the caller has not got its call object yet. */
  private respond(error: unknown, value?: unknown, trailer?: Metadata): void {
    if (this.dispatching) process.nextTick(() => this.answer(error, value, trailer));
    else this.answer(error, value, trailer);
  }

  /** The handler's answer; dropped when the call already ended. */
  private answer(error: unknown, value: unknown, trailer: Metadata | undefined): void {
    if (this.ended) return;
    if (error) {
      this.fail(errorStatus(error, trailer));
      return;
    }
    let message: unknown;
    try {
      message = detachResponse(this.method, value);
    } catch {
      this.fail({ code: Status.INTERNAL, details: 'Error serializing response', metadata: trailersOnly(undefined) });
      return;
    }
    this.succeed(message, trailer);
  }
}

/**
 * Serves `handlers` to clients in this process. The handlers are called with `this` = `handlers`, like grpc-js's
 * Server binds them.
 */
export class InProcessNodeServer {
  private stopped = false;

  constructor(private readonly handlers: NodeServiceHandlers) {}

  /** Later calls fail UNAVAILABLE (the node is gone); calls under way finish. */
  shutdown(): void {
    this.stopped = true;
  }

  /** A client of the generated client type; `close()` ends only this client. */
  createClient(): NodeServiceClient {
    let closed = false;
    const client: Record<string, unknown> = {
      close: () => {
        closed = true;
      },
      getChannel: () => {
        throw new Error('the in-process NodeService client has no channel');
      },
      waitForReady: (_deadline: Deadline, callback: (error?: Error) => void) => {
        process.nextTick(() => callback(closed ? new Error('The client has been closed.') : undefined));
      },
    };
    for (const method of Object.keys(NodeServiceService) as NodeServiceMethod[]) {
      const handler = this.handlers[method] as UnaryHandler | undefined;
      const requestType = MESSAGES[method].request as Normalizer;
      client[method] = (request: unknown, a?: unknown, b?: unknown, c?: unknown): ClientUnaryCall => {
        if (closed) throw new Error('Channel has been shut down');
        const { metadata, options, callback } = unaryArguments(a, b, c);
        const deadline = options.deadline ?? Infinity;
        const call = new InProcessCall(method, callback, Date.now());
        if (this.stopped) {
          call.failLater({ code: Status.UNAVAILABLE, details: 'No connection established. Last error: the in-process NodeService is shut down', metadata: new Metadata() });
          return call;
        }
        let normalized: unknown;
        try {
          normalized = requestType.fromPartial(request);
        } catch (e) {
          call.failLater({ code: Status.INTERNAL, details: `Request message serialization failure: ${(e as Error).message}`, metadata: new Metadata() });
          return call;
        }
        call.dispatch(handler, this.handlers, normalized, metadata, deadline, relativeTimeout(deadline));
        return call;
      };
    }
    return client as unknown as NodeServiceClient;
  }
}
