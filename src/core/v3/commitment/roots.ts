/**
 * The roots a slot commitment commits to (docs/protocol.md §V7.12; iota.go `commitment_roots.go`): eight 32-byte
 * identifiers in this order, serialized as their concatenation (256 bytes). The commitment's `rootsId` is the Merkle
 * root (iota.go merklehasher, the same tree as TIP-4: src/core/ids/merkle.ts) over the eight values in that order,
 * NOT a hash of the 256 bytes.
 *
 * iota-core fills most roots from sparse Merkle trees (hive.go `ads`); this node builds the sets' roots with the
 * ordinary Merkle tree over the sorted members (`idSetRootV3`), so its roots never equal iota-core's for the same
 * content (docs/decisions.md, slot commitments).
 */
import { compareBytes } from '../../bytes.ts';
import { blake2b256 } from '../../crypto/blake2b.ts';
import { reject } from '../../errors.ts';
import { merkleRoot } from '../ids/merkle.ts';

export interface SlotRootsV3 {
  /** The accepted blocks of the slot. */
  tangleRoot: Uint8Array;
  /** The transactions the slot's commitment covers (accepted, applied to the ledger). */
  stateMutationRoot: Uint8Array;
  /** The ledger state (unspent outputs). */
  stateRoot: Uint8Array;
  /** The accounts (Block Issuance Credit, keys, expiry). */
  accountRoot: Uint8Array;
  /** The attestations the commitment counts (see attestationsRootV3). */
  attestationsRoot: Uint8Array;
  /** The committee's account IDs. */
  committeeRoot: Uint8Array;
  /** The staking rewards of the epoch. */
  rewardsRoot: Uint8Array;
  /** iota.go `VersionsAndProtocolParametersHash` (versionsAndProtocolParametersHashV3). */
  protocolParametersHash: Uint8Array;
}

/** The fields in serialization order (iota.go `Roots.values()`). */
export const SLOT_ROOTS_FIELDS_V3 = [
  'tangleRoot',
  'stateMutationRoot',
  'stateRoot',
  'accountRoot',
  'attestationsRoot',
  'committeeRoot',
  'rewardsRoot',
  'protocolParametersHash',
] as const satisfies readonly (keyof SlotRootsV3)[];

export const SLOT_ROOTS_LENGTH_V3 = 32 * SLOT_ROOTS_FIELDS_V3.length;

/** A root this node does not compute (and iota-core's root of an empty window): 32 zero bytes. */
export const ZERO_ROOT_V3: Uint8Array = new Uint8Array(32);

function checkRoots(roots: SlotRootsV3): void {
  for (const f of SLOT_ROOTS_FIELDS_V3) {
    const v = roots[f];
    if (!(v instanceof Uint8Array) || v.length !== 32)
      throw new RangeError(`slot roots: ${f} must be 32 bytes, got ${v instanceof Uint8Array ? v.length : typeof v}`);
  }
}

/** The 256 bytes of the roots: the eight values concatenated. */
export function encodeSlotRootsV3(roots: SlotRootsV3): Uint8Array {
  checkRoots(roots);
  const out = new Uint8Array(SLOT_ROOTS_LENGTH_V3);
  SLOT_ROOTS_FIELDS_V3.forEach((f, i) => {
    out.set(roots[f], 32 * i);
  });
  return out;
}

export function decodeSlotRootsV3(bytes: Uint8Array): SlotRootsV3 {
  if (bytes.length < SLOT_ROOTS_LENGTH_V3)
    reject('TRUNCATED', `Cannot decode slot roots: need ${SLOT_ROOTS_LENGTH_V3} bytes, got ${bytes.length}`);
  if (bytes.length > SLOT_ROOTS_LENGTH_V3)
    reject('TRAILING_BYTES', `Cannot decode slot roots: ${bytes.length - SLOT_ROOTS_LENGTH_V3} bytes after the roots`, {
      offset: SLOT_ROOTS_LENGTH_V3,
    });
  const part = (i: number): Uint8Array => bytes.slice(32 * i, 32 * (i + 1));
  return {
    tangleRoot: part(0),
    stateMutationRoot: part(1),
    stateRoot: part(2),
    accountRoot: part(3),
    attestationsRoot: part(4),
    committeeRoot: part(5),
    rewardsRoot: part(6),
    protocolParametersHash: part(7),
  };
}

/** `rootsId`: the Merkle root over the eight values in field order (iota.go `Roots.ID()`). */
export function rootsIdV3(roots: SlotRootsV3): Uint8Array {
  checkRoots(roots);
  return merkleRoot(SLOT_ROOTS_FIELDS_V3.map((f) => roots[f]));
}

/**
 * The root of a set of IDs: the Merkle root over the members sorted by their bytes, duplicates once; an empty set
 * has the zero root. (iota-core: the root of a hive.go `ads.Set`, a sparse Merkle tree.)
 */
export function idSetRootV3(ids: readonly Uint8Array[]): Uint8Array {
  if (ids.length === 0) return ZERO_ROOT_V3.slice();
  const sorted = [...ids].sort(compareBytes);
  const unique = sorted.filter((id, i) => i === 0 || compareBytes(sorted[i - 1]!, id) !== 0);
  return merkleRoot(unique);
}

/** One protocol version the network runs or has scheduled, with the hash of its parameters. */
export interface ProtocolVersionV3 {
  version: number;
  startEpoch: number;
  /** BLAKE2b-256 of the serialized parameters (protocolParametersHashV3). */
  parametersHash: Uint8Array;
}

/**
 * iota.go `EpochBasedProvider.VersionsAndProtocolParametersHash`: BLAKE2b-256 over, for every version in order,
 * version (u8) ‖ start epoch (u32 LE) ‖ its parameters hash (32). The commitment's `protocolParametersHash` root.
 */
export function versionsAndProtocolParametersHashV3(versions: readonly ProtocolVersionV3[]): Uint8Array {
  const out = new Uint8Array(versions.length * 37);
  const view = new DataView(out.buffer);
  versions.forEach((v, i) => {
    if (!Number.isInteger(v.version) || v.version < 0 || v.version > 0xff)
      throw new RangeError(`protocol version must be a u8, got ${v.version}`);
    if (!Number.isInteger(v.startEpoch) || v.startEpoch < 0 || v.startEpoch > 0xffffffff)
      throw new RangeError(`start epoch must be a u32, got ${v.startEpoch}`);
    if (v.parametersHash.length !== 32) throw new RangeError('a parameters hash is 32 bytes');
    view.setUint8(37 * i, v.version);
    view.setUint32(37 * i + 1, v.startEpoch, true);
    out.set(v.parametersHash, 37 * i + 5);
  });
  return blake2b256(out);
}
