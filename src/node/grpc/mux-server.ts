/**
 * The node's side of the multiplexed transport (proto/mux.proto, docs/decisions.md §24): the NodeMux service, served
 * beside NodeService on the same gRPC server, calls the service's method of each CALL frame through the step every
 * door shares (port.ts callService: a defect logged and answered INTERNAL, every call observed), and answers with what
 * the unary gRPC handlers (handlers.ts) send for the same call:
 *   * the request decoded and the answer encoded by the method's generated message functions (MESSAGES);
 *   * a failure as FAILURE frame with the status code, details and `grpc-status-details-bin` trailer of its
 *     NodeCallError (src/grpc/mux.ts callFailureFrame); an unknown method UNIMPLEMENTED "The server does not
 *     implement the method /ledger.v1.NodeService/X", a method the service lacks UNIMPLEMENTED naming it, a request
 *     that does not decode INTERNAL "Error deserializing request", an answer that does not encode INTERNAL "Error
 *     serializing response", one above the message limit RESOURCE_EXHAUSTED "Sent message larger than max (N vs.
 *     4194304)"; the stream goes on;
 *   * the caller's deadline (`timeout_ms`) ends the call DEADLINE_EXCEEDED "Deadline exceeded"; a CANCEL frame or the
 *     stream's end (the gateway went away) ends it too; either aborts the AbortSignal of a method that takes one
 *     (SubmitBlock's proof of work, QueryOutputs' scan) and a later answer is dropped.
 * Shutdown (`goAway`): each stream gets a GOAWAY frame, later CALL frames are REFUSED (the gateway sends them again on
 * a new stream, which finds the node gone), the calls under way are answered, then the stream ends with status OK.
 *
 * Limits, so that one stream cannot take the node's memory or event loop (docs/decisions.md §24): at most `maxCalls`
 * calls under way per stream (a CALL beyond is answered RESOURCE_EXHAUSTED, not run); every call ends at `maxCallMs`
 * (the node door's unary cap) at the latest, one without a deadline too; a received batch stays bytes, its frames
 * decoded and dispatched one at a time, FRAMES_PER_TURN a turn of the event loop; while more than BACKLOG_BYTES of
 * answers wait, no frame is dispatched (mid-batch too) nor read (the stream is paused: HTTP/2 flow control holds the
 * gateway back), and more than `maxQueuedBytes` received and not dispatched end the stream RESOURCE_EXHAUSTED. No
 * exception leaves a frame: bad metadata fails the call INVALID_ARGUMENT naming the key, anything unexpected INTERNAL
 * (logged once per stream); bytes that do not decode end the stream INTERNAL.
 *
 * Here: the options, serveNodeMux and its handle (shutdown, stats); one stream and its calls (MuxServerStream,
 * MuxServerCall, with FRAMES_PER_TURN and BACKLOG_BYTES) are in mux-server-stream.ts.
 */
import type { Server, ServerDuplexStream, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { MuxBatch } from '../../grpc/gen/mux.ts';
import { EXCHANGE_UNDECODED, MAX_CALLS_IN_FLIGHT, MAX_MESSAGE_BYTES } from '../../grpc/mux.ts';
import { consoleLogger, type Logger } from '../logger.ts';
import type { CallObserver } from './handlers.ts';
import type { ServiceMethods } from './port.ts';
import { MuxServerStream, type StreamLimits } from './mux-server-stream.ts';

/**
 * The longest a multiplexed call runs: NODE_DOOR_MAX_CALL_MS of src/node/doors.ts
 * (test/grpc/mux-limits.test.ts keeps them equal).
 */
export const MUX_MAX_CALL_MS = 120_000;

/**
 * The limits of the NodeMux streams, by default the node's: `maxCalls` under way per stream (MAX_CALLS_IN_FLIGHT),
 * `maxCallMs` the longest call (MUX_MAX_CALL_MS), `maxQueuedBytes` received and not dispatched (two messages'
 * worth); `logger` for defects and unexpected failures (the console); `observe` told about every call the service
 * answered (the gRPC server's metrics observer).
 */
export interface NodeMuxOptions {
  maxCalls?: number;
  maxCallMs?: number;
  maxQueuedBytes?: number;
  logger?: Logger;
  observe?: CallObserver;
}

/** The NodeMux service on a gRPC server: its streams, and the shutdown step that ends them. */
export interface NodeMuxHandle {
  /** GOAWAY on every stream: no new calls; each stream ends once its calls under way are answered. */
  goAway(): void;
  /** What the open streams hold now, in all: calls under way, bytes received and not dispatched, answers waiting. */
  stats(): { streams: number; calls: number; queuedBytes: number; backlogBytes: number };
}

/** Adds NodeMux to `server`, calling `service` (the node's NodeServiceImpl, served by the same server, or a test's). */
export function serveNodeMux(
  server: Server,
  service: Partial<ServiceMethods>,
  options: NodeMuxOptions = {},
): NodeMuxHandle {
  const {
    maxCalls = MAX_CALLS_IN_FLIGHT,
    maxCallMs = MUX_MAX_CALL_MS,
    maxQueuedBytes = 2 * MAX_MESSAGE_BYTES,
    logger = consoleLogger,
    observe,
  } = options;
  const limits: StreamLimits = {
    maxCalls,
    maxCallMs,
    maxQueuedBytes,
    logger,
    call: { logger, ...(observe ? { observe } : {}) },
  };
  const streams = new Set<MuxServerStream>();
  let closing = false;
  const implementation: UntypedServiceImplementation = {
    exchange: (stream: ServerDuplexStream<Buffer, MuxBatch>) => {
      const s = new MuxServerStream(stream, service, streams, limits);
      if (closing) s.goAway();
    },
  };
  server.addService({ exchange: EXCHANGE_UNDECODED }, implementation);
  return {
    goAway() {
      closing = true;
      for (const s of [...streams]) s.goAway();
    },
    stats() {
      const out = { streams: streams.size, calls: 0, queuedBytes: 0, backlogBytes: 0 };
      for (const s of streams) s.count(out);
      return out;
    },
  };
}
