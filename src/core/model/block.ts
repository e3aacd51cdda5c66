/** The Stardust block (TIP-24 / spec §2). */
import type { BlockPayload } from './payload.ts';

export const PROTOCOL_VERSION = 2;
export const MAX_BLOCK_LENGTH = 32768;
export const MIN_PARENTS = 1;
export const MAX_PARENTS = 8;

export interface Block {
  protocolVersion: number;
  /** 1..8 block IDs (32 bytes), strictly ascending. */
  parents: Uint8Array[];
  payload?: BlockPayload;
  nonce: bigint;
}
