import { expect } from 'chai';
import { readFileSync, readdirSync } from 'node:fs';
import { Metadata } from '@grpc/grpc-js';
import { ProtocolError } from '../../src/core/errors.ts';
import { ErrorInfo, Status } from '../../src/grpc/gen/errors.ts';
import {
  ERROR_INFO_TYPE_URL,
  GrpcStatus,
  STATUS_DETAILS_KEY,
  decodeStatusDetails,
  encodeStatusDetails,
  statusError,
} from '../../src/grpc/status.ts';
import { parseNodeError } from '../../gateway/errors.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { grpcCodeOf, toServiceError } from '../../src/node/grpc/errors.ts';
import { httpStatusOf, restError } from '../../gateway/errors.ts';

describe('grpc status: domain errors as gRPC status + details', () => {
  it('maps gRPC status codes to HTTP statuses', () => {
    expect(httpStatusOf(GrpcStatus.INVALID_ARGUMENT)).to.equal(400);
    expect(httpStatusOf(GrpcStatus.NOT_FOUND)).to.equal(404);
    expect(httpStatusOf(GrpcStatus.PERMISSION_DENIED)).to.equal(403);
    expect(httpStatusOf(GrpcStatus.UNAUTHENTICATED)).to.equal(403);
    expect(httpStatusOf(GrpcStatus.UNAVAILABLE)).to.equal(503);
    expect(httpStatusOf(GrpcStatus.RESOURCE_EXHAUSTED)).to.equal(503);
    expect(httpStatusOf(GrpcStatus.INTERNAL)).to.equal(500);
    expect(httpStatusOf(GrpcStatus.UNKNOWN)).to.equal(500);
    expect(httpStatusOf(GrpcStatus.DATA_LOSS)).to.equal(500);
  });

  it('maps domain codes to gRPC codes: every core code is INVALID_ARGUMENT, node codes by table', () => {
    for (const code of ['TRUNCATED', 'INVALID_HEX', 'POW_SCORE_TOO_LOW', 'BLOCK_TOO_LARGE'])
      expect(grpcCodeOf(code)).to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect(grpcCodeOf('INVALID_REQUEST')).to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect(grpcCodeOf('NOT_FOUND')).to.equal(GrpcStatus.NOT_FOUND);
    expect(grpcCodeOf('PRUNED')).to.equal(GrpcStatus.NOT_FOUND);
    expect(grpcCodeOf('FORBIDDEN')).to.equal(GrpcStatus.PERMISSION_DENIED);
    expect(grpcCodeOf('NODE_NOT_SYNCED')).to.equal(GrpcStatus.UNAVAILABLE);
    expect(grpcCodeOf('NO_TIPS')).to.equal(GrpcStatus.UNAVAILABLE);
    expect(grpcCodeOf('POW_UNAVAILABLE')).to.equal(GrpcStatus.UNAVAILABLE);
    expect(grpcCodeOf('POW_QUEUE_FULL')).to.equal(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(grpcCodeOf('INTERNAL')).to.equal(GrpcStatus.INTERNAL);
  });

  it('encodes the details as a google.rpc.Status-shaped message with one packed ErrorInfo', () => {
    const bytes = encodeStatusDetails(GrpcStatus.RESOURCE_EXHAUSTED, {
      code: 'POW_QUEUE_FULL',
      message: 'queue full',
      retryAfterSeconds: 5,
    });
    const status = Status.decode(bytes);
    expect(status.code).to.equal(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(status.message).to.equal('queue full');
    expect(status.details).to.have.length(1);
    expect(status.details[0]!.typeUrl).to.equal(ERROR_INFO_TYPE_URL);
    expect(ErrorInfo.decode(status.details[0]!.value)).to.include({
      code: 'POW_QUEUE_FULL',
      message: 'queue full',
      retryAfterSeconds: 5,
      field: undefined,
    });
    // field numbers of google.rpc.Status: code = 1 (varint), message = 2, details = 3
    expect(bytes[0]).to.equal(0x08);
    expect(bytes[1]).to.equal(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(bytes[2]).to.equal(0x12);
    expect(decodeStatusDetails(bytes)).to.deep.equal({
      grpcCode: GrpcStatus.RESOURCE_EXHAUSTED,
      info: { code: 'POW_QUEUE_FULL', message: 'queue full', retryAfterSeconds: 5 },
    });
  });

  it('ignores details it does not understand', () => {
    expect(decodeStatusDetails(Uint8Array.of(0xff, 0xff, 0xff))).to.equal(undefined);
    const other = Status.encode({
      code: 5,
      message: 'x',
      details: [{ typeUrl: 'type.googleapis.com/google.rpc.DebugInfo', value: new Uint8Array(0) }],
    }).finish();
    expect(decodeStatusDetails(other)).to.equal(undefined);
  });

  it('turns a ProtocolError into INVALID_ARGUMENT keeping code, field, offset and value', () => {
    const err = toServiceError(
      new ProtocolError('UNKNOWN_TYPE', 'Cannot decode output: unknown type 9 at offset 120', {
        field: 'outputs[0]',
        offset: 120,
        value: '9',
      }),
    );
    expect(err.code).to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect(err.details).to.equal('Cannot decode output: unknown type 9 at offset 120');
    const parsed = parseNodeError(err);
    expect(parsed).to.deep.equal({
      code: 'UNKNOWN_TYPE',
      message: 'Cannot decode output: unknown type 9 at offset 120',
      field: 'outputs[0]',
      offset: 120,
      value: '9',
      grpcCode: GrpcStatus.INVALID_ARGUMENT,
      httpStatus: 400,
    });
  });

  it('turns a NodeError into its status with retry advice, and anything else into INTERNAL', () => {
    const full = parseNodeError(
      toServiceError(new NodeError('POW_QUEUE_FULL', 'proof-of-work queue is full', { retryAfterSeconds: 3 })),
    );
    expect(full).to.include({
      code: 'POW_QUEUE_FULL',
      grpcCode: GrpcStatus.RESOURCE_EXHAUSTED,
      httpStatus: 503,
      retryAfterSeconds: 3,
    });
    const boom = parseNodeError(toServiceError(new Error('disk on fire')));
    expect(boom).to.include({
      code: 'INTERNAL',
      message: 'disk on fire',
      grpcCode: GrpcStatus.INTERNAL,
      httpStatus: 500,
    });
    expect(parseNodeError(toServiceError('plain string'))).to.include({ code: 'INTERNAL', message: 'plain string' });
    // a host error with a string code (ENOENT) is not a protocol rejection
    const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(parseNodeError(toServiceError(enoent))).to.include({ code: 'INTERNAL', grpcCode: GrpcStatus.INTERNAL });
  });

  it('puts the details under grpc-status-details-bin as binary metadata', () => {
    const err = statusError(GrpcStatus.NOT_FOUND, { code: 'NOT_FOUND', message: 'block not found: 0x00' });
    const values = err.metadata.get(STATUS_DETAILS_KEY);
    expect(values).to.have.length(1);
    expect(values[0]).to.be.instanceOf(Uint8Array);
    expect(decodeStatusDetails(values[0] as Uint8Array)?.info).to.deep.equal({
      code: 'NOT_FOUND',
      message: 'block not found: 0x00',
    });
  });

  it('makes each text of a status safe to carry: lone surrogates replaced, control characters escaped, bounded', () => {
    const id = 'ab'.repeat(20_000);
    const err = statusError(GrpcStatus.INVALID_ARGUMENT, {
      code: 'INVALID_JSON',
      message: `bad \ud83d\u0000 ${id}`,
      value: id,
      field: 'f\ud800',
    });
    expect(() => encodeURI(err.details)).not.to.throw();
    expect(err.details.length).to.be.lessThan(1100);
    expect(err.details.startsWith('bad \ufffd\\u{0} abab')).to.equal(true);
    const bin = err.metadata.get(STATUS_DETAILS_KEY)[0] as Uint8Array;
    expect(bin.length).to.be.lessThan(4096);
    const info = decodeStatusDetails(bin)!.info;
    expect(info.message).to.equal(err.details);
    expect(info.field).to.equal('f\ufffd');
    expect(info.value!.length).to.be.lessThan(1100);
  });

  it('falls back to the bare status when a peer sent no details (e.g. connection refused)', () => {
    const parsed = parseNodeError({
      code: GrpcStatus.UNAVAILABLE,
      details: 'No connection established',
      metadata: new Metadata(),
    });
    expect(parsed).to.deep.equal({
      code: 'UNAVAILABLE',
      message: 'No connection established',
      grpcCode: GrpcStatus.UNAVAILABLE,
      httpStatus: 503,
    });
    expect(parseNodeError({})).to.include({ code: 'UNKNOWN', grpcCode: GrpcStatus.UNKNOWN, httpStatus: 500 });
  });

  it('renders the REST error answer (numeric code, prefixed message, Retry-After)', () => {
    const notFound = restError(parseNodeError(toServiceError(new NodeError('NOT_FOUND', 'block not found: 0xab'))));
    expect(notFound).to.deep.equal({
      status: 404,
      headers: {},
      body: { error: { code: 404, message: 'could not find data: block not found: 0xab' } },
    });
    const bad = restError(
      parseNodeError(toServiceError(new ProtocolError('INVALID_HEX', 'blockId: invalid hex character at position 3'))),
    );
    expect(bad.body.error).to.deep.equal({
      code: 400,
      message: 'invalid data provided: blockId: invalid hex character at position 3',
    });
    const full = restError(
      parseNodeError(
        toServiceError(new NodeError('POW_QUEUE_FULL', 'proof-of-work queue is full', { retryAfterSeconds: 9 })),
      ),
    );
    expect(full).to.deep.equal({
      status: 503,
      headers: { 'retry-after': '9' },
      body: { error: { code: 503, message: 'service unavailable: proof-of-work queue is full' } },
    });
    const pow = restError(
      parseNodeError(toServiceError(new NodeError('POW_UNAVAILABLE', 'proof of work is not available on this node'))),
    );
    expect(pow.body.error.message).to.equal('service unavailable: proof of work is not available on this node');
    expect(
      restError(parseNodeError(toServiceError(new NodeError('FORBIDDEN', 'route /api/x')))).body.error.message,
    ).to.equal('not available for public use: route /api/x');
    expect(restError(parseNodeError(toServiceError(new Error('x')))).body.error).to.deep.equal({
      code: 500,
      message: 'internal server error: x',
    });
  });

  it('gateway-facing modules (status helpers, generated code) import nothing of src/core but its text rules', () => {
    const dir = new URL('../../src/grpc/', import.meta.url);
    const files = [
      'status.ts',
      ...readdirSync(new URL('gen/', dir), { recursive: true })
        .map((f) => `gen/${String(f)}`)
        .filter((f) => f.endsWith('.ts')),
    ];
    const coreImport = /from\s+['"]([^'"]*core\/[^'"]*)['"]/g;
    const offenders = files.filter((f) =>
      [...readFileSync(new URL(f, dir), 'utf8').matchAll(coreImport)].some((m) => m[1] !== '../core/text.ts'),
    );
    expect(files.length).to.be.greaterThan(4);
    expect(offenders).to.deep.equal([]);
  });
});
