/** Protocol parameters (docs/protocol.md §11), the content of the protocol parameters milestone option. */
import type { ProtocolParameters } from '../model/protocol.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { decodeWhole, encodeWith, writePrefixed } from './common.ts';

const utf8 = new TextEncoder();
/** Strict, and keeps a leading BOM so that re-encoding gives the same bytes. */
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function readString(r: ByteReader, field: string): string {
  const at = r.offset;
  const b = r.prefixed(1, field, 0, 255);
  try {
    return utf8Strict.decode(b);
  } catch {
    return r.fail('INVALID_FIELD', `${field} is not valid UTF-8`, field, at);
  }
}

export function readProtocolParameters(r: ByteReader): ProtocolParameters {
  const version = r.u8('version');
  const networkName = readString(r, 'networkName');
  const bech32Hrp = readString(r, 'bech32Hrp');
  const minPowScore = r.u32('minPowScore');
  const belowMaxDepth = r.u8('belowMaxDepth');
  const vByteCost = r.u32('rentStructure.vByteCost');
  const vByteFactorData = r.u8('rentStructure.vByteFactorData');
  const vByteFactorKey = r.u8('rentStructure.vByteFactorKey');
  const tokenSupply = r.u64('tokenSupply');
  return {
    version,
    networkName,
    bech32Hrp,
    minPowScore,
    belowMaxDepth,
    rentStructure: { vByteCost, vByteFactorData, vByteFactorKey },
    tokenSupply,
  };
}

export function writeProtocolParameters(w: ByteWriter, p: ProtocolParameters): void {
  w.u8(p.version);
  writePrefixed(w, utf8.encode(p.networkName), 1, 'network name');
  writePrefixed(w, utf8.encode(p.bech32Hrp), 1, 'bech32 HRP');
  w.u32(p.minPowScore).u8(p.belowMaxDepth);
  w.u32(p.rentStructure.vByteCost).u8(p.rentStructure.vByteFactorData).u8(p.rentStructure.vByteFactorKey);
  w.u64(p.tokenSupply);
}

export function encodeProtocolParameters(p: ProtocolParameters): Uint8Array {
  return encodeWith(writeProtocolParameters, p);
}

export function decodeProtocolParameters(bytes: Uint8Array): ProtocolParameters {
  return decodeWhole(bytes, 'protocol parameters', readProtocolParameters);
}
