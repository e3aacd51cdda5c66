/**
 * The node's own rejections (not found, not synced, no tips, PoW queue full, ...). The protocol-level rejections are
 * the core's ProtocolErrors. Both are domain errors: src/node/grpc/errors.ts is the one place that maps them onto a
 * gRPC status, and the gateway maps that status onto HTTP.
 */

/** Node-level error codes. */
export const NODE_ERROR_CODES = [
  'INVALID_REQUEST', // malformed request: wrong ID length, unsupported view, empty body
  'NOT_FOUND',
  'PRUNED', // existed, but below the pruning index (the message names it)
  'FORBIDDEN',
  'NODE_NOT_SYNCED',
  'UNAVAILABLE', // a part of the node this network does not have (e.g. no v3 part in the genesis)
  'NO_TIPS',
  'POW_UNAVAILABLE', // message must contain POW_UNAVAILABLE_PHRASE
  'POW_QUEUE_FULL', // with retryAfterSeconds
  'TOO_MANY_REQUESTS', // one client has too many requests waiting (the faucet), with retryAfterSeconds
  'INTERNAL',
] as const;
export type NodeErrorCode = (typeof NODE_ERROR_CODES)[number];

export class NodeError extends Error {
  readonly code: NodeErrorCode;
  readonly retryAfterSeconds?: number;

  constructor(code: NodeErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'NodeError';
    this.code = code;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** The phrase the Rust SDK string-matches to fall back to local PoW (docs/protocol.md, client behaviour). */
export const POW_UNAVAILABLE_PHRASE = 'proof of work is not available on this node';
