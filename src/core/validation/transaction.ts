/** Syntactic rules of a transaction payload (TIP-20 / TIP-18, docs/protocol.md §14 "Transaction"). */
import type { TransactionPayload } from '../model/payload.ts';
import type { CommonOutput, FoundryOutput } from '../model/output.ts';
import {
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
} from '../model/output.ts';
import { ADDRESS_ALIAS, ADDRESS_NFT } from '../model/address.ts';
import { UNLOCK_SIGNATURE, type Unlock, type UtxoInput } from '../model/transaction.ts';
import type { ProtocolParameters } from '../model/protocol.ts';
import { ID_LENGTH, LIMITS } from '../model/limits.ts';
import { equalBytes, isZero, toHex } from '../bytes.ts';
import { essenceKindProblem, outputIndexProblem, sameUtxo, u64Problem } from '../codec/rules.ts';
import { addressId } from '../codec/address.ts';
import { check, invalid } from './fail.ts';
import { checkBytes, checkInput, checkList, checkOutputShape, checkUnlock } from './shape.ts';
import { checkTaggedData } from './tagged-data.ts';
import { minStorageDeposit, minStorageDepositReturn } from './storage-deposit.ts';

export interface TransactionContext {
  protocol: ProtocolParameters;
  networkId: bigint;
}

/** Foundry ID = 0x08 ‖ alias ID ‖ serial number (u32 LE) ‖ token scheme type (docs/protocol.md §6). */
export function foundryId(o: FoundryOutput): Uint8Array {
  const out = new Uint8Array(38);
  const uc = o.unlockConditions.find((u) => u.type === 6);
  out[0] = ADDRESS_ALIAS;
  if (uc) out.set(addressId(uc.address), 1);
  new DataView(out.buffer).setUint32(33, o.serialNumber, true);
  out[37] = o.tokenScheme.type;
  return out;
}

function checkInputs(inputs: UtxoInput[], path: string): void {
  checkList(inputs, 'inputs', LIMITS.inputs, path);
  for (let i = 0; i < inputs.length; i++) {
    const p = `${path}[${i}]`;
    const input = inputs[i]!;
    checkInput(input, p, 'essence');
    check(
      outputIndexProblem(input.transactionOutputIndex),
      `${p}.transactionOutputIndex`,
      input.transactionOutputIndex,
    );
    for (let j = 0; j < i; j++) {
      const o = inputs[j]!;
      if (sameUtxo(o.transactionId, o.transactionOutputIndex, input.transactionId, input.transactionOutputIndex)) {
        invalid('DUPLICATE', `input ${i} repeats input ${j} (same transaction ID and output index)`, p);
      }
    }
  }
}

/** Per-output value rules (deposit, supply, SDR, time locks, chain fields, token scheme), iota.go order. */
function checkOutputRules(o: CommonOutput, path: string, protocol: ProtocolParameters): void {
  const supply = protocol.tokenSupply;
  if (o.amount === 0n) invalid('VALUE_OUT_OF_RANGE', 'output amount must not be zero', `${path}.amount`, o.amount);
  if (o.amount > supply)
    invalid('SUPPLY_EXCEEDED', `output amount exceeds the token supply ${supply}`, `${path}.amount`, o.amount);
  const min = minStorageDeposit(o, protocol.rentStructure);
  if (o.amount < min)
    invalid(
      'INSUFFICIENT_STORAGE_DEPOSIT',
      `output amount is below the minimum storage deposit ${min}`,
      `${path}.amount`,
      o.amount,
    );

  for (let i = 0; i < o.unlockConditions.length; i++) {
    const uc = o.unlockConditions[i]!;
    const p = `${path}.unlockConditions[${i}]`;
    if (uc.type === UC_STORAGE_DEPOSIT_RETURN) {
      const minReturn = minStorageDepositReturn(uc.returnAddress, protocol.rentStructure);
      if (uc.amount < minReturn) {
        invalid(
          'INSUFFICIENT_STORAGE_DEPOSIT',
          `storage deposit return amount is below the minimum storage deposit ${minReturn}`,
          `${p}.amount`,
          uc.amount,
        );
      }
      if (uc.amount > o.amount)
        invalid(
          'VALUE_OUT_OF_RANGE',
          `storage deposit return amount exceeds the output amount ${o.amount}`,
          `${p}.amount`,
          uc.amount,
        );
    } else if ((uc.type === UC_TIMELOCK || uc.type === UC_EXPIRATION) && uc.unixTime === 0) {
      invalid(
        'VALUE_OUT_OF_RANGE',
        `${uc.type === UC_TIMELOCK ? 'timelock' : 'expiration'} unix time must not be zero`,
        `${p}.unixTime`,
        0,
      );
    }
  }

  for (let i = 0; i < o.nativeTokens.length; i++) {
    if (o.nativeTokens[i]!.amount === 0n)
      invalid('VALUE_OUT_OF_RANGE', 'native token amount must not be zero', `${path}.nativeTokens[${i}].amount`, 0n);
  }

  if (o.type === OUTPUT_ALIAS) {
    const zero = isZero(o.aliasId);
    if (zero && o.stateIndex !== 0)
      invalid(
        'INVALID_FIELD',
        'a new alias (zero alias ID) must have state index 0',
        `${path}.stateIndex`,
        o.stateIndex,
      );
    if (zero && o.foundryCounter !== 0)
      invalid(
        'INVALID_FIELD',
        'a new alias (zero alias ID) must have foundry counter 0',
        `${path}.foundryCounter`,
        o.foundryCounter,
      );
    if (!zero) {
      for (let i = 0; i < o.unlockConditions.length; i++) {
        const uc = o.unlockConditions[i]!;
        if (
          (uc.type === UC_STATE_CONTROLLER || uc.type === UC_GOVERNOR) &&
          uc.address.type === ADDRESS_ALIAS &&
          equalBytes(uc.address.aliasId, o.aliasId)
        ) {
          invalid(
            'INVALID_FIELD',
            `${uc.type === UC_STATE_CONTROLLER ? 'state controller' : 'governor'} must not be the alias's own address`,
            `${path}.unlockConditions[${i}].address`,
            uc.address.aliasId,
          );
        }
      }
    }
  } else if (o.type === OUTPUT_NFT && !isZero(o.nftId)) {
    for (let i = 0; i < o.unlockConditions.length; i++) {
      const uc = o.unlockConditions[i]!;
      if (uc.type === UC_ADDRESS && uc.address.type === ADDRESS_NFT && equalBytes(uc.address.nftId, o.nftId)) {
        invalid(
          'INVALID_FIELD',
          "address unlock condition must not be the NFT's own address",
          `${path}.unlockConditions[${i}].address`,
          uc.address.nftId,
        );
      }
    }
  } else if (o.type === OUTPUT_FOUNDRY) {
    const s = o.tokenScheme;
    const p = `${path}.tokenScheme`;
    if (s.maximumSupply === 0n)
      invalid('INVALID_FIELD', 'maximum supply must be greater than zero', `${p}.maximumSupply`, 0n);
    if (s.meltedTokens > s.mintedTokens)
      invalid(
        'INVALID_FIELD',
        `melted tokens exceed minted tokens ${s.mintedTokens}`,
        `${p}.meltedTokens`,
        s.meltedTokens,
      );
    if (s.mintedTokens - s.meltedTokens > s.maximumSupply) {
      invalid(
        'INVALID_FIELD',
        `circulating supply (minted - melted) exceeds the maximum supply ${s.maximumSupply}`,
        `${p}.mintedTokens`,
        s.mintedTokens,
      );
    }
  }
}

/** Chain IDs (non-zero alias / NFT IDs, every foundry ID) must be unique among the outputs. */
function checkChainIds(outputs: CommonOutput[], path: string): void {
  const seen = new Map<string, number>();
  for (let i = 0; i < outputs.length; i++) {
    const o = outputs[i]!;
    let key: string | undefined;
    if (o.type === OUTPUT_ALIAS && !isZero(o.aliasId)) key = 'alias:' + toHex(o.aliasId);
    else if (o.type === OUTPUT_NFT && !isZero(o.nftId)) key = 'nft:' + toHex(o.nftId);
    else if (o.type === OUTPUT_FOUNDRY) key = 'foundry:' + toHex(foundryId(o));
    if (key === undefined) continue;
    const j = seen.get(key);
    if (j !== undefined)
      invalid(
        'DUPLICATE',
        `output ${i} repeats the chain ID of output ${j}`,
        `${path}[${i}]`,
        key.slice(key.indexOf(':') + 1),
      );
    seen.set(key, i);
  }
}

function checkDistinctNativeTokens(outputs: CommonOutput[], path: string): void {
  const ids = new Set<string>();
  for (let i = 0; i < outputs.length; i++) {
    for (const t of outputs[i]!.nativeTokens) {
      ids.add(toHex(t.id));
      if (ids.size > LIMITS.maxDistinctNativeTokens) {
        invalid(
          'COUNT_OUT_OF_RANGE',
          `more than ${LIMITS.maxDistinctNativeTokens} distinct native token IDs over the outputs`,
          `${path}[${i}].nativeTokens`,
          ids.size,
        );
      }
    }
  }
}

function sameSignatureUnlock(a: Unlock, b: Unlock): boolean {
  return (
    a.type === UNLOCK_SIGNATURE &&
    b.type === UNLOCK_SIGNATURE &&
    equalBytes(a.signature.publicKey, b.signature.publicKey) &&
    equalBytes(a.signature.signature, b.signature.signature)
  );
}

/**
 * Unlocks (docs/protocol.md §10.2): count = inputs; unique signature unlocks; references point backwards
 * (reference -> signature).
 */
function checkUnlocks(unlocks: Unlock[], inputCount: number, path: string): void {
  checkList(unlocks, 'unlocks', LIMITS.inputs, path);
  if (unlocks.length !== inputCount)
    invalid(
      'COUNT_OUT_OF_RANGE',
      `unlock count ${unlocks.length} differs from input count ${inputCount}`,
      path,
      unlocks.length,
    );
  for (let i = 0; i < unlocks.length; i++) {
    const u = unlocks[i]!;
    const p = `${path}[${i}]`;
    checkUnlock(u, p);
    if (u.type === UNLOCK_SIGNATURE) {
      for (let j = 0; j < i; j++) {
        if (sameSignatureUnlock(unlocks[j]!, u))
          invalid('INVALID_UNLOCK', `signature unlock ${i} repeats signature unlock ${j}`, p);
      }
      continue;
    }
    if (u.reference >= i)
      invalid('INVALID_UNLOCK', `unlock ${i} must reference an earlier unlock`, `${p}.reference`, u.reference);
    if (u.type === 1 && unlocks[u.reference]!.type !== UNLOCK_SIGNATURE) {
      invalid(
        'INVALID_UNLOCK',
        `reference unlock ${i} must point to a signature unlock`,
        `${p}.reference`,
        u.reference,
      );
    }
  }
}

export function checkTransaction(tx: TransactionPayload, path: string, ctx: TransactionContext): void {
  const e = tx.essence;
  const ep = `${path}.essence`;
  if (!e || typeof e !== 'object') invalid('MISSING_FIELD', 'transaction essence is missing', ep);
  check(essenceKindProblem(e.type), `${ep}.type`, e.type);
  check(u64Problem('network ID', e.networkId), `${ep}.networkId`);
  if (e.networkId !== ctx.networkId)
    invalid(
      'NETWORK_ID_MISMATCH',
      `network ID differs from this node's ${ctx.networkId}`,
      `${ep}.networkId`,
      e.networkId,
    );
  checkInputs(e.inputs, `${ep}.inputs`);
  checkBytes(e.inputsCommitment, ID_LENGTH, 'inputs commitment', `${ep}.inputsCommitment`);
  checkList(e.outputs, 'outputs', LIMITS.outputs, `${ep}.outputs`);
  let sum = 0n;
  for (let i = 0; i < e.outputs.length; i++) {
    const o = e.outputs[i]!;
    const p = `${ep}.outputs[${i}]`;
    checkOutputShape(o, p, 'essence');
    checkOutputRules(o, p, ctx.protocol);
    sum += o.amount;
    if (sum > ctx.protocol.tokenSupply)
      invalid(
        'SUPPLY_EXCEEDED',
        `the sum of the output amounts exceeds the token supply ${ctx.protocol.tokenSupply}`,
        `${p}.amount`,
        sum,
      );
  }
  checkDistinctNativeTokens(e.outputs, `${ep}.outputs`);
  checkChainIds(e.outputs, `${ep}.outputs`);
  if (e.payload !== undefined && e.payload !== null) checkTaggedData(e.payload, `${ep}.payload`, 'essence');
  checkUnlocks(tx.unlocks, e.inputs.length, `${path}.unlocks`);
}
