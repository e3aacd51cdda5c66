/**
 * Typings for the high-level wallet functions of iota.js 2.0.0-rc.4 the wallet e2e test drives (the package's own
 * typings are not reachable under NodeNext resolution); merges with the other iota.js declarations under test/.
 */
declare module '@iota/iota.js' {
  /** big-integer's value, as iota.js hands balances out. */
  export interface BigIntegerLike {
    toString(): string;
  }
  export interface Bip32PathLike {
    toString(): string;
  }
  export interface Ed25519Seed {
    generateSeedFromPath(path: Bip32PathLike): Ed25519Seed;
  }
  // eslint-disable-next-line @typescript-eslint/no-namespace
  export namespace Ed25519Seed {
    function fromMnemonic(mnemonic: string): Ed25519Seed;
  }
  export const COIN_TYPE_IOTA: number;
  export function generateBip44Path(
    accountIndex: number,
    addressIndex: number,
    isInternal: boolean,
    coinType?: number,
  ): Bip32PathLike;
  // biome-ignore lint/complexity/noStaticOnlyClass: declares the shape of a third-party module
  export class Bech32Helper {
    static toBech32(addressType: number, addressBytes: Uint8Array, hrp: string): string;
  }
  export function getBalance(
    client: SingleNodeClient | string,
    seed: Ed25519Seed,
    accountIndex: number,
  ): Promise<BigIntegerLike>;
  export function addressBalance(
    client: SingleNodeClient | string,
    addressBech32: string,
  ): Promise<{ balance: BigIntegerLike; ledgerIndex: number }>;
  export function send(
    client: SingleNodeClient | string,
    seed: Ed25519Seed,
    accountIndex: number,
    addressBech32: string,
    amount: unknown,
  ): Promise<{ blockId: string }>;
  export class IndexerPluginClient {
    constructor(client: SingleNodeClient);
    basicOutputs(query: {
      addressBech32?: string;
      hasExpiration?: boolean;
      hasTimelock?: boolean;
      hasStorageDepositReturn?: boolean;
    }): Promise<{
      ledgerIndex: number;
      pageSize: number;
      cursor?: string;
      items: string[];
    }>;
  }
}
