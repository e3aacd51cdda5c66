/**
 * Step 3 (TIP-20 unlock validation, iota.go `TxSemanticInputUnlocks`): unlock every input in order.
 * - Alias/NFT-address owner: an Alias/NFT Unlock pointing to the input where that chain was unlocked (9 otherwise).
 * - Ed25519 owner: a Reference Unlock pointing to the input whose signature unlocked that address (9 otherwise), or a
 *   Signature Unlock from the matching key with a ZIP-215-valid signature over the essence hash (5 otherwise); a second
 *   Signature Unlock for an address that is already unlocked is invalid (9).
 * - A consumed NFT, or an alias that is state-transitioned, unlocks its own address for later inputs.
 */
import { equalBytes, toHex0x } from '../../bytes.ts';
import { blake2b256 } from '../../crypto/blake2b.ts';
import { ed25519Verify } from '../../crypto/ed25519.ts';
import { ADDRESS_ALIAS, ADDRESS_ED25519, type Address, type Ed25519Address } from '../../model/address.ts';
import { OUTPUT_ALIAS, OUTPUT_NFT, type AliasOutput } from '../../model/output.ts';
import { UNLOCK_ALIAS, UNLOCK_NFT, UNLOCK_REFERENCE, UNLOCK_SIGNATURE, type Unlock } from '../../model/transaction.ts';
import { CONFLICT } from '../conflict.ts';
import { inputChain } from './chains.ts';
import { addressKey, describeAddress } from './describe.ts';
import { nextStateIndex, ownerOf } from './owner.ts';
import { conflict, type StepResult } from './result.ts';
import type { WorkingSet } from './working-set.ts';

const UNLOCK_NAMES: Record<number, string> = {
  [UNLOCK_SIGNATURE]: 'signature unlock',
  [UNLOCK_REFERENCE]: 'reference unlock',
  [UNLOCK_ALIAS]: 'alias unlock',
  [UNLOCK_NFT]: 'NFT unlock',
};

function unlockName(u: Unlock): string {
  return UNLOCK_NAMES[u.type] ?? `unlock type ${String((u as Unlock).type)}`;
}

function invalidUnlock(i: number, why: string): StepResult {
  return conflict(CONFLICT.invalidInputUnlock, `input ${i}: ${why}`);
}

function unlockChainOwned(ws: WorkingSet, owner: Address, unlock: Unlock, i: number): StepResult {
  const wanted = owner.type === ADDRESS_ALIAS ? UNLOCK_ALIAS : UNLOCK_NFT;
  if (unlock.type !== wanted) {
    return invalidUnlock(
      i,
      `owned by ${describeAddress(owner)} but has a ${unlockName(unlock)} (needs an ${UNLOCK_NAMES[wanted]})`,
    );
  }
  if (!ws.unlocked.reference(addressKey(owner), unlock.reference, i)) {
    return invalidUnlock(
      i,
      `${UNLOCK_NAMES[wanted]} references input ${unlock.reference}, which did not unlock ${describeAddress(owner)}`,
    );
  }
  return undefined;
}

function unlockEd25519Owned(ws: WorkingSet, owner: Ed25519Address, unlock: Unlock, i: number): StepResult {
  const key = addressKey(owner);
  if (unlock.type === UNLOCK_REFERENCE) {
    if (!ws.unlocked.reference(key, unlock.reference, i)) {
      return invalidUnlock(
        i,
        `reference unlock points to input ${unlock.reference}, which did not unlock ${describeAddress(owner)}`,
      );
    }
    return undefined;
  }
  if (unlock.type !== UNLOCK_SIGNATURE) {
    return invalidUnlock(i, `owned by ${describeAddress(owner)} but has an ${unlockName(unlock)}`);
  }
  const earlier = ws.unlocked.get(key);
  if (earlier) {
    return invalidUnlock(
      i,
      `${describeAddress(owner)} is already unlocked by input ${earlier.unlockedAt}; a reference unlock is required`,
    );
  }
  const { publicKey, signature } = unlock.signature;
  if (!equalBytes(blake2b256(publicKey), owner.pubKeyHash)) {
    return conflict(
      CONFLICT.invalidSignature,
      `input ${i}: public key ${toHex0x(publicKey)} does not belong to ${describeAddress(owner)}`,
    );
  }
  if (!ed25519Verify(publicKey, ws.essenceHash, signature)) {
    return conflict(CONFLICT.invalidSignature, `input ${i}: signature does not verify for ${describeAddress(owner)}`);
  }
  ws.unlocked.add(key, i);
  return undefined;
}

/** After input `i` is unlocked: an NFT, or a state-transitioned alias, makes its chain address unlocked. */
function markChainUnlocked(ws: WorkingSet, i: number): void {
  const input = ws.inputs[i]!;
  const output = input.output;
  if (output.type !== OUTPUT_ALIAS && output.type !== OUTPUT_NFT) return;
  const chain = inputChain(output, input.outputId, i);
  if (output.type === OUTPUT_ALIAS) {
    const next = ws.outChains.get(chain.key);
    if (!next || (next.output as AliasOutput).stateIndex !== nextStateIndex(output.stateIndex)) return;
  }
  ws.unlocked.add(chain.key, i);
}

export function checkUnlocks(ws: WorkingSet): StepResult {
  const unlocks = ws.tx.unlocks;
  for (let i = 0; i < ws.inputs.length; i++) {
    const owner = ownerOf(ws, ws.inputs[i]!.output, i);
    if ('failure' in owner) return owner.failure;
    const unlock = unlocks[i];
    if (!unlock) return invalidUnlock(i, `has no unlock (${unlocks.length} unlocks for ${ws.inputs.length} inputs)`);
    const failure =
      owner.address.type === ADDRESS_ED25519
        ? unlockEd25519Owned(ws, owner.address, unlock, i)
        : unlockChainOwned(ws, owner.address, unlock, i);
    if (failure) return failure;
    markChainUnlocked(ws, i);
  }
  return undefined;
}
