/** Shared helpers for the v3 tests: vectors, the TIP-49 parameters, hex. */
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { protocolParametersFromJsonV3, type ProtocolParametersV3 } from '../../../src/core/v3/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Any = any;

export const blocks: Any = loadVectors('nova-v3/blocks.json');
export const transactions: Any = loadVectors('nova-v3/transactions.json');
export const outputs: Any = loadVectors('nova-v3/outputs.json');
export const misc: Any = loadVectors('nova-v3/ids-and-misc.json');
export const mana: Any = loadVectors('nova-v3/mana.json');

/** The TIP-49 parameters every vector names as "tip49", read from their own JSON vector. */
export const params: ProtocolParametersV3 = protocolParametersFromJsonV3(misc.protocolParameters[0].json);

export const hex = (s: string): Uint8Array => fromHex0x(s);
export const h = (b: Uint8Array): string => toHex0x(b);

/** A copy of a JSON value without keys whose value is an empty array (the source sometimes writes them). */
export function dropEmptyLists(v: Any): Any {
  if (Array.isArray(v)) return v.map(dropEmptyLists);
  if (v && typeof v === 'object') {
    const out: Any = {};
    for (const [k, x] of Object.entries(v)) if (!(Array.isArray(x) && x.length === 0)) out[k] = dropEmptyLists(x);
    return out;
  }
  return v;
}

/** Runs `fn` and returns the ProtocolError it throws (fails when it throws something else or nothing). */
export { protocolErrorOf as protocolError } from '../../support/protocol-error.ts';
