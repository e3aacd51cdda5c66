/**
 * The ledger RPCs of the NodeService over the LedgerReader (service.ts delegates here): outputs and their metadata,
 * milestones and their UTXO changes, receipts and the treasury. Each checks the request, makes one read and renders
 * the TIP-25 JSON text (key order as Hornet emits it) and, where TIP-25 offers a binary view, the serialized bytes.
 */
import { toHex0x } from '../../core/bytes.ts';
import { encodeOutput } from '../../core/codec/index.ts';
import { parseOutputId } from '../../core/ids/index.ts';
import { milestoneOptionToJson, outputToJson, payloadToJson } from '../../core/json/index.ts';
import { ID_LENGTH, OUTPUT_ID_LENGTH, TOKEN_ID_LENGTH } from '../../core/model/index.ts';
import { INDEXER_ROUTES, type IndexerRoute } from '../../core/ledger/index.ts';
import {
  IndexedChain,
  type GetChainOutputRequest,
  type GetMilestoneRequest,
  type GetOutputRequest,
  type GetReceiptsRequest,
  type LedgerJsonResponse,
  type MilestoneResponse,
  type OutputResponse,
  type QueryOutputsRequest,
} from '../../grpc/gen/node.ts';
import { NodeError } from '../support/errors.ts';
import type { ChainKind, IndexerReader } from '../ledger/indexer-reads.ts';
import type { LedgerReader, MilestoneKey, OutputView } from '../ledger/reads.ts';
import { parametersByName, rawAndJson, requireId, requireRawOrJsonView } from './answers.ts';
import { quoteText } from '../../core/text.ts';

/** The chains the indexer looks up by ID, with the length of their IDs. */
const CHAINS: ReadonlyMap<IndexedChain, { kind: ChainKind; idLength: number }> = new Map([
  [IndexedChain.INDEXED_CHAIN_ALIAS, { kind: 'alias', idLength: ID_LENGTH }],
  [IndexedChain.INDEXED_CHAIN_NFT, { kind: 'nft', idLength: ID_LENGTH }],
  [IndexedChain.INDEXED_CHAIN_FOUNDRY, { kind: 'foundry', idLength: TOKEN_ID_LENGTH /* a foundry ID is a token ID */ }],
]);

export class LedgerService {
  constructor(
    private readonly reader: LedgerReader,
    private readonly indexer: IndexerReader,
  ) {}

  async getOutput(req: GetOutputRequest): Promise<OutputResponse> {
    const outputId = requireOutputId(req.outputId);
    requireRawOrJsonView(req.view, 'outputs'); // before the read
    const view = await this.reader.output(outputId);
    const output = view.output.output;
    return {
      outputId,
      ...rawAndJson(req.view, 'outputs', {
        raw: () => encodeOutput(output),
        json: () => JSON.stringify({ metadata: outputMetadataJson(view), output: outputToJson(output) }),
      }),
    };
  }

  async getOutputMetadata(req: GetOutputRequest): Promise<LedgerJsonResponse> {
    const view = await this.reader.output(requireOutputId(req.outputId));
    return { json: JSON.stringify(outputMetadataJson(view)) };
  }

  async getMilestone(req: GetMilestoneRequest): Promise<MilestoneResponse> {
    const key = milestoneKeyOf(req);
    requireRawOrJsonView(req.view, 'milestones');
    const ms = await this.reader.milestone(key);
    return {
      index: ms.index,
      milestoneId: ms.milestoneId,
      ...rawAndJson(req.view, 'milestones', {
        raw: () => ms.payloadBytes,
        json: () => JSON.stringify(payloadToJson(ms.payload)),
      }),
    };
  }

  async getMilestoneUtxoChanges(req: GetMilestoneRequest): Promise<LedgerJsonResponse> {
    const { index, diff } = await this.reader.utxoChanges(milestoneKeyOf(req));
    return {
      json: JSON.stringify({
        index,
        createdOutputs: diff.created.map(toHex0x),
        consumedOutputs: diff.consumed.map(toHex0x),
      }),
    };
  }

  async getReceipts(req: GetReceiptsRequest): Promise<LedgerJsonResponse> {
    const receipts = await this.reader.receipts(req.migratedAt);
    return {
      json: JSON.stringify({
        receipts: receipts.map((r) => ({
          receipt: milestoneOptionToJson(r.receipt),
          milestoneIndex: r.milestoneIndex,
        })),
      }),
    };
  }

  /** `signal`: the call's cancellation (client gone, deadline passed): the scan stops between store reads. */
  async queryOutputs(req: QueryOutputsRequest, signal?: AbortSignal): Promise<LedgerJsonResponse> {
    const route = req.route as IndexerRoute;
    if (!INDEXER_ROUTES.includes(route))
      throw new NodeError(
        'INVALID_REQUEST',
        `unknown indexer route ${quoteText(req.route)} (one of ${INDEXER_ROUTES.join(', ')})`,
      );
    const params = parametersByName(req.parameters);
    return { json: JSON.stringify(await this.indexer.query(route, params, signal ? { signal } : {})) };
  }

  async getChainOutput(req: GetChainOutputRequest): Promise<LedgerJsonResponse> {
    const chain = CHAINS.get(req.kind);
    if (chain === undefined)
      throw new NodeError('INVALID_REQUEST', `unknown chain kind ${req.kind} (alias, nft or foundry)`);
    const id = requireId(req.id, chain.idLength, `${chain.kind} ID`);
    return { json: JSON.stringify(await this.indexer.chainOutput(chain.kind, id)) };
  }

  async getTreasury(): Promise<LedgerJsonResponse> {
    const t = await this.reader.treasury();
    return { json: JSON.stringify({ milestoneId: toHex0x(t.milestoneId), amount: t.amount.toString() }) };
  }
}

/** 34 bytes (else INVALID_REQUEST) whose output index is 0..127 (else the core's VALUE_OUT_OF_RANGE): both 400. */
function requireOutputId(id: Uint8Array | undefined): Uint8Array {
  const outputId = requireId(id, OUTPUT_ID_LENGTH, 'output ID');
  parseOutputId(outputId, 'output ID');
  return outputId;
}

function milestoneKeyOf(req: GetMilestoneRequest): MilestoneKey {
  const m = req.milestone;
  switch (m?.$case) {
    case 'milestoneId':
      return { milestoneId: requireId(m.value, ID_LENGTH, 'milestone ID') };
    case 'index':
      return { index: m.value };
    default:
      throw new NodeError(
        'INVALID_REQUEST',
        'invalid milestone request: it names no milestone (set milestoneId or index)',
      );
  }
}

/** TIP-25 OutputMetadata in Hornet's key order; the spent fields only for a spent output. */
function outputMetadataJson({ output: o, ledgerIndex }: OutputView): Record<string, unknown> {
  const { transactionId, index } = parseOutputId(o.outputId);
  return {
    blockId: toHex0x(o.blockId),
    transactionId: toHex0x(transactionId),
    outputIndex: index,
    isSpent: o.spent !== undefined,
    ...(o.spent !== undefined
      ? {
          milestoneIndexSpent: o.spent.milestoneIndexSpent,
          milestoneTimestampSpent: o.spent.milestoneTimestampSpent,
          transactionIdSpent: toHex0x(o.spent.transactionIdSpent),
        }
      : {}),
    milestoneIndexBooked: o.milestoneIndexBooked,
    milestoneTimestampBooked: o.milestoneTimestampBooked,
    ledgerIndex,
  };
}
