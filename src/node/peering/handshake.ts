/**
 * The peer handshake, protocol 2: each side proves its Ed25519 identity key by signing the other side's fresh nonce.
 *
 *   A -> B  Handshake { network name, node ID, protocol 2, public key A, nonce nA }   when the stream opens
 *   B -> A  Handshake { network name, node ID, protocol 2, public key B, nonce nB }   when the stream opens
 *   A -> B  HandshakeProof { sign_A(transcript(signer A, verifier B, nB, nA)) }        once B's Handshake arrived
 *   B -> A  HandshakeProof { sign_B(transcript(signer B, verifier A, nA, nB)) }        once A's Handshake arrived
 *
 *   transcript = "ledger-node peer handshake v2" || network ID (u64 LE) || signer key || verifier key
 *                || verifier's nonce || signer's nonce
 *
 * A peer counts as connected only once its proof verified. Replaying a recorded handshake fails: the verifier's nonce
 * is 32 random bytes chosen for each stream, so an old signature is over another nonce. A proof cannot be reflected
 * (sent back to its signer) because the transcript orders the keys by role, nor used on another network (its ID is
 * signed). The node ID is derived from the key (`nodeIdOf`), so a peer cannot claim another's ID. Proofs are checked
 * strictly (RFC 8032, not ZIP-215 as transactions are) and a key of small order is refused: with such a key a
 * cofactored check accepts one signature for every message, which would make a proof replayable. What this does not
 * give: a binding of the proven key to the channel. A relay that opens streams to two nodes and forwards their
 * handshakes to each other is taken by each for the other, and can then inject messages (there is no session key).
 * TLS on the peer door (`--peer-tls-*`) protects a node's outbound streams (it checks the server it dialed) but not
 * its inbound ones (clients are not authenticated). So a node bans node IDs only for streams it dialed (peers.ts
 * drop). The remedy is an authenticated key exchange (ephemeral X25519 keys signed in the proofs, messages sealed
 * with the derived key), left for a later protocol version.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { concatBytes } from '../../core/bytes.ts';
import { blake2b256, ed25519PublicKeyFromSeed, ed25519Sign } from '../../core/crypto/index.ts';
import type { Handshake } from '../../grpc/gen/peer.ts';
import { NODE_ID_BYTES, PEER_PROTOCOL } from './wire.ts';

export const PUBLIC_KEY_BYTES = 32;
export const NONCE_BYTES = 32;
const DOMAIN = new TextEncoder().encode('ledger-node peer handshake v2');

/** The node's identity as the peer layer uses it: its public key and a signer (the key stays with its owner). */
export interface PeerIdentity {
  readonly publicKey: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/** The node ID of a public key: the first 16 bytes of its BLAKE2b-256. */
export function nodeIdOf(publicKey: Uint8Array): Uint8Array {
  return blake2b256(publicKey).slice(0, NODE_ID_BYTES);
}

/** The Handshake this node sends when a stream opens, with a fresh nonce: the one the peer's proof must sign. */
export function ownHandshake(identity: PeerIdentity, networkName: string): Handshake {
  return {
    networkName,
    nodeId: nodeIdOf(identity.publicKey),
    protocol: PEER_PROTOCOL,
    publicKey: identity.publicKey,
    nonce: crypto.getRandomValues(new Uint8Array(NONCE_BYTES)),
  };
}

/** An identity that lives as long as the process (a node composed without a data folder: tests, benchmarks). */
export function ephemeralIdentity(): PeerIdentity {
  const seed = crypto.getRandomValues(new Uint8Array(32));
  return { publicKey: ed25519PublicKeyFromSeed(seed), sign: (m) => ed25519Sign(seed, m) };
}

function transcript(
  networkId: bigint,
  signer: Uint8Array,
  verifier: Uint8Array,
  verifierNonce: Uint8Array,
  signerNonce: Uint8Array,
): Uint8Array {
  const id = new Uint8Array(8);
  new DataView(id.buffer).setBigUint64(0, networkId, true);
  return concatBytes(DOMAIN, id, signer, verifier, verifierNonce, signerNonce);
}

/** Our proof for a peer whose Handshake carried `theirKey` and `theirNonce`; `ourNonce` is the one we sent it. */
export function proveIdentity(
  identity: PeerIdentity,
  networkId: bigint,
  theirKey: Uint8Array,
  theirNonce: Uint8Array,
  ourNonce: Uint8Array,
): Uint8Array {
  return identity.sign(transcript(networkId, identity.publicKey, theirKey, theirNonce, ourNonce));
}

/** Whether `publicKey` can be an identity: 32 bytes, a point of the curve, not of small order. */
export function usableIdentityKey(publicKey: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES) return false;
  try {
    return !ed25519.Point.fromBytes(publicKey).isSmallOrder();
  } catch {
    return false;
  }
}

/** Whether a peer's proof is its key's signature over our nonce (see the file comment); the key must be usable. */
export function proofVerifies(
  networkId: bigint,
  ourKey: Uint8Array,
  ourNonce: Uint8Array,
  theirKey: Uint8Array,
  theirNonce: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (signature.length !== 64) return false;
  try {
    return ed25519.verify(signature, transcript(networkId, theirKey, ourKey, ourNonce, theirNonce), theirKey, {
      zip215: false,
    });
  } catch {
    return false;
  }
}
