/**
 * The NodeService as a thin adapter: each RPC checks the request's shape, makes one domain call and maps the answer
 * to its message. Errors are domain errors (NodeError, ProtocolError); handlers.ts puts them on the wire.
 */
import { toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { reject } from '../../core/errors.ts';
import { blockFromJson, blockToJson } from '../../core/json/index.ts';
import { MILESTONE_OPTION_PROTOCOL_PARAMS, type Block } from '../../core/model/index.ts';
import {
  BlockView,
  LedgerInclusionState,
  type BlockMetadata,
  type BlockResponse,
  type BlockV3Response,
  type GetBlockMetadataRequest,
  type GetBlockRequest,
  type GetIncludedBlockRequest,
  type GetIncludedBlockV3Request,
  type GetBlockV3Request,
  type GetCommitmentV3Request,
  type GetCommitteeV3Request,
  type GetValidatorsV3Request,
  type GetValidatorV3Request,
  type GetAccountCongestionV3Request,
  type GetOutputManaRewardsV3Request,
  type GetNetworkMetricsV3Request,
  type GetUtxoChangesV3Request,
  type GetOutputV3Request,
  type RawOrJsonV3Response,
  type JsonV3Response,
  type SubmitBlockV3Request,
  type GetTipsRequest,
  type GetMilestoneRequest,
  type GetOutputRequest,
  type GetChainOutputRequest,
  type FaucetEnqueueRequest,
  type FaucetEnqueueResponse,
  type FaucetInfoResponse,
  type AddPeerRequest,
  type DashboardResponse,
  type GetPeerRequest,
  type Peer,
  type PeersResponse,
  type RemovePeerResponse,
  type QueryOutputsRequest,
  type GetReceiptsRequest,
  type InfoResponse,
  type LedgerJsonResponse,
  type MilestoneResponse,
  type OutputResponse,
  type MilestoneInfo,
  type SubmitBlockRequest,
  type SubmitBlockResponse,
  type TipsResponse,
} from '../../grpc/gen/node.ts';
import { blockFromProto, protocolParametersToProto, protocolParamsOptionToProto } from '../../grpc/mapping.ts';
import { NodeError } from '../support/errors.ts';
import type { MilestoneRef, NodeStatus } from '../status/status.ts';
import type { IncomingBlock } from '../tangle/intake.ts';
import type { BlockMetadataView, TangleReader } from '../tangle/reads.ts';
import type { ClientSubmissions } from '../tangle/submissions.ts';
import type { TipSelector } from '../tangle/urts.ts';
import {
  blockResponse,
  RenderedJson,
  requireId,
  storageStatus,
  V2_ID_LENGTH,
  V3_ID_LENGTH,
  type BlockSources,
} from './answers.ts';
import type { LedgerService } from './service-ledger.ts';
import type { ExplorerService } from './service-explorer.ts';
import { v3Unavailable, type V3Service } from './service-v3.ts';
import { FaucetService } from './service-faucet.ts';
import type { PeersService } from './service-peers.ts';
import type { ControlService } from './service-control.ts';
import type {
  CreateSnapshotRequest,
  CreateSnapshotResponse,
  PruneDatabaseRequest,
  PruneDatabaseResponse,
} from '../../grpc/gen/node.ts';

export interface NodeServiceDeps {
  reader: TangleReader;
  submissions: ClientSubmissions;
  status: NodeStatus;
  tips: TipSelector;
  /** The ledger reads (outputs, milestones, receipts, treasury). */
  ledger: LedgerService;
  /** The explorer API's reads (the history; absent: UNAVAILABLE). */
  explorer?: ExplorerService;
  /** Tip selection randomness (tests may fix it). */
  random?: () => number;
  /** The v3 RPCs, when the network has a v3 part. */
  v3?: V3Service;
  /** The dev network's faucet RPCs (absent: the faucet is off). */
  faucet?: FaucetService;
  /** The peers RPCs and the dashboard's data (service-peers.ts). */
  peers?: PeersService;
  /** Pruning and snapshots on demand (service-control.ts). */
  control?: ControlService;
}

type Explorer = ExplorerService['balance'];

const STATE: Record<string, LedgerInclusionState> = {
  noTransaction: LedgerInclusionState.LEDGER_INCLUSION_STATE_NO_TRANSACTION,
  included: LedgerInclusionState.LEDGER_INCLUSION_STATE_INCLUDED,
  conflicting: LedgerInclusionState.LEDGER_INCLUSION_STATE_CONFLICTING,
};

/** The block a SubmitBlock request carries, as the intake takes it (raw bytes are decoded there). */
export function incomingOf(req: SubmitBlockRequest): IncomingBlock {
  const body = req.block;
  switch (body?.$case) {
    case 'raw':
      if (body.value.length === 0) throw new NodeError('INVALID_REQUEST', 'invalid block: request body missing');
      return { bytes: body.value };
    case 'json': {
      let json: unknown;
      try {
        json = JSON.parse(body.value);
      } catch (e) {
        return reject('INVALID_JSON', `invalid block JSON: ${(e as Error).message}`, {
          field: 'block',
          value: body.value.slice(0, 80),
        });
      }
      return { block: blockFromJson(json, { submission: true }) };
    }
    case 'structured':
      return { block: blockFromProto(body.value, 'block') };
    default:
      throw new NodeError(
        'INVALID_REQUEST',
        'invalid block: the request carries no block (set structured, raw or json)',
      );
  }
}

export class NodeServiceImpl {
  private readonly random: () => number;
  /** Block JSON already rendered (GET block JSON reads it instead of decoding and rendering again). */
  private readonly rendered = new RenderedJson();

  constructor(private readonly deps: NodeServiceDeps) {
    this.random = deps.random ?? Math.random;
  }

  // ---- blocks

  async getBlock(req: GetBlockRequest): Promise<BlockResponse> {
    const id = requireId(req.blockId, V2_ID_LENGTH, 'block ID');
    return this.blockAnswer(id, req.view);
  }

  async getBlockMetadata(req: GetBlockMetadataRequest): Promise<BlockMetadata> {
    const id = requireId(req.blockId, V2_ID_LENGTH, 'block ID');
    return metadataMessage(await this.deps.reader.metadata(id));
  }

  /** `signal`: the call's cancellation (client gone). */
  async submitBlock(req: SubmitBlockRequest, signal?: AbortSignal): Promise<SubmitBlockResponse> {
    return { blockId: await this.deps.submissions.submit(incomingOf(req), signal) };
  }

  // ---- transactions

  async getIncludedBlock(req: GetIncludedBlockRequest): Promise<BlockResponse> {
    const txId = requireId(req.transactionId, V2_ID_LENGTH, 'transaction ID');
    return this.blockAnswer(await this.deps.reader.includedBlockId(txId), req.view);
  }

  async getIncludedBlockMetadata(req: GetIncludedBlockRequest): Promise<BlockMetadata> {
    const txId = requireId(req.transactionId, V2_ID_LENGTH, 'transaction ID');
    return metadataMessage(await this.deps.reader.metadata(await this.deps.reader.includedBlockId(txId)));
  }

  /** v3: the earliest confirmed attachment; NOT_FOUND before confirmation. */
  async getIncludedBlockV3(req: GetIncludedBlockV3Request): Promise<BlockV3Response> {
    const txId = requireId(req.transactionId, V3_ID_LENGTH, 'transaction ID');
    if (req.view === BlockView.BLOCK_VIEW_STRUCTURED)
      throw new NodeError('INVALID_REQUEST', 'the structured view is not offered for v3 blocks');
    if (this.deps.v3) return this.deps.v3.getIncludedBlock(txId, req.view);
    // A network without a v3 part never includes a v3 transaction.
    throw new NodeError(
      'NOT_FOUND',
      `transaction not included: ${toHex0x(txId)} (unknown, or not confirmed by a milestone yet)`,
    );
  }

  // ---- v3 (IOTA 2.0): service-v3.ts

  submitBlockV3 = (req: SubmitBlockV3Request): Promise<SubmitBlockResponse> =>
    (this.deps.v3 ?? v3Unavailable()).submitBlock(req);
  getBlockV3 = (req: GetBlockV3Request): Promise<BlockV3Response> => (this.deps.v3 ?? v3Unavailable()).getBlock(req);
  getBlockMetadataV3 = (req: GetBlockV3Request): Promise<JsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getBlockMetadata(req);
  getInfoV3 = (): Promise<JsonV3Response> => (this.deps.v3 ?? v3Unavailable()).getInfo();
  getIssuanceV3 = (): Promise<JsonV3Response> => (this.deps.v3 ?? v3Unavailable()).getIssuance();
  getBlockWithMetadataV3 = (req: GetBlockV3Request): Promise<JsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getBlockWithMetadata(req);
  getTransactionMetadataV3 = (req: GetIncludedBlockV3Request): Promise<JsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getTransactionMetadata(req);
  getIncludedBlockMetadataV3 = (req: GetIncludedBlockV3Request): Promise<JsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getIncludedBlockMetadata(req);
  getOutputV3 = (req: GetOutputV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getOutput(req);
  getOutputMetadataV3 = (req: GetOutputV3Request): Promise<JsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getOutputMetadata(req);
  getOutputWithMetadataV3 = (req: GetOutputV3Request): Promise<JsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getOutputWithMetadata(req);
  getCommitmentV3 = (req: GetCommitmentV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getCommitment(req);
  getUtxoChangesV3 = (req: GetUtxoChangesV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).getUtxoChanges(req);

  // ---- v3 network and account reads: service-v3-network.ts

  getCommitteeV3 = (req: GetCommitteeV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).network.getCommittee(req);
  getValidatorsV3 = (req: GetValidatorsV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).network.getValidators(req);
  getValidatorV3 = (req: GetValidatorV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).network.getValidator(req);
  getAccountCongestionV3 = (req: GetAccountCongestionV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).network.getAccountCongestion(req);
  getOutputManaRewardsV3 = (req: GetOutputManaRewardsV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).network.getOutputManaRewards(req);
  getNetworkMetricsV3 = (req: GetNetworkMetricsV3Request): Promise<RawOrJsonV3Response> =>
    (this.deps.v3 ?? v3Unavailable()).network.getNetworkMetrics(req);

  // ---- ledger: service-ledger.ts

  getOutput = (req: GetOutputRequest): Promise<OutputResponse> => this.deps.ledger.getOutput(req);
  getOutputMetadata = (req: GetOutputRequest): Promise<LedgerJsonResponse> => this.deps.ledger.getOutputMetadata(req);
  getMilestone = (req: GetMilestoneRequest): Promise<MilestoneResponse> => this.deps.ledger.getMilestone(req);
  getMilestoneUtxoChanges = (req: GetMilestoneRequest): Promise<LedgerJsonResponse> =>
    this.deps.ledger.getMilestoneUtxoChanges(req);
  getReceipts = (req: GetReceiptsRequest): Promise<LedgerJsonResponse> => this.deps.ledger.getReceipts(req);
  getTreasury = (): Promise<LedgerJsonResponse> => this.deps.ledger.getTreasury();
  /** `signal`: the call's cancellation; the indexer's scan stops with it. */
  queryOutputs = (req: QueryOutputsRequest, signal?: AbortSignal): Promise<LedgerJsonResponse> =>
    this.deps.ledger.queryOutputs(req, signal);
  getChainOutput = (req: GetChainOutputRequest): Promise<LedgerJsonResponse> => this.deps.ledger.getChainOutput(req);

  // ---- explorer (inx-chronicle's /api/explorer/v2): service-explorer.ts

  getExplorerBalance: Explorer = (req) => this.explorerService().balance(req);
  getLedgerUpdatesByAddress: Explorer = (req) => this.explorerService().updatesByAddress(req);
  getLedgerUpdatesByMilestone: Explorer = (req) => this.explorerService().updatesByMilestone(req);
  getExplorerMilestones: Explorer = (req) => this.explorerService().milestones(req);
  getMilestoneBlocks: Explorer = (req) => this.explorerService().milestoneBlocks(req);
  getBlockChildren: Explorer = (req) => this.explorerService().children(req);
  getRichestAddresses: Explorer = (req) => this.explorerService().richest(req);
  getTokenDistribution: Explorer = (req) => this.explorerService().distribution(req);
  explorerSearch: Explorer = (req) => this.explorerService().search(req);

  // ---- faucet: service-faucet.ts

  faucetInfo = (): Promise<FaucetInfoResponse> => (this.deps.faucet ?? new FaucetService(undefined)).info();
  faucetEnqueue = (req: FaucetEnqueueRequest): Promise<FaucetEnqueueResponse> =>
    (this.deps.faucet ?? new FaucetService(undefined)).enqueue(req);

  // ---- peers and the dashboard: service-peers.ts

  getPeers = (): Promise<PeersResponse> => this.peersService().getPeers();
  getPeer = (req: GetPeerRequest): Promise<Peer> => this.peersService().getPeer(req);
  addPeer = (req: AddPeerRequest): Promise<Peer> => this.peersService().addPeer(req);
  removePeer = (req: GetPeerRequest): Promise<RemovePeerResponse> => this.peersService().removePeer(req);
  getDashboard = (): Promise<DashboardResponse> => this.peersService().getDashboard();

  // ---- control (pruning, snapshots): service-control.ts

  pruneDatabase = (req: PruneDatabaseRequest): Promise<PruneDatabaseResponse> =>
    this.controlService().pruneDatabase(req);
  createSnapshot = (req: CreateSnapshotRequest): Promise<CreateSnapshotResponse> =>
    this.controlService().createSnapshot(req);

  private explorerService(): ExplorerService {
    if (!this.deps.explorer) throw new NodeError('UNAVAILABLE', 'this node serves no explorer API');
    return this.deps.explorer;
  }

  private controlService(): ControlService {
    if (!this.deps.control) throw new NodeError('UNAVAILABLE', 'this node offers no pruning or snapshots');
    return this.deps.control;
  }

  private peersService(): PeersService {
    if (!this.deps.peers) throw new NodeError('UNAVAILABLE', 'this node serves no peer layer');
    return this.deps.peers;
  }

  // ---- node

  async getInfo(): Promise<InfoResponse> {
    const info = await this.deps.status.info();
    return {
      name: info.name,
      version: info.version,
      status: {
        isHealthy: info.isHealthy,
        healthReasons: info.healthReasons,
        latestMilestone: milestoneInfo(info.latestMilestone),
        confirmedMilestone: milestoneInfo(info.confirmedMilestone),
        pruningIndex: info.pruningIndex,
      },
      supportedProtocolVersions: info.supportedProtocolVersions,
      protocol: protocolParametersToProto(info.protocol),
      pendingProtocolParameters: info.pendingProtocolParameters.map((c, i) =>
        protocolParamsOptionToProto(
          {
            type: MILESTONE_OPTION_PROTOCOL_PARAMS,
            targetMilestoneIndex: c.targetMilestoneIndex,
            protocolVersion: c.protocolVersion,
            params: c.params,
          },
          `pendingProtocolParameters[${i}]`,
        ),
      ),
      baseToken: info.baseToken,
      metrics: info.metrics,
      features: info.features,
      identity: info.identity,
      storage: info.storage && storageStatus(info.storage),
    };
  }

  async getTips(req: GetTipsRequest): Promise<TipsResponse> {
    return { tips: await this.deps.tips.select(this.random, undefined, req.allowSemiLazy === true) };
  }

  private async blockAnswer(id: Uint8Array, view: BlockView): Promise<BlockResponse> {
    return blockResponse(id, view, new StoredBlock(id, await this.deps.reader.block(id), this.rendered));
  }
}

/**
 * A stored block's answers, each made once and only when a view asks for it; the JSON text comes from the rendered
 * ones when the block was rendered before. (Methods, not per-call closures: the TypeScript loader gives every function
 * expression bound to a name its name at run time, a property definition per call on this hot path.)
 */
class StoredBlock implements BlockSources {
  private decoded: Block | undefined;

  constructor(
    private readonly id: Uint8Array,
    private readonly bytes: Uint8Array,
    private readonly rendered: RenderedJson,
  ) {}

  block(): Block {
    this.decoded ??= decodeBlock(this.bytes);
    return this.decoded;
  }

  raw(): Uint8Array {
    return this.bytes;
  }

  json(): string {
    return this.rendered.of(this.id, () => JSON.stringify(blockToJson(this.block())));
  }
}

function milestoneInfo(m: MilestoneRef): MilestoneInfo {
  return { ...m };
}

/**
 * The metadata answer (Hornet's rules): referenced blocks carry the milestone index, white-flag index, inclusion
 * state and (conflicting only) the conflict reason; unreferenced solid blocks carry shouldPromote/shouldReattach
 * from their tip score (both false when not given); unsolid blocks carry neither.
 */
export function metadataMessage(view: BlockMetadataView): BlockMetadata {
  const { blockId, parents, metadata: md, flags } = view;
  const out: BlockMetadata = {
    blockId,
    parents,
    isSolid: md.solid,
    ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_UNSPECIFIED,
  };
  if (md.milestoneIndex !== undefined) out.milestoneIndex = md.milestoneIndex;
  if (md.referenced) {
    out.referencedByMilestoneIndex = md.referenced.milestoneIndex;
    out.ledgerInclusionState = STATE[md.referenced.ledgerInclusionState]!;
    if (md.referenced.ledgerInclusionState === 'conflicting') out.conflictReason = md.referenced.conflictReason;
    out.whiteFlagIndex = md.referenced.whiteFlagIndex;
  } else if (md.solid) {
    out.shouldPromote = flags?.shouldPromote ?? false;
    out.shouldReattach = flags?.shouldReattach ?? false;
  }
  return out;
}
