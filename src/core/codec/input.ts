/** Inputs (docs/protocol.md §4): UTXO (0) and Treasury (1). */
import { INPUT_TREASURY, INPUT_UTXO, type Input, type TreasuryInput, type UtxoInput } from '../model/transaction.ts';
import { ID_LENGTH } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { inputKindProblem, type InputContext } from './rules.ts';
import { decodeWhole, encodeWith, failAt, writeFixed } from './common.ts';

export function readInput(r: ByteReader, field: string, context: InputContext = 'any'): Input {
  const at = r.offset;
  const type = r.u8(field);
  const p = inputKindProblem(context, type);
  if (p) failAt(r, p, field, at, String(type));
  if (type === INPUT_UTXO)
    return { type, transactionId: r.fixed(ID_LENGTH, field), transactionOutputIndex: r.u16(field) };
  return { type: INPUT_TREASURY, milestoneId: r.fixed(ID_LENGTH, field) };
}

export function readUtxoInput(r: ByteReader, field: string): UtxoInput {
  return readInput(r, field, 'essence') as UtxoInput;
}

export function readTreasuryInput(r: ByteReader, field: string): TreasuryInput {
  return readInput(r, field, 'treasury') as TreasuryInput;
}

export function writeInput(w: ByteWriter, i: Input): void {
  if (i.type === INPUT_UTXO) {
    w.u8(INPUT_UTXO);
    writeFixed(w, i.transactionId, ID_LENGTH, 'input transaction ID');
    w.u16(i.transactionOutputIndex);
  } else if (i.type === INPUT_TREASURY) {
    w.u8(INPUT_TREASURY);
    writeFixed(w, i.milestoneId, ID_LENGTH, 'treasury input milestone ID');
  } else {
    throw new RangeError(`Cannot encode input: unknown type ${String((i as Input).type)}`);
  }
}

export function encodeInput(i: Input): Uint8Array {
  return encodeWith(writeInput, i);
}

export function decodeInput(bytes: Uint8Array): Input {
  return decodeWhole(bytes, 'input', (r) => readInput(r, 'input'));
}
