/** The common wrapper of every public `...FromJson`: a fresh path, and the forbidden-key scan over the whole input. */
import { JsonPath } from './path.ts';
import { assertNoForbiddenKeys } from './read.ts';

export function fromJson<T>(subject: string, json: unknown, parse: (v: unknown, p: JsonPath) => T): T {
  const p = new JsonPath(subject);
  assertNoForbiddenKeys(json, p);
  return parse(json, p);
}
