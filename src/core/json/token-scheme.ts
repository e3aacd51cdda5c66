/**
 * Simple token scheme (docs/protocol.md §6): `mintedTokens`, `meltedTokens`, `maximumSupply` as u256 hex
 * (docs/decisions.md §9).
 */
import { TOKEN_SCHEME_SIMPLE, type TokenScheme } from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readObject, readU256, required } from './read.ts';
import { readType, type TypeFamily } from './type.ts';
import type { TokenSchemeJson } from './types.ts';
import { u256ToJson } from './write.ts';

export const TOKEN_SCHEME_TYPES: TypeFamily = { what: 'token scheme', names: { [TOKEN_SCHEME_SIMPLE]: 'simple' } };

export function tokenSchemeToJson(s: TokenScheme): TokenSchemeJson {
  return {
    type: s.type,
    mintedTokens: u256ToJson(s.mintedTokens),
    meltedTokens: u256ToJson(s.meltedTokens),
    maximumSupply: u256ToJson(s.maximumSupply),
  };
}

export function parseTokenScheme(v: unknown, p: JsonPath): TokenScheme {
  const o = readObject(v, p);
  readType(o, p, TOKEN_SCHEME_TYPES);
  const u256 = (key: string) => readU256(required(o, key, p), p.key(key));
  return {
    type: TOKEN_SCHEME_SIMPLE,
    mintedTokens: u256('mintedTokens'),
    meltedTokens: u256('meltedTokens'),
    maximumSupply: u256('maximumSupply'),
  };
}

export function tokenSchemeFromJson(json: unknown): TokenScheme {
  return fromJson('token scheme', json, parseTokenScheme);
}
