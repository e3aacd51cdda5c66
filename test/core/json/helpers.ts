/** Shared helpers for the JSON tests. */
import { expect } from 'chai';
import type { ErrorCode, ProtocolError } from '../../../src/core/errors.ts';
import { protocolErrorOf } from '../../support/protocol-error.ts';

/** Runs fn, expects a ProtocolError with this code; optionally checks that the message names `path`. */
export function expectReject(fn: () => unknown, code: ErrorCode, path?: string): ProtocolError {
  const err = protocolErrorOf(fn);
  expect(err.code, err.message).to.equal(code);
  if (path !== undefined) {
    expect(err.message).to.contain(` at ${path}: `);
    expect(err.field).to.equal(path);
  }
  return err;
}

/** A deep copy of a JSON value (so tests can mutate vector JSON freely). */
export function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export const hex = (byte: string, n: number): string => '0x' + byte.repeat(n);
