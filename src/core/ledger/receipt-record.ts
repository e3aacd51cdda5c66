/**
 * Receipts (TIP-34) in the `receipts` table, keyed by legacy `migratedAt` index ‖ milestone index (both u32
 * big-endian, so a range over one `migratedAt` lists its receipts in milestone order).
 * Value version 1: version (1) ‖ length u32 ‖ the serialized Receipt milestone option (docs/protocol.md §3.3.1).
 */
import { decodeMilestoneOption, encodeMilestoneOption } from '../codec/milestone.ts';
import { ByteReader } from '../codec/reader.ts';
import { ByteWriter } from '../codec/writer.ts';
import { LIMITS } from '../model/limits.ts';
import { MILESTONE_OPTION_RECEIPT, type ReceiptMilestoneOption } from '../model/payload.ts';
import type { Codec } from '../store/codec.ts';
import { endRecord, readVersion } from '../store/record.ts';
import { checkU32 } from './output-record.ts';

export const RECEIPT_RECORD_VERSION = 1;

export interface ReceiptKey {
  migratedAt: number;
  milestoneIndex: number;
}

export const receiptKeyCodec: Codec<ReceiptKey> = {
  encode: (k) => {
    checkU32(k.migratedAt, 'receipt key', 'migratedAt');
    checkU32(k.milestoneIndex, 'receipt key', 'milestoneIndex');
    const out = new Uint8Array(8);
    const view = new DataView(out.buffer);
    view.setUint32(0, k.migratedAt, false);
    view.setUint32(4, k.milestoneIndex, false);
    return out;
  },
  decode: (b, subject) => {
    const r: ByteReader = new ByteReader(b, subject);
    r.fixed(8, 'receipt key');
    r.end();
    const view = new DataView(b.buffer, b.byteOffset, 8);
    return { migratedAt: view.getUint32(0, false), milestoneIndex: view.getUint32(4, false) };
  },
};

export function encodeReceiptRecord(receipt: ReceiptMilestoneOption): Uint8Array {
  const bytes = encodeMilestoneOption(receipt);
  return new ByteWriter(5 + bytes.length).u8(RECEIPT_RECORD_VERSION).u32(bytes.length).bytes(bytes).finish();
}

export function decodeReceiptRecord(bytes: Uint8Array, subject = 'receipt record'): ReceiptMilestoneOption {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, RECEIPT_RECORD_VERSION);
  const at = r.offset + 4;
  const optionBytes = r.prefixed(4, 'receipt', 1, LIMITS.maxBlockLength);
  endRecord(r, version, RECEIPT_RECORD_VERSION);
  let option: ReturnType<typeof decodeMilestoneOption>;
  try {
    option = decodeMilestoneOption(optionBytes);
  } catch (e) {
    return r.fail('INVALID_FIELD', `receipt does not decode (${(e as Error).message})`, 'receipt', at);
  }
  if (option.type !== MILESTONE_OPTION_RECEIPT)
    r.fail(
      'TYPE_NOT_ALLOWED',
      `milestone option type ${option.type} is not a receipt`,
      'receipt.type',
      at,
      String(option.type),
    );
  return option;
}
