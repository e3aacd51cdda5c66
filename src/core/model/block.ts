/** The Stardust block (TIP-24 / docs/protocol.md §2); its bounds are in limits.ts. */
import type { BlockPayload } from './payload.ts';

export interface Block {
  protocolVersion: number;
  /** 1..8 block IDs (32 bytes), strictly ascending. */
  parents: Uint8Array[];
  payload?: BlockPayload;
  nonce: bigint;
}
