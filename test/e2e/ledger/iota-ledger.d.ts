/**
 * Typings for the parts of iota.js 2.0.0-rc.4 the ledger e2e test uses on top of test/e2e/rest/iota-client.d.ts and
 * test/interop/iota-modules.d.ts (the package's own typings are not reachable under NodeNext resolution).
 */
declare module '@iota/iota.js' {
  export interface IKeyPair {
    publicKey: Uint8Array;
    privateKey: Uint8Array;
  }
  export class Ed25519Seed {
    constructor(secretKeyBytes?: Uint8Array);
    keyPair(): IKeyPair;
  }
  export class Ed25519Address {
    constructor(publicKey: Uint8Array);
    toAddress(): Uint8Array;
  }
  export interface IUTXOInput {
    type: 0;
    transactionId: string;
    transactionOutputIndex: number;
  }
  export interface IInputAndKeyPair {
    input: IUTXOInput;
    addressKeyPair: IKeyPair;
    consumingOutput: { type: number; amount: string; [key: string]: unknown };
  }
  export interface ITransferOutput {
    address: string;
    addressType: number;
    amount: bigint;
  }
  export function sendAdvanced(
    client: SingleNodeClient | string,
    inputsAndSignatureKeyPairs: IInputAndKeyPair[],
    outputs: ITransferOutput[],
  ): Promise<{ blockId: string; block: IBlock }>;
  export interface SingleNodeClient {
    transactionIncludedBlock(transactionId: string): Promise<IBlock>;
    transactionIncludedBlockRaw(transactionId: string): Promise<Uint8Array>;
  }
}
