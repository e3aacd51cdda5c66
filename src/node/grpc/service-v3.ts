/**
 * The v3 RPCs of the NodeService over the V3Engine (service.ts delegates here): submission, blocks, block
 * metadata, info, issuance, the included-block lookup and the reads of v3/reads.ts, reads-outputs.ts and
 * reads-utxo.ts. Without a v3 part in the network every call but the included-block lookup answers UNAVAILABLE.
 */
import { blockV3Response, rawAndJson, requireId, requireRawOrJsonView, V3_ID_LENGTH } from './answers.ts';
import {
  BlockView,
  type BlockV3Response,
  type GetBlockV3Request,
  type GetIncludedBlockV3Request,
  type GetCommitmentV3Request,
  type GetUtxoChangesV3Request,
  type GetOutputV3Request,
  type RawOrJsonV3Response,
  type JsonV3Response,
  type SubmitBlockResponse,
  type SubmitBlockV3Request,
} from '../../grpc/gen/node.ts';
import { NodeError } from '../support/errors.ts';
import { encodeSlotCommitmentV3, slotCommitmentToJsonV3 } from '../../core/v3/index.ts';
import { toHex0x } from '../../core/bytes.ts';
import type { V3Engine } from '../v3/engine.ts';
import { V3Reads } from '../v3/reads.ts';
import { outputWithProofBytesV3, outputWithProofJsonV3, V3OutputReads } from '../v3/reads-outputs.ts';
import { V3NetworkService } from './service-v3-network.ts';
import { utxoChangesBytesV3, utxoChangesJsonV3, V3UtxoReads } from '../v3/reads-utxo.ts';

/** v3 output IDs: transaction ID (36 bytes) + output index (u16 LE). */
const V3_OUTPUT_ID_LENGTH = 38;
import { blockMetadataJsonV3 } from '../v3/states.ts';

/** What the v3 info answer says about the node. */
export interface V3NodeIdentity {
  name: string;
  version: string;
  baseToken: object;
}

export class V3Service {
  private readonly reads: V3Reads;
  private readonly outputs: V3OutputReads;
  /** The network and account reads (committee, validators, congestion, rewards, metrics). */
  readonly network: V3NetworkService;
  private readonly utxo: V3UtxoReads;

  /**
   * `accepted`: told of every block a client submitted once the engine accepted it (the composition root gossips
   * it to the peers).
   */
  constructor(
    readonly engine: V3Engine,
    private readonly identity: V3NodeIdentity,
    private readonly accepted: (blockId: Uint8Array) => void = () => undefined,
  ) {
    this.reads = new V3Reads(engine);
    this.outputs = new V3OutputReads(engine);
    this.network = new V3NetworkService(engine);
    this.utxo = new V3UtxoReads(engine);
  }

  async submitBlock(req: SubmitBlockV3Request): Promise<SubmitBlockResponse> {
    const b = req.block;
    if (b === undefined) throw new NodeError('INVALID_REQUEST', 'invalid block: request body missing');
    const blockId = await this.engine.submit(b.$case === 'raw' ? { raw: b.value } : { json: b.value });
    this.accepted(blockId);
    return { blockId };
  }

  async getBlock(req: GetBlockV3Request): Promise<BlockV3Response> {
    const id = requireId(req.blockId, V3_ID_LENGTH, 'block ID');
    return this.blockAnswer(id, req.view);
  }

  async getBlockMetadata(req: GetBlockV3Request): Promise<JsonV3Response> {
    const id = requireId(req.blockId, V3_ID_LENGTH, 'block ID');
    const md = await this.engine.read(() => this.engine.blockMetadata(id));
    return { json: JSON.stringify(blockMetadataJsonV3(md)) };
  }

  async getBlockWithMetadata(req: GetBlockV3Request): Promise<JsonV3Response> {
    return { json: await this.reads.blockWithMetadata(requireId(req.blockId, V3_ID_LENGTH, 'block ID')) };
  }

  async getTransactionMetadata(req: GetIncludedBlockV3Request): Promise<JsonV3Response> {
    const txId = requireId(req.transactionId, V3_ID_LENGTH, 'transaction ID');
    return { json: JSON.stringify(await this.reads.transactionMetadata(txId)) };
  }

  async getIncludedBlockMetadata(req: GetIncludedBlockV3Request): Promise<JsonV3Response> {
    const txId = requireId(req.transactionId, V3_ID_LENGTH, 'transaction ID');
    return { json: JSON.stringify(await this.reads.includedBlockMetadata(txId)) };
  }

  async getOutput(req: GetOutputV3Request): Promise<RawOrJsonV3Response> {
    const o = await this.outputs.withProof(requireId(req.outputId, V3_OUTPUT_ID_LENGTH, 'output ID'));
    return rawAndJson(req.view, 'v3 outputs', {
      raw: () => outputWithProofBytesV3(o),
      json: () => JSON.stringify(outputWithProofJsonV3(o)),
    });
  }

  async getOutputMetadata(req: GetOutputV3Request): Promise<JsonV3Response> {
    const id = requireId(req.outputId, V3_OUTPUT_ID_LENGTH, 'output ID');
    return { json: JSON.stringify(await this.outputs.metadata(id)) };
  }

  async getOutputWithMetadata(req: GetOutputV3Request): Promise<JsonV3Response> {
    const id = requireId(req.outputId, V3_OUTPUT_ID_LENGTH, 'output ID');
    return { json: JSON.stringify(await this.outputs.full(id)) };
  }

  /**
   * A commitment of this node by ID or slot (the all-zero ID: the latest); NOT_FOUND for one it did not make (or a slot
   * not committed yet).
   */
  async getCommitment(req: GetCommitmentV3Request): Promise<RawOrJsonV3Response> {
    const k = req.key;
    if (k === undefined) throw new NodeError('INVALID_REQUEST', 'a commitment ID or a slot is required');
    const key = k.$case === 'slot' ? k.value : requireId(k.value, V3_ID_LENGTH, 'commitment ID');
    // iota-core: the empty (all-zero) commitment ID names the latest commitment
    const latest = typeof key !== 'number' && key.every((b) => b === 0);
    const e = await this.engine.read(() => (latest ? this.engine.latestCommitment : this.engine.commitment(key)));
    if (e === undefined) {
      const what = typeof key === 'number' ? `of slot ${key}` : toHex0x(key);
      throw new NodeError('NOT_FOUND', `commitment not found: ${what}`);
    }
    return rawAndJson(req.view, 'v3 commitments', {
      raw: () => encodeSlotCommitmentV3(e.commitment),
      json: () => JSON.stringify(slotCommitmentToJsonV3(e.commitment)),
    });
  }

  /** The UTXO changes of a commitment (by ID or slot; v3/reads-utxo.ts), output IDs or `full`, JSON or bytes. */
  async getUtxoChanges(req: GetUtxoChangesV3Request): Promise<RawOrJsonV3Response> {
    const k = req.key;
    if (k === undefined) throw new NodeError('INVALID_REQUEST', 'a commitment ID or a slot is required');
    requireRawOrJsonView(req.view, 'v3 UTXO changes');
    const c = await this.utxo.changes(k.$case === 'slot' ? k.value : requireId(k.value, V3_ID_LENGTH, 'commitment ID'));
    return rawAndJson(req.view, 'v3 UTXO changes', {
      raw: () => utxoChangesBytesV3(c, req.full),
      json: () => JSON.stringify(utxoChangesJsonV3(c, req.full)),
    });
  }

  async getInfo(): Promise<JsonV3Response> {
    return { json: JSON.stringify(await this.engine.read(() => this.engine.info(this.identity))) };
  }

  async getIssuance(): Promise<JsonV3Response> {
    return { json: JSON.stringify(await this.engine.read(() => this.engine.issuance())) };
  }

  async getIncludedBlock(transactionId: Uint8Array, view: BlockView): Promise<BlockV3Response> {
    return this.blockAnswer(await this.engine.read(() => this.engine.includedBlockId(transactionId)), view);
  }

  private async blockAnswer(id: Uint8Array, view: BlockView): Promise<BlockV3Response> {
    if (view === BlockView.BLOCK_VIEW_STRUCTURED)
      throw new NodeError('INVALID_REQUEST', 'the structured view is not offered for v3 blocks');
    const raw = await this.engine.blockBytes(id);
    return blockV3Response(id, view, { raw: () => raw, json: () => this.engine.blockJson(raw) });
  }
}

/** The answer of every v3 RPC on a network without a v3 part. */
export function v3Unavailable(): never {
  throw new NodeError('UNAVAILABLE', 'this network has no v3 (IOTA 2.0) part in its genesis');
}
