/**
 * How domain errors travel over gRPC, shared by the node's service (build) and the REST gateway (parse).
 *
 * A failed call carries:
 *   * the gRPC status code, chosen from the domain code (every core ProtocolError code -> INVALID_ARGUMENT; node
 *     codes by the table below);
 *   * the human message as the status `details` text;
 *   * a `ledger.v1.Status` (wire-identical to google.rpc.Status) in the standard `grpc-status-details-bin` trailer,
 *     whose `details` hold one `ledger.v1.ErrorInfo`: the stable `code`, the message, `retryAfterSeconds`, and the
 *     field / offset / value of a ProtocolError.
 * The gateway turns the status code into the HTTP status (INVALID_ARGUMENT 400, NOT_FOUND 404, PERMISSION_DENIED and
 * UNAUTHENTICATED 403, UNAVAILABLE 503, RESOURCE_EXHAUSTED 503 + Retry-After, everything else 500) and the message
 * into the REST error body (`{"error":{"code":<status>,"message":"<prefix>: <message>"}}`, DECISIONS.md).
 * This file imports nothing from src/core, so the gateway can use it without pulling in any protocol code; the
 * core's ProtocolError is recognised by its shape (name, string code, optional field/offset/value).
 */
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { ErrorInfo, Status } from './gen/errors.ts';
import { Any } from './gen/google/protobuf/any.ts';

export { GrpcStatus };

/** The standard trailer for rich error details. */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';
export const ERROR_INFO_TYPE_URL = 'type.googleapis.com/ledger.v1.ErrorInfo';

/** Node-level error codes (the core's ProtocolError codes are the protocol-level ones) and their gRPC status. */
export const NODE_ERROR_STATUS = {
  INVALID_REQUEST: GrpcStatus.INVALID_ARGUMENT, // malformed request: wrong ID length, unsupported view, empty body
  NOT_FOUND: GrpcStatus.NOT_FOUND,
  PRUNED: GrpcStatus.NOT_FOUND, // existed, but below the pruning index (the message names it)
  FORBIDDEN: GrpcStatus.PERMISSION_DENIED,
  NODE_NOT_SYNCED: GrpcStatus.UNAVAILABLE,
  NO_TIPS: GrpcStatus.UNAVAILABLE,
  POW_UNAVAILABLE: GrpcStatus.UNAVAILABLE, // message must contain "proof of work is not available on this node"
  POW_QUEUE_FULL: GrpcStatus.RESOURCE_EXHAUSTED, // with retryAfterSeconds
  INTERNAL: GrpcStatus.INTERNAL,
} as const;
export type NodeErrorCode = keyof typeof NODE_ERROR_STATUS;

/** A node-level rejection (not found, not synced, queue full, ...); the protocol-level ones are ProtocolErrors. */
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

/** What an error says, on either side of the wire. */
export interface ErrorDescription {
  /** Stable domain code ("NOT_FOUND", "INVALID_HEX", ...). */
  code: string;
  message: string;
  retryAfterSeconds?: number;
  field?: string;
  offset?: number;
  value?: string;
}

/** The parse result on the client side: the description plus the gRPC code and the HTTP status it stands for. */
export interface ParsedError extends ErrorDescription {
  grpcCode: GrpcStatus;
  httpStatus: number;
}

const HTTP_STATUS: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.OK]: 200,
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.UNAUTHENTICATED]: 403,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 503,
  [GrpcStatus.INTERNAL]: 500,
};

/** The HTTP status of the REST answer for a gRPC status code (500 for anything not listed). */
export function httpStatusOf(code: GrpcStatus): number {
  return HTTP_STATUS[code] ?? 500;
}

/** The gRPC status code for a domain code: core ProtocolError codes are all INVALID_ARGUMENT. */
export function grpcCodeOf(code: string): GrpcStatus {
  return (NODE_ERROR_STATUS as Record<string, GrpcStatus>)[code] ?? GrpcStatus.INVALID_ARGUMENT;
}

/** Serializes the `grpc-status-details-bin` value. */
export function encodeStatusDetails(grpcCode: GrpcStatus, info: ErrorDescription): Uint8Array {
  const errorInfo = ErrorInfo.encode(ErrorInfo.fromPartial(info)).finish();
  return Status.encode({ code: grpcCode, message: info.message, details: [{ typeUrl: ERROR_INFO_TYPE_URL, value: errorInfo }] }).finish();
}

/**
 * Parses a `grpc-status-details-bin` value. Returns undefined when the bytes are not a Status or carry no ErrorInfo
 * (a peer that sends other details, or none).
 */
export function decodeStatusDetails(bytes: Uint8Array): { grpcCode: number; info: ErrorDescription } | undefined {
  let status: Status;
  try {
    status = Status.decode(bytes);
  } catch {
    return undefined;
  }
  const any: Any | undefined = status.details.find((d) => d.typeUrl === ERROR_INFO_TYPE_URL);
  if (!any) return undefined;
  let info: ErrorInfo;
  try {
    info = ErrorInfo.decode(any.value);
  } catch {
    return undefined;
  }
  const out: ErrorDescription = { code: info.code, message: info.message };
  if (info.retryAfterSeconds !== undefined) out.retryAfterSeconds = info.retryAfterSeconds;
  if (info.field !== undefined) out.field = info.field;
  if (info.offset !== undefined) out.offset = info.offset;
  if (info.value !== undefined) out.value = info.value;
  return { grpcCode: status.code, info: out };
}

/** A grpc-js ServiceError for `grpcCode` carrying `info` in the details trailer; hand it to the unary callback. */
export function statusError(grpcCode: GrpcStatus, info: ErrorDescription): ServiceError {
  const metadata = new Metadata();
  const bin = encodeStatusDetails(grpcCode, info);
  metadata.set(STATUS_DETAILS_KEY, Buffer.from(bin.buffer, bin.byteOffset, bin.byteLength));
  const err = new Error(info.message) as ServiceError;
  err.code = grpcCode;
  err.details = info.message;
  err.metadata = metadata;
  return err;
}

/** The shape of the core's ProtocolError (src/core/errors.ts), recognised without importing it. */
interface ProtocolErrorLike extends Error {
  name: 'ProtocolError';
  code: string;
  field?: string;
  offset?: number;
  value?: string;
}

function isProtocolErrorLike(err: unknown): err is ProtocolErrorLike {
  return err instanceof Error && err.name === 'ProtocolError' && typeof (err as { code?: unknown }).code === 'string';
}

/** What a thrown value says: ProtocolError and NodeError keep their code; anything else is INTERNAL. */
export function describeError(err: unknown): ErrorDescription {
  if (isProtocolErrorLike(err)) return protocolErrorDescription(err);
  if (err instanceof NodeError) {
    const d: ErrorDescription = { code: err.code, message: err.message };
    if (err.retryAfterSeconds !== undefined) d.retryAfterSeconds = err.retryAfterSeconds;
    return d;
  }
  const text = err instanceof Error ? err.message : String(err);
  return { code: 'INTERNAL', message: text };
}

function protocolErrorDescription(err: ProtocolErrorLike): ErrorDescription {
  const d: ErrorDescription = { code: err.code, message: err.message };
  if (err.field !== undefined) d.field = err.field;
  if (err.offset !== undefined) d.offset = err.offset;
  if (err.value !== undefined) d.value = err.value;
  return d;
}

/** Converts anything a service handler threw into the ServiceError to answer with. */
export function toServiceError(err: unknown): ServiceError {
  const d = describeError(err);
  return statusError(grpcCodeOf(d.code), d);
}

/** The parts of a grpc-js client error this module reads (ServiceError has them all). */
export interface ClientErrorLike {
  code?: number;
  details?: string;
  message?: string;
  metadata?: Metadata;
}

/**
 * Reads a client-side error: the ErrorInfo from the trailer when present, otherwise the bare status (code = the
 * gRPC status name, e.g. "UNAVAILABLE" when the node cannot be reached).
 */
export function parseServiceError(err: ClientErrorLike): ParsedError {
  const grpcCode = (typeof err.code === 'number' ? err.code : GrpcStatus.UNKNOWN) as GrpcStatus;
  const raw = err.metadata?.get(STATUS_DETAILS_KEY)[0];
  const decoded = raw instanceof Uint8Array ? decodeStatusDetails(raw) : undefined;
  const info: ErrorDescription = decoded?.info ?? { code: GrpcStatus[grpcCode] ?? 'UNKNOWN', message: err.details ?? err.message ?? '' };
  return { ...info, grpcCode, httpStatus: httpStatusOf(grpcCode) };
}

const REST_PREFIX: Record<number, string> = {
  400: 'invalid data provided',
  403: 'not available for public use',
  404: 'could not find data',
  500: 'internal server error',
  503: 'service unavailable',
};

/** The REST error answer for a parsed error (DECISIONS.md: numeric `code`, prefixed message, Retry-After). */
export function restError(e: ParsedError): { status: number; headers: Record<string, string>; body: { error: { code: number; message: string } } } {
  const prefix = REST_PREFIX[e.httpStatus] ?? REST_PREFIX[500]!;
  const headers: Record<string, string> = {};
  if (e.retryAfterSeconds !== undefined) headers['retry-after'] = String(e.retryAfterSeconds);
  return { status: e.httpStatus, headers, body: { error: { code: e.httpStatus, message: e.message ? `${prefix}: ${e.message}` : prefix } } };
}
