/**
 * What the store keeps per milestone index: the milestone ID, the block that carried it and its timestamp.
 *
 * Version 1, 70 bytes: record version u8 (1) ‖ milestone ID (32) ‖ block ID (32) ‖ timestamp u32 LE ‖ reserved
 * u8 (0). Newer versions append fields (record.ts).
 */
import { ByteReader } from '../codec/reader.ts';
import { ByteWriter } from '../codec/writer.ts';
import { endRecord, readVersion } from './record.ts';

export const MILESTONE_RECORD_VERSION = 1;

export interface MilestoneRecord {
  /** 32 bytes. */
  milestoneId: Uint8Array;
  /** 32 bytes (milestones are v2 blocks). */
  blockId: Uint8Array;
  /** Unix seconds, as in the milestone payload. */
  timestamp: number;
}

export function encodeMilestoneRecord(m: MilestoneRecord): Uint8Array {
  if (m.milestoneId.length !== 32)
    throw new RangeError(`milestone record: milestoneId must be 32 bytes, got ${m.milestoneId.length}`);
  if (m.blockId.length !== 32)
    throw new RangeError(`milestone record: blockId must be 32 bytes, got ${m.blockId.length}`);
  if (!Number.isInteger(m.timestamp) || m.timestamp < 0 || m.timestamp > 0xffffffff)
    throw new RangeError(`milestone record: timestamp must be a u32, got ${m.timestamp}`);
  return new ByteWriter(70)
    .u8(MILESTONE_RECORD_VERSION)
    .bytes(m.milestoneId)
    .bytes(m.blockId)
    .u32(m.timestamp)
    .u8(0)
    .finish();
}

export function decodeMilestoneRecord(bytes: Uint8Array, subject = 'milestone record'): MilestoneRecord {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, MILESTONE_RECORD_VERSION);
  const milestoneId = r.fixed(32, 'milestoneId');
  const blockId = r.fixed(32, 'blockId');
  const timestamp = r.u32('timestamp');
  r.u8('reserved');
  endRecord(r, version, MILESTONE_RECORD_VERSION);
  return { milestoneId, blockId, timestamp };
}
