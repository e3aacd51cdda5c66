/** Protocol parameters (docs/protocol.md §11; JSON form is `protocol` of GET /api/core/v2/info). */
export interface RentStructure {
  vByteCost: number;
  vByteFactorData: number;
  vByteFactorKey: number;
}

export interface ProtocolParameters {
  version: number;
  networkName: string;
  bech32Hrp: string;
  minPowScore: number;
  belowMaxDepth: number;
  rentStructure: RentStructure;
  tokenSupply: bigint;
}

/** Shimmer mainnet parameters (TIP-32; identical to the real Shimmer milestone data in the vectors). */
export const SHIMMER_PROTOCOL: ProtocolParameters = {
  version: 2,
  networkName: 'shimmer',
  bech32Hrp: 'smr',
  minPowScore: 1500,
  belowMaxDepth: 15,
  rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
  tokenSupply: 1813620509061365n,
};
