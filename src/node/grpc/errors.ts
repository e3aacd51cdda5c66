/**
 * The one place where domain errors become gRPC statuses: every core ProtocolError is INVALID_ARGUMENT, a NodeError
 * gets the status of its code (table below), anything else is INTERNAL. The answer carries the ErrorInfo trailer
 * (src/grpc/status.ts), so the gateway and other clients read the stable code back.
 */
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { ProtocolError } from '../../core/errors.ts';
import type { NodeCallError } from '../../grpc/port.ts';
import { GrpcStatus, statusError, type ErrorDescription } from '../../grpc/status.ts';
import { NodeError, type NodeErrorCode } from '../support/errors.ts';

export const NODE_ERROR_STATUS: Readonly<Record<NodeErrorCode, GrpcStatus>> = Object.freeze({
  INVALID_REQUEST: GrpcStatus.INVALID_ARGUMENT,
  NOT_FOUND: GrpcStatus.NOT_FOUND,
  PRUNED: GrpcStatus.NOT_FOUND,
  FORBIDDEN: GrpcStatus.PERMISSION_DENIED,
  NODE_NOT_SYNCED: GrpcStatus.UNAVAILABLE,
  UNAVAILABLE: GrpcStatus.UNAVAILABLE,
  NO_TIPS: GrpcStatus.UNAVAILABLE,
  POW_UNAVAILABLE: GrpcStatus.UNAVAILABLE,
  POW_QUEUE_FULL: GrpcStatus.RESOURCE_EXHAUSTED,
  TOO_MANY_REQUESTS: GrpcStatus.RESOURCE_EXHAUSTED,
  INTERNAL: GrpcStatus.INTERNAL,
});

/** The gRPC status code for a domain code: node codes by the table, core ProtocolError codes INVALID_ARGUMENT. */
export function grpcCodeOf(code: string): GrpcStatus {
  return (NODE_ERROR_STATUS as Record<string, GrpcStatus>)[code] ?? GrpcStatus.INVALID_ARGUMENT;
}

/** Whether a thrown value is a domain error (anything else is a defect, answered INTERNAL and logged). */
export function isDomainError(err: unknown): err is NodeError | ProtocolError {
  return err instanceof NodeError || err instanceof ProtocolError;
}

/** What a thrown value says: ProtocolError and NodeError keep their code; anything else is INTERNAL. */
export function describeError(err: unknown): ErrorDescription {
  if (err instanceof ProtocolError) {
    const d: ErrorDescription = { code: err.code, message: err.message };
    if (err.field !== undefined) d.field = err.field;
    if (err.offset !== undefined) d.offset = err.offset;
    if (err.value !== undefined) d.value = err.value;
    return d;
  }
  if (err instanceof NodeError) {
    const d: ErrorDescription = { code: err.code, message: err.message };
    if (err.retryAfterSeconds !== undefined) d.retryAfterSeconds = err.retryAfterSeconds;
    return d;
  }
  // A defect's text: its first line only (a host error often goes on with a stack or paths; the log has it whole).
  return { code: 'INTERNAL', message: (err instanceof Error ? err.message : String(err)).split('\n', 1)[0]!.trim() };
}

/** Converts anything a service handler threw into the ServiceError to answer with. */
export function toServiceError(err: unknown): ServiceError {
  const d = describeError(err);
  return statusError(grpcCodeOf(d.code), d);
}

/**
 * The status text of a defect (anything not a domain error) in method `name`: its first line only, as what follows in
 * a host error is often a stack or a path (the log has it whole). The gRPC handlers and the in-process port
 * both use it.
 */
export function defectMessage(name: string, err: unknown): string {
  return `${name} failed: ${(err instanceof Error ? err.message : String(err)).split('\n', 1)[0]!.trim()}`;
}

/** A failed call as the ServiceError the unary gRPC handlers answer with: code, details, the details trailer. */
export function serviceErrorOf(err: NodeCallError): ServiceError {
  if (err.detailed) return statusError(err.grpcCode, err.description);
  return Object.assign(new Error(err.details), { code: err.grpcCode, details: err.details, metadata: new Metadata() });
}
