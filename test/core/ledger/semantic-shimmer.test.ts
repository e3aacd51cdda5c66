/**
 * The 16 real Shimmer mainnet transactions of milestones 17339..17341: resolved against the 27 outputs they consume,
 * with the confirming milestone's index and timestamp and the Shimmer parameters, each must get exactly the
 * inclusion state / conflict reason the node recorded.
 */
import { expect } from 'chai';
import { fromHex, toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, decodeCommonOutput } from '../../../src/core/codec/index.ts';
import { CONFLICT } from '../../../src/core/ledger/conflict.ts';
import { validateTransactionSemantics, type SemanticInput } from '../../../src/core/ledger/semantic.ts';
import { inputsCommitmentOf, outputId } from '../../../src/core/ids/index.ts';
import {
  PAYLOAD_TRANSACTION,
  SHIMMER_PROTOCOL,
  UNLOCK_SIGNATURE,
  type CommonOutput,
  type TransactionPayload,
} from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

interface ConeBlock {
  whiteFlagIndex: number;
  blockId: string;
  inclusionState: string;
  conflictReason: string;
  bytes: string;
}
interface Milestone {
  index: number;
  confirmationTimestamp: number;
  milestonePayloadJson: { timestamp: number };
  coneInWhiteFlagOrder: ConeBlock[];
  derived: { referencedInputOutputs: Record<string, { outputBytes: string }> };
}

/** Conflict names as inx-chronicle writes them (snake_case of Hornet's reasons). */
const REASON_BY_NAME: Record<string, number> = {
  none: CONFLICT.none,
  input_utxo_already_spent: CONFLICT.inputAlreadySpent,
  input_utxo_already_spent_in_this_milestone: CONFLICT.inputSpentInThisMilestone,
  input_utxo_not_found: CONFLICT.inputNotFound,
  created_consumed_amount_mismatch: CONFLICT.amountMismatch,
  invalid_signature: CONFLICT.invalidSignature,
  timelock_not_expired: CONFLICT.timelockNotExpired,
  invalid_native_tokens: CONFLICT.invalidNativeTokens,
  storage_deposit_return_unfulfilled: CONFLICT.returnAmountNotFulfilled,
  invalid_unlock: CONFLICT.invalidInputUnlock,
  inputs_commitments_mismatch: CONFLICT.invalidInputsCommitment,
  unverified_sender: CONFLICT.senderNotUnlocked,
  invalid_chain_state_transition: CONFLICT.invalidChainStateTransition,
  semantic_validation_failed: CONFLICT.semanticValidationFailed,
};

const data = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
const milestones: Milestone[] = data.milestones;

/** Every consumed output of the file, by 0x output ID. */
const consumed = new Map<string, CommonOutput>();
for (const m of milestones) {
  for (const [id, o] of Object.entries(m.derived.referencedInputOutputs))
    consumed.set(id.toLowerCase(), decodeCommonOutput(fromHex(o.outputBytes)));
}

function resolve(tx: TransactionPayload): SemanticInput[] {
  return tx.essence.inputs.map((input) => {
    const id = outputId(input.transactionId, input.transactionOutputIndex);
    const output = consumed.get(toHex0x(id));
    if (!output) throw new Error(`vector file lacks consumed output ${toHex0x(id)}`);
    return { outputId: id, output };
  });
}

describe('semantic validation: real Shimmer transactions (milestones 17339-17341)', () => {
  it('the vector file holds 16 transactions and 27 consumed outputs', () => {
    const txs = milestones.flatMap((m) => m.coneInWhiteFlagOrder.filter((b) => b.inclusionState !== 'no_transaction'));
    expect(txs).to.have.length(16);
    expect(consumed.size).to.equal(27);
  });

  for (const m of milestones) {
    const ctx = {
      milestoneIndex: m.index,
      milestoneTimestamp: m.milestonePayloadJson.timestamp,
      protocol: SHIMMER_PROTOCOL,
    };
    for (const block of m.coneInWhiteFlagOrder) {
      if (block.inclusionState === 'no_transaction') continue;
      it(
        `milestone ${m.index}, block ${block.blockId.slice(0, 18)}…: ` +
          `${block.inclusionState} / ${block.conflictReason}`,
        () => {
          const payload = decodeBlock(fromHex(block.bytes)).payload;
          expect(payload?.type).to.equal(PAYLOAD_TRANSACTION);
          const tx = payload as TransactionPayload;
          const expected = REASON_BY_NAME[block.conflictReason];
          expect(expected, `unknown conflict name ${block.conflictReason}`).to.not.equal(undefined);
          expect(block.inclusionState === 'included').to.equal(expected === CONFLICT.none);
          const result = validateTransactionSemantics(tx, resolve(tx), ctx);
          expect(result, result.message).to.deep.equal(
            expected === CONFLICT.none ? { reason: 0 } : { reason: expected, message: result.message },
          );
        },
      );
    }
  }

  it('a real transaction with a wrong inputs commitment, a tampered signature or a changed amount conflicts', () => {
    const m = milestones[0]!;
    const block = m.coneInWhiteFlagOrder.find((b) => b.inclusionState === 'included')!;
    const tx = decodeBlock(fromHex(block.bytes)).payload as TransactionPayload;
    const ctx = {
      milestoneIndex: m.index,
      milestoneTimestamp: m.milestonePayloadJson.timestamp,
      protocol: SHIMMER_PROTOCOL,
    };
    const inputs = resolve(tx);
    const bad: TransactionPayload = { ...tx, essence: { ...tx.essence, inputsCommitment: new Uint8Array(32) } };
    expect(validateTransactionSemantics(bad, inputs, ctx).reason).to.equal(CONFLICT.invalidInputsCommitment);
    const first = tx.unlocks[0]!;
    expect(first.type).to.equal(UNLOCK_SIGNATURE);
    if (first.type !== UNLOCK_SIGNATURE) return;
    const sig = first.signature.signature.slice();
    sig[0] ^= 1;
    const forged: TransactionPayload = {
      ...tx,
      unlocks: [{ ...first, signature: { ...first.signature, signature: sig } }, ...tx.unlocks.slice(1)],
    };
    expect(validateTransactionSemantics(forged, inputs, ctx).reason).to.equal(CONFLICT.invalidSignature);
    const richer = inputs.map((i, k) =>
      k === 0 ? { ...i, output: { ...i.output, amount: i.output.amount + 1n } } : i,
    );
    const recommitted: TransactionPayload = {
      ...tx,
      essence: { ...tx.essence, inputsCommitment: inputsCommitmentOf(richer.map((i) => i.output)) },
    };
    // the essence changed, so the real signatures no longer verify: 5, not 4
    expect(validateTransactionSemantics(recommitted, richer, ctx).reason).to.equal(CONFLICT.invalidSignature);
    expect(validateTransactionSemantics(tx, richer, ctx).reason).to.equal(CONFLICT.invalidInputsCommitment);
  });
});
