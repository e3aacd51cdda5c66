/**
 * Small ledger-wide values kept in the node's `meta` table beside the node's own fields (store/meta.ts), each under
 * a `ledger.` name: the protocol parameters the ledger started with, announced protocol parameter changes, the solid
 * entry points and the milestone key configuration. Each value is a versioned record (version u8 first).
 */
import { decodeProtocolParameters, encodeProtocolParameters } from '../codec/protocol-parameters.ts';
import { ByteReader } from '../codec/reader.ts';
import { ByteWriter } from '../codec/writer.ts';
import type { MilestoneKeyRange } from '../ids/milestone-signatures.ts';
import { ED25519_PUBLIC_KEY_LENGTH, ID_LENGTH, LIMITS } from '../model/limits.ts';
import type { ProtocolParameters } from '../model/protocol.ts';
import type { Codec } from '../store/codec.ts';
import type { MetaField } from '../store/meta.ts';
import { endRecord, readVersion } from '../store/record.ts';
import { checkId, checkU32 } from './output-record.ts';

/** A Protocol Parameters milestone option that a confirmed milestone announced (TIP-29). */
export interface ProtocolParametersChange {
  /** The milestone index from which the parameters apply. */
  targetMilestoneIndex: number;
  protocolVersion: number;
  /** Serialized protocol parameters (docs/protocol.md §11). */
  params: Uint8Array;
  /** The milestone that announced it. */
  announcedAt: number;
}

/**
 * Where pruning stands (core pruning/): the pruning index P and how far the deletions got. It is written with the
 * solid entry points of P before anything is deleted, so a crash leaves a store whose entry points are already P's
 * and whose deletions resume at `done + 1`.
 */
export interface PruningState {
  /** Nothing referenced at or below this milestone is kept (once `done` reached it). */
  index: number;
  /** Milestones whose data is deleted, through this index (equals `index` when the run finished). */
  done: number;
  /** The milestone at the pruning index (its record is pruned with it; the ledger can be rebuilt from it). */
  milestone: { milestoneId: Uint8Array; timestamp: number; blockId: Uint8Array };
}

/** Milestone signature rules: the key ranges and the number of signatures required (`milestonePublicKeyCount`). */
export interface MilestoneKeyConfig {
  keyRanges: MilestoneKeyRange[];
  threshold: number;
}

const V1 = 1;

function versioned<T>(write: (w: ByteWriter, v: T) => void, read: (r: ByteReader) => T): Codec<T> {
  return {
    encode: (v) => {
      const w = new ByteWriter(256).u8(V1);
      write(w, v);
      return w.finish();
    },
    decode: (bytes, subject) => {
      const r: ByteReader = new ByteReader(bytes, subject);
      const version = readVersion(r, V1);
      const v = read(r);
      endRecord(r, version, V1);
      return v;
    },
  };
}

const protocolParametersCodec: Codec<ProtocolParameters> = versioned(
  (w, p) => {
    const bytes = encodeProtocolParameters(p);
    w.u16(bytes.length).bytes(bytes);
  },
  (r) => decodeProtocolParameters(r.prefixed(2, 'protocolParameters', 1, LIMITS.protocolParamsBytes.max)),
);

const changesCodec: Codec<ProtocolParametersChange[]> = versioned(
  (w, list) => {
    w.u32(list.length);
    for (const c of list) {
      checkU32(c.targetMilestoneIndex, 'protocol parameters change', 'targetMilestoneIndex');
      checkU32(c.announcedAt, 'protocol parameters change', 'announcedAt');
      w.u32(c.targetMilestoneIndex).u8(c.protocolVersion).u32(c.announcedAt).u16(c.params.length).bytes(c.params);
    }
  },
  (r) => {
    const n = r.u32('changes count');
    const out: ProtocolParametersChange[] = [];
    for (let i = 0; i < n; i++) {
      const targetMilestoneIndex = r.u32(`changes[${i}].targetMilestoneIndex`);
      const protocolVersion = r.u8(`changes[${i}].protocolVersion`);
      const announcedAt = r.u32(`changes[${i}].announcedAt`);
      const params = r.prefixed(2, `changes[${i}].params`, 0, LIMITS.protocolParamsBytes.max);
      out.push({ targetMilestoneIndex, protocolVersion, params, announcedAt });
    }
    return out;
  },
);

const idListCodec: Codec<Uint8Array[]> = versioned(
  (w, ids) => {
    w.u32(ids.length);
    ids.forEach((id, i) => {
      checkId(id, 'solid entry points', `[${i}]`);
      w.bytes(id);
    });
  },
  (r) => {
    const at = r.offset;
    const n = r.u32('count');
    if (n * ID_LENGTH > r.remaining)
      r.fail('TRUNCATED', `count ${n} exceeds the ${r.remaining} bytes left`, 'count', at, String(n));
    return Array.from({ length: n }, (_, i) => r.fixed(ID_LENGTH, `[${i}]`));
  },
);

const keyConfigCodec: Codec<MilestoneKeyConfig> = versioned(
  (w, c) => {
    checkU32(c.threshold, 'milestone key config', 'threshold');
    w.u32(c.threshold).u32(c.keyRanges.length);
    c.keyRanges.forEach((k, i) => {
      checkId(k.publicKey, 'milestone key config', `keyRanges[${i}].publicKey`, ED25519_PUBLIC_KEY_LENGTH);
      checkU32(k.start, 'milestone key config', `keyRanges[${i}].start`);
      checkU32(k.end, 'milestone key config', `keyRanges[${i}].end`);
      w.bytes(k.publicKey).u32(k.start).u32(k.end);
    });
  },
  (r) => {
    const threshold = r.u32('threshold');
    const n = r.u32('keyRanges count');
    const keyRanges: MilestoneKeyRange[] = [];
    for (let i = 0; i < n; i++) {
      keyRanges.push({
        publicKey: r.fixed(ED25519_PUBLIC_KEY_LENGTH, `keyRanges[${i}].publicKey`),
        start: r.u32(`keyRanges[${i}].start`),
        end: r.u32(`keyRanges[${i}].end`),
      });
    }
    return { threshold, keyRanges };
  },
);

const pruningCodec: Codec<PruningState> = versioned(
  (w, p) => {
    checkU32(p.index, 'pruning state', 'index');
    checkU32(p.done, 'pruning state', 'done');
    checkU32(p.milestone.timestamp, 'pruning state', 'milestone.timestamp');
    checkId(p.milestone.milestoneId, 'pruning state', 'milestone.milestoneId');
    checkId(p.milestone.blockId, 'pruning state', 'milestone.blockId');
    w.u32(p.index).u32(p.done).bytes(p.milestone.milestoneId).u32(p.milestone.timestamp).bytes(p.milestone.blockId);
  },
  (r) => {
    const index = r.u32('index');
    const done = r.u32('done');
    const milestoneId = r.fixed(ID_LENGTH, 'milestone.milestoneId');
    const timestamp = r.u32('milestone.timestamp');
    return { index, done, milestone: { milestoneId, timestamp, blockId: r.fixed(ID_LENGTH, 'milestone.blockId') } };
  },
);

function field<T>(name: string, codec: Codec<T>): MetaField<T> {
  return Object.freeze({ name, codec });
}

export const LEDGER_META = Object.freeze({
  /** The protocol parameters in force at the ledger's genesis. */
  protocolParameters: field('ledger.protocolParameters', protocolParametersCodec),
  /** Every announced protocol parameters change, ascending by target index (superseded ones are dropped). */
  protocolParametersChanges: field('ledger.protocolParametersChanges', changesCodec),
  /** Blocks treated as known and referenced below the genesis milestone. */
  solidEntryPoints: field('ledger.solidEntryPoints', idListCodec),
  milestoneKeys: field('ledger.milestoneKeys', keyConfigCodec),
  /** Absent until the first pruning. */
  pruning: field('ledger.pruning', pruningCodec),
});
