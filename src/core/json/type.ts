/** Reads the numeric `type` of an object and checks it against the family and the context. */
import type { JsonPath } from './path.ts';
import { required, type JsonObject } from './read.ts';

export interface TypeFamily {
  /** "payload", "output", ... */
  readonly what: string;
  /** Every type code of the family with a human name. */
  readonly names: Readonly<Record<number, string>>;
}

export interface TypeContext {
  readonly allowed: readonly number[];
  /** "a block", "a transaction essence", ... */
  readonly where: string;
}

/**
 * `type` missing → MISSING_FIELD; not a number → INVALID_JSON; no such type in the family → UNKNOWN_TYPE;
 * a known type the context does not allow → TYPE_NOT_ALLOWED.
 */
export function readType(o: JsonObject, p: JsonPath, family: TypeFamily, context?: TypeContext): number {
  const v = required(o, 'type', p);
  const at: JsonPath = p.key('type');
  if (typeof v !== 'number') at.expected('a number', v);
  if (!Number.isInteger(v) || !Object.hasOwn(family.names, v)) {
    at.fail('UNKNOWN_TYPE', `unknown ${family.what} type ${String(v)}`, v);
  }
  if (context !== undefined && !context.allowed.includes(v)) {
    at.fail('TYPE_NOT_ALLOWED', `${family.what} type ${v} (${family.names[v]}) is not allowed in ${context.where}`, v);
  }
  return v;
}
