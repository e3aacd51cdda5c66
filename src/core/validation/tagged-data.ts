/** Tagged data payload rules: tag <= 64 bytes (docs/protocol.md §3.1), in the contexts that allow it. */
import type { TaggedDataPayload } from '../model/payload.ts';
import { LIMITS } from '../model/limits.ts';
import { payloadKindProblem, type PayloadContext } from '../codec/rules.ts';
import { check, invalid } from './fail.ts';
import { checkVarBytes } from './shape.ts';

export function checkTaggedData(p: TaggedDataPayload, path: string, context: PayloadContext): void {
  check(payloadKindProblem(context, p.type), `${path}.type`, p.type);
  checkVarBytes(p.tag, 'tag', LIMITS.taggedDataTag, `${path}.tag`);
  if (!(p.data instanceof Uint8Array)) invalid('INVALID_FIELD', 'data must be a byte string', `${path}.data`);
}
