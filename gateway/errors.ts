/**
 * The REST error answer. Every failure leaves the gateway as
 * `{"error":{"code":<HTTP status number>,"message":"<prefix>: <reason>"}}` (docs/decisions.md §1, §2), built by the
 * one error middleware at the top of the app from either a gateway-made `HttpProblem` or a failed gRPC call
 * (`NodeCallError`, src/grpc/port.ts).
 */
import { NodeCallError } from '../src/grpc/port.ts';
import { GrpcStatus, parseServiceError, type ClientErrorLike, type ParsedError } from '../src/grpc/status.ts';

export { NodeCallError };

/**
 * The message prefix of each status (docs/decisions.md §2); other 4xx statuses (405, 413, 415) use the 400 prefix, 429
 * its own.
 */
const PREFIX: Record<number, string> = {
  400: 'invalid data provided',
  403: 'not available for public use',
  404: 'could not find data',
  429: 'too many requests',
  500: 'internal server error',
  // A method this server knows for no resource (PROPFIND, ...): RFC 9110 §15.6.2's status, not a fault of the node.
  501: 'not implemented',
  503: 'service unavailable',
};

export function prefixOf(status: number): string {
  return PREFIX[status] ?? (status >= 400 && status < 500 ? PREFIX[400]! : PREFIX[500]!);
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

/** A failed node call as the REST layer sees it: the parsed error and the HTTP status it stands for. */
export interface RestParsedError extends ParsedError {
  httpStatus: number;
}

export function parseNodeError(err: ClientErrorLike): RestParsedError {
  const parsed = parseServiceError(err);
  return { ...parsed, httpStatus: httpStatusOf(parsed.grpcCode) };
}

/** A failed node call (NodeCallError, any transport) as the REST layer sees it. */
export function restParsed(err: NodeCallError): RestParsedError {
  return { ...err.description, httpStatus: httpStatusOf(err.grpcCode) };
}

/** A rejection decided by the gateway itself (bad ID, wrong media type, body too large, no access). */
export class HttpProblem extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, reason: string, headers: Record<string, string> = {}) {
    super(reason);
    this.name = 'HttpProblem';
    this.status = status;
    this.headers = headers;
  }
}

/**
 * The 400 of a request target that does not parse as a URL (e.g. `http://[::1`), quoting at most 100 characters of it.
 */
export function malformedTarget(target: string): HttpProblem {
  return new HttpProblem(
    400,
    `malformed request target ${JSON.stringify(target.length > 100 ? `${target.slice(0, 100)}...` : target)}`,
  );
}

export interface RestAnswer {
  status: number;
  headers: Record<string, string>;
  body: { error: { code: number; message: string } };
}

function answer(status: number, reason: string, headers: Record<string, string> = {}): RestAnswer {
  return {
    status,
    headers,
    body: { error: { code: status, message: reason ? `${prefixOf(status)}: ${reason}` : prefixOf(status) } },
  };
}

/**
 * Only the first line, at most 200 characters: a 500 must never carry a stack or a dump. A status text arrives made
 * safe (src/grpc/status.ts statusText), its line breaks as `\u{a}` escapes: those end the line too.
 */
function oneLine(text: string): string {
  const first = text.split(/\n|\r|\\u\{(?:a|d|2028|2029)\}/, 1)[0]!.trim();
  return first.length > 200 ? `${first.slice(0, 200)}...` : first;
}

/** Retry-After when the node asked for none on RESOURCE_EXHAUSTED. */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The REST error answer for a parsed node error (numeric `code`, prefixed message, Retry-After). */
export function restError(e: RestParsedError): RestAnswer {
  const headers: Record<string, string> = {};
  if (e.retryAfterSeconds !== undefined) headers['retry-after'] = String(e.retryAfterSeconds);
  return answer(e.httpStatus, e.message, headers);
}

/** What a failed node call turns into. */
function nodeCallAnswer(err: NodeCallError): RestAnswer {
  const parsed = restParsed(err);
  const hasDetails = err.detailed;
  if (parsed.grpcCode === GrpcStatus.UNAVAILABLE && !hasDetails) {
    // No ErrorInfo trailer: the transport failed (connection refused, node gone), not the node's logic.
    return answer(503, 'node unreachable');
  }
  if (parsed.grpcCode === GrpcStatus.DEADLINE_EXCEEDED) return answer(503, 'node did not answer in time');
  if (
    (parsed.grpcCode === GrpcStatus.UNAUTHENTICATED || parsed.grpcCode === GrpcStatus.PERMISSION_DENIED) &&
    !hasDetails
  ) {
    // No ErrorInfo trailer: the node's service door refused this gateway's token, not the client's request (decisions
    // §29).
    return answer(
      503,
      `the node refused this gateway's token (${GrpcStatus[parsed.grpcCode]}: ${oneLine(err.details)})`,
    );
  }
  if (parsed.grpcCode === GrpcStatus.RESOURCE_EXHAUSTED && parsed.retryAfterSeconds === undefined) {
    parsed.retryAfterSeconds = DEFAULT_RETRY_AFTER_SECONDS;
  }
  if (parsed.httpStatus >= 500 && parsed.httpStatus !== 503) parsed.message = oneLine(parsed.message);
  return restError(parsed);
}

/** The REST answer for anything a handler threw. Unknown errors become a bare 500 (the caller logs them). */
export function toRestAnswer(err: unknown): RestAnswer {
  if (err instanceof HttpProblem) return answer(err.status, err.message, err.headers);
  if (err instanceof NodeCallError) return nodeCallAnswer(err);
  return answer(500, '');
}
