/**
 * The peer wire protocol's fixed facts (proto/peer.proto) as the parts of the peer layer share them: the protocol
 * number, the node ID length, the one way a block message is built, and `Misbehaviour`, the error a peer's protocol
 * violation raises (the peer is disconnected and its node ID banned).
 */
import type { BlockVersion, PeerMessage } from '../../grpc/gen/peer.ts';

/** 2: identity keys proven in the handshake (handshake.ts); a peer of protocol 1 is refused. */
export const PEER_PROTOCOL = 2;
export const NODE_ID_BYTES = 16;

/** A block message: `data` is the block's bytes in `version`'s encoding. */
export function blockMessage(version: BlockVersion, data: Uint8Array): PeerMessage {
  return { kind: { $case: 'block', value: { version, data } } };
}

/** A peer broke the protocol; whoever handles the peer's message drops (and bans) it. */
export class Misbehaviour extends Error {}

export function bad(reason: string): never {
  throw new Misbehaviour(reason);
}
