/**
 * Node-local metadata of a stored block (docs/protocol.md §17.5), as a versioned binary record (record.ts).
 *
 * Version 1, 25 bytes, little-endian:
 * | offset | size | field                                                             |
 * |--------|------|-------------------------------------------------------------------|
 * | 0      | 1    | record version (1)                                                |
 * | 1      | 1    | protocol version of the block (2 or 3)                            |
 * | 2      | 1    | flags: bit 0 solid, bit 1 referenced, bit 2 milestone block       |
 * | 3      | 8    | arrival time, ms since the Unix epoch (u64)                       |
 * | 11     | 4    | referenced-by-milestone index (u32; 0 unless referenced)          |
 * | 15     | 4    | white-flag index (u32; 0 unless referenced)                       |
 * | 19     | 1    | ledger inclusion state: 0 noTransaction, 1 included, 2 conflicting|
 * | 20     | 1    | conflict reason (u8, docs/protocol.md §16; 0 unless conflicting)  |
 * | 21     | 4    | milestone index carried by a milestone block (u32; 0 otherwise)   |
 *
 * Version 2 (37 bytes) appends the cone root indexes of a solid block no milestone referenced yet (tip selection,
 * docs/protocol.md §N5.3), valid while the confirmed milestone index equals their calculation index:
 * | 25     | 4    | youngest cone root index (u32)                                    |
 * | 29     | 4    | oldest cone root index (u32)                                      |
 * | 33     | 4    | calculation index: the confirmed milestone index they hold for   |
 * Flag bit 3 says they are present. A record without them is written as version 1.
 */
import { ByteReader } from '../codec/reader.ts';
import { ByteWriter } from '../codec/writer.ts';
import { endRecord, readVersion } from './record.ts';

export const BLOCK_METADATA_VERSION = 2;

export type LedgerInclusionState = 'noTransaction' | 'included' | 'conflicting';
const STATES: readonly LedgerInclusionState[] = ['noTransaction', 'included', 'conflicting'];

export interface BlockMetadata {
  protocolVersion: 2 | 3;
  solid: boolean;
  /** When the node first stored the block, ms since the Unix epoch. */
  arrivalTime: number;
  /** Set once a milestone references the block, together with `whiteFlagIndex` and `ledgerInclusionState`. */
  referenced?: {
    milestoneIndex: number;
    whiteFlagIndex: number;
    ledgerInclusionState: LedgerInclusionState;
    /** Conflict reason code (docs/protocol.md §16); 0 unless conflicting. */
    conflictReason: number;
  };
  /** The index a milestone block carries (milestone blocks only). */
  milestoneIndex?: number;
  /** Cone root indexes (tangle/cone-roots.ts), valid while the confirmed milestone index is `ci`. */
  coneRoots?: ConeRootIndexes;
}

export interface ConeRootIndexes {
  /** Youngest cone root index. */
  ycri: number;
  /** Oldest cone root index. */
  ocri: number;
  /** The confirmed milestone index they were calculated at. */
  ci: number;
}

const SOLID = 1;
const REFERENCED = 2;
const MILESTONE = 4;
const CONE_ROOTS = 8;
const KNOWN_FLAGS = [0, SOLID | REFERENCED | MILESTONE, SOLID | REFERENCED | MILESTONE | CONE_ROOTS];

export function encodeBlockMetadata(m: BlockMetadata): Uint8Array {
  if (m.protocolVersion !== 2 && m.protocolVersion !== 3)
    throw new RangeError(`block metadata: protocolVersion must be 2 or 3, got ${m.protocolVersion}`);
  if (!Number.isSafeInteger(m.arrivalTime) || m.arrivalTime < 0)
    throw new RangeError(`block metadata: arrivalTime must be a non-negative integer, got ${m.arrivalTime}`);
  const ref = m.referenced;
  if (ref) {
    checkU32(ref.milestoneIndex, 'referenced.milestoneIndex');
    checkU32(ref.whiteFlagIndex, 'referenced.whiteFlagIndex');
    if (!STATES.includes(ref.ledgerInclusionState))
      throw new RangeError(`block metadata: unknown ledgerInclusionState ${String(ref.ledgerInclusionState)}`);
    if (!Number.isInteger(ref.conflictReason) || ref.conflictReason < 0 || ref.conflictReason > 255) {
      throw new RangeError(`block metadata: conflictReason must be a u8, got ${ref.conflictReason}`);
    }
  }
  if (m.milestoneIndex !== undefined) checkU32(m.milestoneIndex, 'milestoneIndex');
  const cr = m.coneRoots;
  if (cr) for (const k of ['ycri', 'ocri', 'ci'] as const) checkU32(cr[k], `coneRoots.${k}`);
  const flags =
    (m.solid ? SOLID : 0) |
    (ref ? REFERENCED : 0) |
    (m.milestoneIndex !== undefined ? MILESTONE : 0) |
    (cr ? CONE_ROOTS : 0);
  const w = new ByteWriter(cr ? 37 : 25)
    .u8(cr ? 2 : 1)
    .u8(m.protocolVersion)
    .u8(flags)
    .u64(BigInt(m.arrivalTime))
    .u32(ref?.milestoneIndex ?? 0)
    .u32(ref?.whiteFlagIndex ?? 0)
    .u8(ref ? STATES.indexOf(ref.ledgerInclusionState) : 0)
    .u8(ref?.conflictReason ?? 0)
    .u32(m.milestoneIndex ?? 0);
  if (cr) w.u32(cr.ycri).u32(cr.ocri).u32(cr.ci);
  return w.finish();
}

export function decodeBlockMetadata(bytes: Uint8Array, subject = 'block metadata'): BlockMetadata {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, BLOCK_METADATA_VERSION, 1);
  const pvAt = r.offset;
  const protocolVersion = r.u8('protocolVersion');
  if (protocolVersion !== 2 && protocolVersion !== 3) {
    r.fail(
      'VALUE_OUT_OF_RANGE',
      `protocolVersion ${protocolVersion} is neither 2 nor 3`,
      'protocolVersion',
      pvAt,
      String(protocolVersion),
    );
  }
  const flagsAt = r.offset;
  const flags = r.u8('flags');
  const known = KNOWN_FLAGS[version];
  if (known !== undefined && (flags & ~known) !== 0) {
    r.fail('INVALID_FIELD', `unknown flag bits 0x${(flags & ~known).toString(16)}`, 'flags', flagsAt, String(flags));
  }
  const timeAt = r.offset;
  const arrival = r.u64('arrivalTime');
  if (arrival > BigInt(Number.MAX_SAFE_INTEGER))
    r.fail('VALUE_OUT_OF_RANGE', `arrivalTime ${arrival} is too large`, 'arrivalTime', timeAt, String(arrival));
  const refIndex = r.u32('referencedByMilestoneIndex');
  const whiteFlagIndex = r.u32('whiteFlagIndex');
  const stateAt = r.offset;
  const state = r.u8('ledgerInclusionState');
  const conflictReason = r.u8('conflictReason');
  const milestoneIndex = r.u32('milestoneIndex');
  const coneRoots =
    version >= 2
      ? { ycri: r.u32('coneRoots.ycri'), ocri: r.u32('coneRoots.ocri'), ci: r.u32('coneRoots.ci') }
      : undefined;
  endRecord(r, version, BLOCK_METADATA_VERSION);

  const m: BlockMetadata = { protocolVersion, solid: (flags & SOLID) !== 0, arrivalTime: Number(arrival) };
  if (flags & REFERENCED) {
    const ledgerInclusionState = STATES[state];
    if (ledgerInclusionState === undefined) {
      r.fail(
        'VALUE_OUT_OF_RANGE',
        `ledgerInclusionState ${state} is outside 0..2`,
        'ledgerInclusionState',
        stateAt,
        String(state),
      );
    }
    m.referenced = { milestoneIndex: refIndex, whiteFlagIndex, ledgerInclusionState, conflictReason };
  }
  if (flags & MILESTONE) m.milestoneIndex = milestoneIndex;
  if (coneRoots && flags & CONE_ROOTS) m.coneRoots = coneRoots;
  return m;
}

function checkU32(v: number, field: string): void {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
    throw new RangeError(`block metadata: ${field} must be a u32, got ${v}`);
}
