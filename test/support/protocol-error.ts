/** The ProtocolError a call throws, for the tests of the strict decoders, validators and mappers. */
import { isProtocolError, type ProtocolError } from '../../src/core/errors.ts';

/** Runs `fn` and returns the ProtocolError it throws; anything else it throws is thrown on, and no throw fails. */
export function protocolErrorOf(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (e) {
    if (isProtocolError(e)) return e;
    throw e;
  }
  throw new Error('expected a ProtocolError, nothing was thrown');
}

/** The code of the ProtocolError `fn` throws. */
export const protocolErrorCode = (fn: () => unknown): string => protocolErrorOf(fn).code;
