/** Slots and epochs (docs/protocol.md §V7.2; iota.go TimeProvider). */
import type { TimeParametersV3 } from '../model/params.ts';

const NS = 1_000_000_000n;

/** Slot of a time in nanoseconds since the Unix epoch; times before genesis map to the genesis slot. */
export function slotFromTime(issuingTimeNs: bigint, params: TimeParametersV3): number {
  const elapsed = issuingTimeNs - BigInt(params.genesisUnixTimestamp) * NS;
  if (elapsed < 0n) return params.genesisSlot;
  const slot = BigInt(params.genesisSlot) + elapsed / NS / BigInt(params.slotDurationInSeconds) + 1n;
  if (slot > 0xffffffffn) throw new RangeError(`time ${issuingTimeNs} is beyond the last slot`);
  return Number(slot);
}

/** Epoch of a slot (slots before genesis are in epoch 0). */
export function epochFromSlot(slot: number, params: TimeParametersV3): number {
  if (slot < params.genesisSlot) return 0;
  return Math.floor((slot - params.genesisSlot) / 2 ** params.slotsPerEpochExponent);
}

/** First slot of an epoch. */
export function epochStartSlot(epoch: number, params: TimeParametersV3): number {
  return params.genesisSlot + epoch * 2 ** params.slotsPerEpochExponent;
}

/** Slots from `slot` to the first slot of the next epoch. */
export function slotsBeforeNextEpoch(slot: number, params: TimeParametersV3): number {
  if (slot < params.genesisSlot) return 0;
  return epochStartSlot(epochFromSlot(slot, params) + 1, params) - slot;
}

/** Slots from the first slot of `slot`'s epoch to `slot`. */
export function slotsSinceEpochStart(slot: number, params: TimeParametersV3): number {
  if (slot < params.genesisSlot) return 0;
  return slot - epochStartSlot(epochFromSlot(slot, params), params);
}

/** The slot in the last 4 bytes (LE) of a 36-byte block / commitment / transaction ID. */
export function slotOfId(id: Uint8Array): number {
  if (id.length < 4) throw new RangeError(`an ID needs at least 4 bytes, got ${id.length}`);
  return new DataView(id.buffer, id.byteOffset + id.length - 4, 4).getUint32(0, true);
}

/** `hash ‖ slot LE` (36 bytes). */
export function idWithSlot(hash: Uint8Array, slot: number): Uint8Array {
  const out = new Uint8Array(hash.length + 4);
  out.set(hash);
  new DataView(out.buffer).setUint32(hash.length, slot, true);
  return out;
}
