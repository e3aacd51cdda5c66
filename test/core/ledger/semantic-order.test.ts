/**
 * Evaluation order (docs/protocol.md §16, iota.go `SemanticallyValidate`): when a transaction breaks several rules, the
 * first step in the order timelock → commitment → unlocks → sender → balance → return amounts → native tokens → chains
 * decides.
 */
import { CONFLICT } from '../../../src/core/ledger/conflict.ts';
import { UC_STORAGE_DEPOSIT_RETURN, UC_TIMELOCK } from '../../../src/core/model/index.ts';
import {
  NOW,
  basic,
  expectConflict,
  id32,
  input,
  key,
  nft,
  sender,
  tokenId,
  tokens,
  validate,
} from './semantic/builder.ts';

const A = key(1);
const B = key(2);
const C = key(3);
const tid = tokenId(id32(0x42), 1);

/** One input of A (optionally time-locked / with an SDR to B) and outputs chosen per case. */
function consumed(opts: { locked?: boolean; sdr?: bigint } = {}) {
  const conditions = [];
  if (opts.sdr)
    conditions.push({ type: UC_STORAGE_DEPOSIT_RETURN, returnAddress: B.address, amount: opts.sdr } as const);
  if (opts.locked) conditions.push({ type: UC_TIMELOCK, unixTime: NOW + 1 } as const);
  return input(basic(1000n, A.address, { conditions, nativeTokens: tokens([tid, 10n]) }), 1);
}

describe('semantic validation: evaluation order', () => {
  it('timelock (6) before a bad commitment (10)', () => {
    expectConflict(
      validate([consumed({ locked: true })], [basic(1000n, B.address)], [{ sig: A }], { inputsCommitment: id32(1) }),
      CONFLICT.timelockNotExpired,
    );
  });
  it('commitment (10) before a bad signature (5)', () => {
    expectConflict(
      validate([consumed()], [basic(1000n, B.address)], [{ badSig: A }], { inputsCommitment: id32(1) }),
      CONFLICT.invalidInputsCommitment,
    );
  });
  it('signature (5) before an unlocked sender (11)', () => {
    expectConflict(
      validate([consumed()], [basic(1000n, B.address, { features: [sender(C.address)] })], [{ badSig: A }]),
      CONFLICT.invalidSignature,
    );
  });
  it('sender (11) before the base token balance (4)', () => {
    expectConflict(
      validate([consumed()], [basic(1n, B.address, { features: [sender(C.address)] })], [{ sig: A }]),
      CONFLICT.senderNotUnlocked,
    );
  });
  it('balance (4) before return amounts (8)', () => {
    expectConflict(
      validate([consumed({ sdr: 500n })], [basic(999n, C.address)], [{ sig: A }]),
      CONFLICT.amountMismatch,
    );
  });
  it('return amounts (8) before native tokens (7)', () => {
    const out = [basic(1000n, C.address, { nativeTokens: tokens([tid, 11n]) })];
    expectConflict(validate([consumed({ sdr: 500n })], out, [{ sig: A }]), CONFLICT.returnAmountNotFulfilled);
  });
  it('native tokens (7) before chain transitions (12)', () => {
    const out = [nft(1000n, id32(0x77), C.address, { nativeTokens: tokens([tid, 11n]) })];
    expectConflict(validate([consumed()], out, [{ sig: A }]), CONFLICT.invalidNativeTokens);
    expectConflict(
      validate([consumed()], [nft(1000n, id32(0x77), C.address, { nativeTokens: tokens([tid, 10n]) })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
    );
  });
});
