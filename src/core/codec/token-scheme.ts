/** Token schemes (docs/protocol.md §6): only the Simple Token Scheme (type 0). */
import { TOKEN_SCHEME_SIMPLE, type TokenScheme } from '../model/output.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { tokenSchemeKindProblem } from './rules.ts';
import { decodeWhole, encodeWith, failAt } from './common.ts';

export function readTokenScheme(r: ByteReader, field: string): TokenScheme {
  const at = r.offset;
  const type = r.u8(field);
  const p = tokenSchemeKindProblem(type);
  if (p) failAt(r, p, field, at, String(type));
  return {
    type: TOKEN_SCHEME_SIMPLE,
    mintedTokens: r.u256(field),
    meltedTokens: r.u256(field),
    maximumSupply: r.u256(field),
  };
}

export function writeTokenScheme(w: ByteWriter, s: TokenScheme): void {
  if (s.type !== TOKEN_SCHEME_SIMPLE)
    throw new RangeError(`Cannot encode token scheme: unknown type ${String(s.type)}`);
  w.u8(s.type).u256(s.mintedTokens).u256(s.meltedTokens).u256(s.maximumSupply);
}

export function encodeTokenScheme(s: TokenScheme): Uint8Array {
  return encodeWith(writeTokenScheme, s);
}

export function decodeTokenScheme(bytes: Uint8Array): TokenScheme {
  return decodeWhole(bytes, 'token scheme', (r) => readTokenScheme(r, 'tokenScheme'));
}
