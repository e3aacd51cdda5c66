/**
 * Block rules that depend on time and the protocol parameters (docs/protocol.md §V3.6): commitment age relative to the
 * block's slot, and a signed transaction's creation slot and commitment input. Kept apart from decoding because
 * valid-looking historic or example blocks may fail them.
 */
import { reject } from '../errors.ts';
import type { BlockV3 } from './model/block.ts';
import type { ProtocolParametersV3 } from './model/params.ts';
import { slotFromTime, slotOfId } from './ids/slot.ts';

export type TimingParamsV3 = Pick<
  ProtocolParametersV3,
  | 'genesisSlot'
  | 'genesisUnixTimestamp'
  | 'slotDurationInSeconds'
  | 'slotsPerEpochExponent'
  | 'minCommittableAge'
  | 'maxCommittableAge'
>;

export function checkBlockTimingV3(block: BlockV3, params: TimingParamsV3): void {
  const blockSlot = slotFromTime(block.header.issuingTime, params);
  const cSlot = slotOfId(block.header.slotCommitmentId);
  const { minCommittableAge: minAge, maxCommittableAge: maxAge } = params;
  if (cSlot > params.genesisSlot && cSlot + minAge > blockSlot) {
    fail(
      'header.slotCommitmentId',
      `commitment slot ${cSlot} is too recent for block slot ${blockSlot} (min committable age ${minAge})`,
    );
  }
  if (blockSlot > cSlot + maxAge) {
    fail(
      'header.slotCommitmentId',
      `commitment slot ${cSlot} is too old for block slot ${blockSlot} (max committable age ${maxAge})`,
    );
  }
  const body = block.body;
  if (body.type !== 0 || body.payload?.type !== 1) return;
  const tx = body.payload.transaction;
  if (blockSlot < tx.creationSlot)
    fail(
      'body.payload.transaction.creationSlot',
      `creation slot ${tx.creationSlot} is after the block slot ${blockSlot}`,
    );
  const ci = tx.contextInputs.find((c) => c.type === 0);
  if (ci && ci.type === 0) {
    const ciSlot = slotOfId(ci.commitmentId);
    const field = 'body.payload.transaction.contextInputs[0].commitmentId';
    if (ciSlot !== 0 && ciSlot + minAge > blockSlot)
      fail(field, `commitment input slot ${ciSlot} is too recent for block slot ${blockSlot}`);
    if (blockSlot > ciSlot + maxAge)
      fail(field, `commitment input slot ${ciSlot} is too old for block slot ${blockSlot}`);
    if (ciSlot > cSlot) fail(field, `commitment input slot ${ciSlot} is after the block's commitment slot ${cSlot}`);
  }
}

function fail(field: string, message: string): never {
  return reject('INVALID_FIELD', `Cannot accept block: ${message}`, { field });
}
