/**
 * Protocol parameters in the `protocol` shape of GET /api/core/v2/info (docs/protocol.md §11), `rentStructure`
 * included.
 */
import { utf8Encode } from '../bytes.ts';
import type { ProtocolParameters, RentStructure } from '../model/index.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readObject, readString, readU32, readU64, readU8, required } from './read.ts';
import type { ProtocolParametersJson, RentStructureJson } from './types.ts';
import { u64ToJson } from './write.ts';

export function rentStructureToJson(r: RentStructure): RentStructureJson {
  return { vByteCost: r.vByteCost, vByteFactorData: r.vByteFactorData, vByteFactorKey: r.vByteFactorKey };
}

export function protocolParametersToJson(pp: ProtocolParameters): ProtocolParametersJson {
  return {
    version: pp.version,
    networkName: pp.networkName,
    bech32Hrp: pp.bech32Hrp,
    minPowScore: pp.minPowScore,
    belowMaxDepth: pp.belowMaxDepth,
    rentStructure: rentStructureToJson(pp.rentStructure),
    tokenSupply: u64ToJson(pp.tokenSupply),
  };
}

/** A string that must fit a (u8)Bytes field once UTF-8 encoded. */
function readShortString(o: Parameters<typeof required>[0], key: string, p: JsonPath): string {
  const at = p.key(key);
  const s = readString(required(o, key, p), at);
  const n = utf8Encode(s).length;
  if (n > 0xff) at.fail('LENGTH_OUT_OF_RANGE', `string of ${n} UTF-8 bytes, at most 255 allowed`, s);
  return s;
}

export function parseRentStructure(v: unknown, p: JsonPath): RentStructure {
  const o = readObject(v, p);
  return {
    vByteCost: readU32(required(o, 'vByteCost', p), p.key('vByteCost')),
    vByteFactorData: readU8(required(o, 'vByteFactorData', p), p.key('vByteFactorData')),
    vByteFactorKey: readU8(required(o, 'vByteFactorKey', p), p.key('vByteFactorKey')),
  };
}

export function parseProtocolParameters(v: unknown, p: JsonPath): ProtocolParameters {
  const o = readObject(v, p);
  return {
    version: readU8(required(o, 'version', p), p.key('version')),
    networkName: readShortString(o, 'networkName', p),
    bech32Hrp: readShortString(o, 'bech32Hrp', p),
    minPowScore: readU32(required(o, 'minPowScore', p), p.key('minPowScore')),
    belowMaxDepth: readU8(required(o, 'belowMaxDepth', p), p.key('belowMaxDepth')),
    rentStructure: parseRentStructure(required(o, 'rentStructure', p), p.key('rentStructure')),
    tokenSupply: readU64(required(o, 'tokenSupply', p), p.key('tokenSupply')),
  };
}

export function protocolParametersFromJson(json: unknown): ProtocolParameters {
  return fromJson('protocol parameters', json, parseProtocolParameters);
}

export function rentStructureFromJson(json: unknown): RentStructure {
  return fromJson('rent structure', json, parseRentStructure);
}
