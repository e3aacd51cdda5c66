/**
 * The v3 output reads of TIP-48 (issue 24): an output with its output ID proof (docs/protocol.md §V7.8), its metadata
 * (the block and slot that created it and the one that spent it, with the commitments that cover them) and both, from
 * the engine's confirmed ledger. The proof needs the creating transaction, read from its included block; the genesis
 * outputs have none (their transaction ID is the zero hash ‖ genesis slot, docs/decisions.md §37), so for them only
 * the metadata is answered.
 */
import { concatBytes, equalBytes, fromHex0x, toHex0x } from '../../core/bytes.ts';
import {
  decodeBlockV3,
  encodeOutputIdProofV3,
  encodeOutputV3,
  outputIdProofV3,
  outputIdProofToJsonV3,
  outputToJsonV3,
  slotOfId,
  type OutputIdProofV3,
  type OutputV3,
  type SignedTransactionPayloadV3,
} from '../../core/v3/index.ts';
import { NodeError } from '../support/errors.ts';
import type { V3Engine } from './engine.ts';
import { genesisTransactionIdV3 } from './genesis-v3.ts';

/** An output with its proof: JSON `{output, outputIdProof}` and the bytes of both (iota.go `OutputResponse`). */
export interface OutputWithProofV3 {
  output: OutputV3;
  proof: OutputIdProofV3;
}

export const outputWithProofJsonV3 = (o: OutputWithProofV3): Record<string, unknown> => ({
  output: outputToJsonV3(o.output),
  outputIdProof: outputIdProofToJsonV3(o.proof),
});

export const outputWithProofBytesV3 = (o: OutputWithProofV3): Uint8Array =>
  concatBytes(encodeOutputV3(o.output), encodeOutputIdProofV3(o.proof));

export class V3OutputReads {
  constructor(private readonly engine: V3Engine) {}

  private found(outputId: Uint8Array) {
    const e = this.engine;
    const o = e.ledger.output(outputId);
    if (o === undefined) throw e.notFound(`output not found: ${toHex0x(outputId)}`, outputId.subarray(0, 36));
    return o;
  }

  private isGenesis(outputId: Uint8Array): boolean {
    return equalBytes(outputId.subarray(0, 36), genesisTransactionIdV3(this.engine.params));
  }

  /** `/outputs/{id}`: the output and its proof (read in the engine's queue). */
  withProof(outputId: Uint8Array): Promise<OutputWithProofV3> {
    return this.engine.read(() => this.withProofNow(outputId));
  }

  private async withProofNow(outputId: Uint8Array): Promise<OutputWithProofV3> {
    const e = this.engine;
    const { output } = this.found(outputId);
    const txId = outputId.subarray(0, 36);
    if (this.isGenesis(outputId))
      throw new NodeError(
        'NOT_FOUND',
        `output ${toHex0x(outputId)} is a genesis output: no transaction created it, so it has no output ID proof ` +
          '(its metadata route answers it)',
      );
    const blockId = e.includedBlockId(txId);
    const raw = await e.store.getBlock(blockId);
    if (raw === undefined) throw e.notFound(`the block that created output ${toHex0x(outputId)} is gone`, blockId);
    const payload = (decodeBlockV3(raw, e.params).body as { payload: SignedTransactionPayloadV3 }).payload;
    const index = outputId[36]! | (outputId[37]! << 8);
    return { output, proof: outputIdProofV3(payload.transaction, index) };
  }

  /** `/outputs/{id}/metadata` as JSON. */
  metadata(outputId: Uint8Array): Promise<Record<string, unknown>> {
    return this.engine.read(() => this.metadataNow(outputId));
  }

  /** `/outputs/{id}/full` as JSON: `{output, outputIdProof, metadata}`. */
  full(outputId: Uint8Array): Promise<Record<string, unknown>> {
    return this.engine.read(async () => ({
      ...outputWithProofJsonV3(await this.withProofNow(outputId)),
      metadata: await this.metadataNow(outputId),
    }));
  }

  private async metadataNow(outputId: Uint8Array): Promise<Record<string, unknown>> {
    const e = this.engine;
    const o = this.found(outputId);
    const txId = outputId.subarray(0, 36);
    let blockId: Uint8Array;
    let included: Record<string, unknown>;
    if (this.isGenesis(outputId)) {
      blockId = e.genesisBlockId;
      included = {
        slot: e.params.genesisSlot,
        transactionId: toHex0x(txId),
        commitmentId: toHex0x(e.genesisCommitmentId),
      };
    } else {
      blockId = e.includedBlockId(txId);
      included = await this.inclusion(txId, blockId);
    }
    const json: Record<string, unknown> = { outputId: toHex0x(outputId), blockId: toHex0x(blockId), included };
    if (o.spentBy !== undefined)
      json['spent'] = await this.inclusion(fromHex0x(o.spentBy), e.includedBlockId(fromHex0x(o.spentBy)));
    json['latestCommitmentId'] = toHex0x(e.latestCommitmentId);
    return json;
  }

  /** Where a transaction was included: its block's slot, and the commitment that covers it once there is one. */
  private async inclusion(txId: Uint8Array, blockId: Uint8Array): Promise<Record<string, unknown>> {
    const e = this.engine;
    const r = e.transactionState(txId);
    const out: Record<string, unknown> = { slot: slotOfId(blockId), transactionId: toHex0x(txId) };
    if (r?.committedSlot !== undefined) {
      const c = await e.commitment(r.committedSlot);
      if (c !== undefined) out['commitmentId'] = toHex0x(c.id);
    }
    return out;
  }
}
