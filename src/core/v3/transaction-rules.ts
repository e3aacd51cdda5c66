/**
 * Transaction rules that need the protocol parameters (docs/protocol.md §V5.7; iota.go Transaction syntactic checks):
 * network ID, every output amount > 0 and ≥ its minimum storage deposit (TIP-47), a Storage Deposit Return amount
 * between the return output's minimum deposit and the output amount, amounts sum ≤ token supply, stored Mana and
 * allotted Mana sums < 2^bitsCount. Structural rules (counts, order, uniqueness, unlock references)
 * are enforced by the codec already.
 */
import { reject } from '../errors.ts';
import type { ProtocolParametersV3 } from './model/params.ts';
import type { TransactionV3 } from './model/transaction.ts';
import { networkIdFromName } from './ids/network-id.ts';
import { minimumReturnDepositV3, minimumStorageDepositV3 } from './storage-score.ts';

export type TransactionCheckParamsV3 = Pick<
  ProtocolParametersV3,
  'networkName' | 'tokenSupply' | 'manaParameters' | 'storageScoreParameters'
>;

export function checkTransactionParamsV3(
  tx: TransactionV3,
  params: TransactionCheckParamsV3,
  path = 'transaction',
): void {
  const networkId = networkIdFromName(params.networkName);
  if (tx.networkId !== networkId) {
    reject(
      'NETWORK_ID_MISMATCH',
      `Cannot accept ${path}: networkId ${tx.networkId}, expected ${networkId} (${params.networkName})`,
      { field: `${path}.networkId`, value: String(tx.networkId) },
    );
  }
  const maxMana = (1n << BigInt(params.manaParameters.bitsCount)) - 1n;
  let amounts = 0n;
  let mana = 0n;
  tx.outputs.forEach((o, i) => {
    const field = `${path}.outputs[${i}]`;
    if (o.amount === 0n)
      reject('VALUE_OUT_OF_RANGE', `Cannot accept ${field}: amount must be > 0`, { field: `${field}.amount` });
    const min = minimumStorageDepositV3(o, params.storageScoreParameters);
    if (o.amount < min) {
      reject(
        'INSUFFICIENT_STORAGE_DEPOSIT',
        `Cannot accept ${field}: amount ${o.amount} is below the minimum storage deposit ${min}`,
        { field: `${field}.amount`, value: String(o.amount) },
      );
    }
    const sdruc = o.unlockConditions.find((uc) => uc.type === 1);
    if (sdruc && sdruc.type === 1) {
      const minReturn = minimumReturnDepositV3(sdruc.returnAddress, params.storageScoreParameters);
      const ucField = `${field}.unlockConditions[${o.unlockConditions.indexOf(sdruc)}].amount`;
      if (sdruc.amount < minReturn) {
        reject(
          'INSUFFICIENT_STORAGE_DEPOSIT',
          `Cannot accept ${field}: storage deposit return ${sdruc.amount} ` +
            `is below the return output's minimum deposit ${minReturn}`,
          { field: ucField },
        );
      }
      if (sdruc.amount > o.amount)
        reject(
          'VALUE_OUT_OF_RANGE',
          `Cannot accept ${field}: storage deposit return ${sdruc.amount} exceeds the amount ${o.amount}`,
          { field: ucField },
        );
    }
    amounts += o.amount;
    if (amounts > params.tokenSupply)
      reject(
        'SUPPLY_EXCEEDED',
        `Cannot accept ${path}: output amounts exceed the token supply ${params.tokenSupply} at ${field}`,
        { field },
      );
    if ('mana' in o) mana += o.mana;
    if (mana > maxMana)
      reject(
        'VALUE_OUT_OF_RANGE',
        `Cannot accept ${path}: stored Mana exceeds 2^${params.manaParameters.bitsCount} - 1 at ${field}`,
        { field: `${field}.mana` },
      );
  });
  let allotted = 0n;
  tx.allotments.forEach((a, i) => {
    allotted += a.mana;
    if (allotted > maxMana) {
      reject(
        'VALUE_OUT_OF_RANGE',
        `Cannot accept ${path}: allotted Mana exceeds 2^${params.manaParameters.bitsCount} - 1 at allotments[${i}]`,
        { field: `${path}.allotments[${i}].mana` },
      );
    }
  });
}
