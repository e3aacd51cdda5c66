/**
 * Protocol rejections. Callers branch on `code` (stable), never on the message text.
 * Messages say what, where and the value: "Cannot decode output: unknown type 9 at offset 120".
 * Programming mistakes use TypeError / RangeError instead.
 */
export type ErrorCode =
  // binary decoding
  | 'TRUNCATED' // fewer bytes than the field needs
  | 'TRAILING_BYTES' // bytes left after the object ended
  | 'UNKNOWN_TYPE' // a type tag no Stardust object has
  | 'TYPE_NOT_ALLOWED' // a known type in a context that does not allow it
  | 'PAYLOAD_LENGTH_MISMATCH' // an embedded payload's length prefix disagrees with its content
  // shape rules (binary and JSON alike)
  | 'COUNT_OUT_OF_RANGE' // list count outside its bounds
  | 'LENGTH_OUT_OF_RANGE' // byte string length outside its bounds
  | 'VALUE_OUT_OF_RANGE' // a number outside its bounds
  | 'NOT_SORTED_UNIQUE' // lexical order / uniqueness rule broken
  | 'DUPLICATE' // duplicate element where uniqueness is required
  | 'MISSING_FIELD' // a mandatory element (e.g. an address unlock condition) is missing
  | 'INVALID_FIELD' // any other field-level rule
  // block-level rules
  | 'BLOCK_TOO_LARGE'
  | 'PROTOCOL_VERSION_MISMATCH'
  | 'NETWORK_ID_MISMATCH'
  | 'INSUFFICIENT_STORAGE_DEPOSIT'
  | 'SUPPLY_EXCEEDED'
  | 'INVALID_UNLOCK'
  | 'POW_SCORE_TOO_LOW'
  | 'INVALID_NONCE'
  // text formats
  | 'INVALID_JSON'
  | 'INVALID_HEX'
  | 'INVALID_BECH32'
  | 'INVALID_SIGNATURE';

export interface ErrorDetails {
  /** Dotted path of the field, e.g. `payload.essence.outputs[1].amount`. */
  field?: string;
  /** Byte offset in the input where the problem was found (binary input). */
  offset?: number;
  /** The offending value, rendered for humans. */
  value?: string;
}

export class ProtocolError extends Error {
  readonly code: ErrorCode;
  readonly field?: string;
  readonly offset?: number;
  readonly value?: string;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    if (details.field !== undefined) this.field = details.field;
    if (details.offset !== undefined) this.offset = details.offset;
    if (details.value !== undefined) this.value = details.value;
  }
}

export function isProtocolError(e: unknown): e is ProtocolError {
  return e instanceof ProtocolError;
}

/** Throws a ProtocolError; typed `never` so it can end expressions. */
export function reject(code: ErrorCode, message: string, details?: ErrorDetails): never {
  throw new ProtocolError(code, message, details);
}
