/**
 * How errors travel over gRPC: the wire format shared by the node's service (build) and the REST gateway (parse).
 * Which domain error becomes which status is the node's business (src/node/grpc/errors.ts); which HTTP answer a
 * status becomes is the gateway's (gateway/errors.ts).
 *
 * A failed call carries:
 *   * the gRPC status code;
 *   * the human message as the status `details` text;
 *   * a `ledger.v1.Status` (wire-identical to google.rpc.Status) in the standard `grpc-status-details-bin` trailer,
 *     whose `details` hold one `ledger.v1.ErrorInfo`: the stable domain `code`, the message, `retryAfterSeconds`,
 *     and the field / offset / value of a ProtocolError.
 * Every text of a status is made safe here before it leaves (`statusText`, src/core/text.ts): grpc-js `encodeURI`s the
 * details into the `grpc-message` header, which throws on a lone surrogate, and a header block of tens of KiB is
 * never delivered. `statusError` does it for the handlers' answers; `safeStatusInterceptor`, the outermost
 * interceptor of every server of the node, for any status sent on the server (guards, streams, grpc-js's own).
 * This file imports nothing of src/node and from src/core only the text rules, so the gateway can use it without
 * pulling in protocol code.
 */
import {
  Metadata,
  ServerInterceptingCall,
  status as GrpcStatus,
  type ServerInterceptor,
  type ServiceError,
} from '@grpc/grpc-js';
import { safeText } from '../core/text.ts';
import { ErrorInfo, Status } from './gen/errors.ts';
import type { Any } from './gen/google/protobuf/any.ts';

export { GrpcStatus };

/** The standard trailer for rich error details. */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';
export const ERROR_INFO_TYPE_URL = 'type.googleapis.com/ledger.v1.ErrorInfo';

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

/** The parse result on the client side: the description plus the gRPC status code it came with. */
export interface ParsedError extends ErrorDescription {
  grpcCode: GrpcStatus;
}

/**
 * A status text as it may leave the node: well-formed, no control characters, at most about 1 KiB (src/core/text.ts).
 */
export function statusText(text: string): string {
  return safeText(text);
}

/** `info` with every text made safe (statusText): what a status carries, whatever a handler put into it. */
export function safeDescription(info: ErrorDescription): ErrorDescription {
  const out: ErrorDescription = { ...info, code: statusText(info.code), message: statusText(info.message) };
  if (info.field !== undefined) out.field = statusText(info.field);
  if (info.value !== undefined) out.value = statusText(info.value);
  return out;
}

/** Serializes the `grpc-status-details-bin` value. */
export function encodeStatusDetails(grpcCode: GrpcStatus, info: ErrorDescription): Uint8Array {
  const safe = safeDescription(info);
  const errorInfo = ErrorInfo.encode(ErrorInfo.fromPartial(safe)).finish();
  return Status.encode({
    code: grpcCode,
    message: safe.message,
    details: [{ typeUrl: ERROR_INFO_TYPE_URL, value: errorInfo }],
  }).finish();
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
  const safe = safeDescription(info);
  const bin = encodeStatusDetails(grpcCode, safe);
  metadata.set(STATUS_DETAILS_KEY, Buffer.from(bin.buffer, bin.byteOffset, bin.byteLength));
  const err = new Error(safe.message) as ServiceError;
  err.code = grpcCode;
  err.details = safe.message;
  err.metadata = metadata;
  return err;
}

/**
 * The outermost server interceptor of every gRPC server of the node (it must come first in the server's list: the
 * first interceptor is the one nearest the wire): whatever status any layer sends, its details are made safe
 * (statusText) before grpc-js writes them into the `grpc-message` header.
 */
export const safeStatusInterceptor: ServerInterceptor = (_method, call) =>
  new ServerInterceptingCall(call, {
    sendStatus: (status, next) => next({ ...status, details: statusText(status.details ?? '') }),
  });

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
  const info: ErrorDescription = decoded?.info ?? {
    code: GrpcStatus[grpcCode] ?? 'UNKNOWN',
    message: err.details ?? err.message ?? '',
  };
  return { ...info, grpcCode };
}
