/**
 * Typings for the part of iota.js 2.0.0-rc.4's SingleNodeClient the end-to-end tests and the REST benchmark use
 * (the package's own typings are not reachable through its `exports` map under NodeNext resolution). Merges with
 * the declarations in test/interop/iota-modules.d.ts.
 */
declare module '@iota/iota.js' {
  export interface IBlockPartial {
    protocolVersion?: number;
    parents?: string[];
    payload?: { type: number; [key: string]: unknown };
    nonce?: string;
  }
  export interface INodeInfo {
    name: string;
    version: string;
    status: { isHealthy: boolean; [key: string]: unknown };
    protocol: { version: number; networkName: string; bech32Hrp: string; minPowScore: number; [key: string]: unknown };
    features: string[];
    [key: string]: unknown;
  }
  export interface IBlockMetadata {
    blockId: string;
    parents: string[];
    isSolid: boolean;
    [key: string]: unknown;
  }
  export class SingleNodeClient {
    constructor(
      endpoint: string,
      options?: { protocolVersion?: number; timeout?: number; headers?: Record<string, string> },
    );
    health(): Promise<boolean>;
    info(): Promise<INodeInfo>;
    tips(): Promise<{ tips: string[] }>;
    block(blockId: string): Promise<IBlock>;
    blockRaw(blockId: string): Promise<Uint8Array>;
    blockMetadata(blockId: string): Promise<IBlockMetadata>;
    blockSubmit(block: IBlockPartial): Promise<string>;
    blockSubmitRaw(block: Uint8Array): Promise<string>;
  }
  export class ClientError extends Error {
    httpStatus: number;
    code?: string;
  }
}
