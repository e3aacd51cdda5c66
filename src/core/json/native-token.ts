/** Native tokens (docs/protocol.md §5): `{ id: 38-byte token ID, amount: u256 hex }`. */
import { TOKEN_ID_LENGTH, type NativeToken } from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readFixed, readObject, readU256, required } from './read.ts';
import type { NativeTokenJson } from './types.ts';
import { bytesToJson, u256ToJson } from './write.ts';

export function nativeTokenToJson(t: NativeToken): NativeTokenJson {
  return { id: bytesToJson(t.id), amount: u256ToJson(t.amount) };
}

export function parseNativeToken(v: unknown, p: JsonPath): NativeToken {
  const o = readObject(v, p);
  return {
    id: readFixed(required(o, 'id', p), p.key('id'), TOKEN_ID_LENGTH),
    amount: readU256(required(o, 'amount', p), p.key('amount')),
  };
}

export function nativeTokenFromJson(json: unknown): NativeToken {
  return fromJson('native token', json, parseNativeToken);
}
