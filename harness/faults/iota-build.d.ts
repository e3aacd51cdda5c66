/**
 * Typings for iota.js 2.0.0-rc.4's `buildTransactionPayload` (harness/faults/wallet.ts), merged with the declarations
 * of test/e2e/ledger/iota-ledger.d.ts (the package's own typings are not reachable under NodeNext resolution).
 */
declare module '@iota/iota.js' {
  export function buildTransactionPayload(
    networkId: string,
    inputsAndSignatureKeyPairs: IInputAndKeyPair[],
    outputs: ITransferOutput[],
  ): {
    type: 6;
    essence: { outputs: { type: number; amount: string; [key: string]: unknown }[]; [key: string]: unknown };
    unlocks: unknown[];
  };
}
