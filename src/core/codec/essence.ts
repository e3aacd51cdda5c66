/** Regular transaction essence (type 1, docs/protocol.md §3.2). */
import { ESSENCE_REGULAR, type TransactionEssence, type UtxoInput } from '../model/transaction.ts';
import type { CommonOutput } from '../model/output.ts';
import { ID_LENGTH, LIMITS } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readUtxoInput, writeInput } from './input.ts';
import { readOutput, writeOutput } from './output.ts';
import { readTaggedData, writeTaggedData } from './tagged-data.ts';
import { checkEmbeddedEnd, readEmbeddedHeader, writeEmbedded } from './embedded.ts';
import { essenceKindProblem, outputIndexProblem, sameUtxo } from './rules.ts';
import { decodeWhole, encodeWith, failAt, writeCount, writeFixed } from './common.ts';

export function readEssence(r: ByteReader, field: string): TransactionEssence {
  const at = r.offset;
  const type = r.u8(field);
  const p = essenceKindProblem(type);
  if (p) failAt(r, p, field, at, String(type));
  const networkId = r.u64('essence.networkId');
  const ni = r.count(2, 'essence.inputs', LIMITS.inputs.min, LIMITS.inputs.max);
  const inputs: UtxoInput[] = new Array(ni);
  for (let i = 0; i < ni; i++) {
    const start = r.offset;
    const input = readUtxoInput(r, 'essence.inputs');
    const ip = outputIndexProblem(input.transactionOutputIndex);
    if (ip) failAt(r, ip, 'essence.inputs', r.offset - 2, String(input.transactionOutputIndex));
    for (let j = 0; j < i; j++) {
      const o = inputs[j]!;
      if (sameUtxo(o.transactionId, o.transactionOutputIndex, input.transactionId, input.transactionOutputIndex)) {
        r.fail(
          'DUPLICATE',
          `input ${i} repeats input ${j} (same transaction ID and output index)`,
          'essence.inputs',
          start,
        );
      }
    }
    inputs[i] = input;
  }
  const inputsCommitment = r.fixed(ID_LENGTH, 'essence.inputsCommitment');
  const no = r.count(2, 'essence.outputs', LIMITS.outputs.min, LIMITS.outputs.max);
  const outputs: CommonOutput[] = new Array(no);
  for (let i = 0; i < no; i++) outputs[i] = readOutput(r, 'essence.outputs', 'essence') as CommonOutput;
  const essence: TransactionEssence = { type: ESSENCE_REGULAR, networkId, inputs, inputsCommitment, outputs };
  const length = readEmbeddedHeader(r, 'essence.payload', 'essence');
  if (length !== 0) {
    const start = r.offset;
    essence.payload = readTaggedData(r, 'essence.payload');
    checkEmbeddedEnd(r, 'essence.payload', start, length);
  }
  return essence;
}

export function writeEssence(w: ByteWriter, e: TransactionEssence): void {
  if (e.type !== ESSENCE_REGULAR)
    throw new RangeError(`Cannot encode transaction essence: unknown type ${String(e.type)}`);
  w.u8(ESSENCE_REGULAR);
  w.u64(e.networkId);
  writeCount(w, e.inputs.length, 2, 'inputs');
  for (let i = 0; i < e.inputs.length; i++) writeInput(w, e.inputs[i]!);
  writeFixed(w, e.inputsCommitment, ID_LENGTH, 'inputs commitment');
  writeCount(w, e.outputs.length, 2, 'outputs');
  for (let i = 0; i < e.outputs.length; i++) writeOutput(w, e.outputs[i]!);
  writeEmbedded(w, writeTaggedData, e.payload);
}

/** The bytes whose BLAKE2b-256 every signature unlock signs (docs/protocol.md §12.3). */
export function encodeTransactionEssence(e: TransactionEssence): Uint8Array {
  return encodeWith(writeEssence, e);
}

export function decodeTransactionEssence(bytes: Uint8Array): TransactionEssence {
  return decodeWhole(bytes, 'transaction essence', (r) => readEssence(r, 'essence'));
}
