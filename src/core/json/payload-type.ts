/** The payload type family and the contexts that restrict it (docs/protocol.md §1.2). */
import {
  PAYLOAD_MILESTONE,
  PAYLOAD_TAGGED_DATA,
  PAYLOAD_TRANSACTION,
  PAYLOAD_TREASURY_TRANSACTION,
} from '../model/index.ts';
import type { TypeContext, TypeFamily } from './type.ts';

/** Types 0..3 are Chrysalis payloads and type 1 in a stale TIP-25 sample is not a milestone: all UNKNOWN_TYPE. */
export const PAYLOAD_TYPES: TypeFamily = {
  what: 'payload',
  names: {
    [PAYLOAD_TREASURY_TRANSACTION]: 'treasury transaction',
    [PAYLOAD_TAGGED_DATA]: 'tagged data',
    [PAYLOAD_TRANSACTION]: 'transaction',
    [PAYLOAD_MILESTONE]: 'milestone',
  },
};

export const PAYLOAD_IN_BLOCK: TypeContext = {
  allowed: [PAYLOAD_TAGGED_DATA, PAYLOAD_TRANSACTION, PAYLOAD_MILESTONE],
  where: 'a block',
};
export const PAYLOAD_IN_ESSENCE: TypeContext = { allowed: [PAYLOAD_TAGGED_DATA], where: 'a transaction essence' };
export const PAYLOAD_IN_RECEIPT: TypeContext = {
  allowed: [PAYLOAD_TREASURY_TRANSACTION],
  where: 'a receipt milestone option',
};
