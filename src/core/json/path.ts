/**
 * Where we are inside a JSON value, for error messages:
 * "invalid block JSON at payload.essence.outputs[2].amount: expected a decimal string, got number 5".
 */
import { clip } from '../bytes.ts';
import { reject, type ErrorCode } from '../errors.ts';

export class JsonPath {
  /** What is being parsed ("block", "output", ...). */
  readonly subject: string;
  /** Dotted path from the top-level value; '' at the top. */
  readonly path: string;

  constructor(subject: string, path = '') {
    this.subject = subject;
    this.path = path;
  }

  key(name: string): JsonPath {
    return new JsonPath(this.subject, this.path === '' ? name : `${this.path}.${name}`);
  }

  index(i: number): JsonPath {
    return new JsonPath(this.subject, `${this.path}[${i}]`);
  }

  /** The path as shown to humans. */
  get where(): string {
    return this.path === '' ? '(top level)' : this.path;
  }

  fail(code: ErrorCode, what: string, value?: unknown): never {
    const shown = value === undefined ? undefined : describe(value);
    const message = `invalid ${this.subject} JSON at ${this.where}: ${what}`;
    return reject(code, message, shown === undefined ? { field: this.where } : { field: this.where, value: shown });
  }

  /** "expected X, got <type> <value>" with INVALID_JSON (or the given code). */
  expected(what: string, value: unknown, code: ErrorCode = 'INVALID_JSON'): never {
    return this.fail(code, `expected ${what}, got ${describe(value)}`, value);
  }
}

/** A short rendering of any JSON-ish value: `number 5`, `string "abc"`, `null`, `array`, `object`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `array of ${value.length}`;
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(clip(value))}`;
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`;
    default:
      return typeof value;
  }
}
