/** Shared helpers for the JSON tests. */
import { expect } from 'chai';
import { ProtocolError, type ErrorCode } from '../../../src/core/errors.ts';

/** Runs fn, expects a ProtocolError with this code; optionally checks that the message names `path`. */
export function expectReject(fn: () => unknown, code: ErrorCode, path?: string): ProtocolError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected a ProtocolError').to.be.instanceOf(ProtocolError);
  const err = caught as ProtocolError;
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
