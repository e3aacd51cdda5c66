/**
 * Each NodeService method's generated message functions (the compiler checks every method of the generated definition
 * is here, with its own types): the NodeMux transport (src/grpc/mux.ts) decodes requests and encodes answers with them,
 * through a writer it reuses (the definition's serialize functions make a new one per message).
 */
import {
  BlockMetadata,
  BlockResponse,
  BlockV3Response,
  GetBlockMetadataRequest,
  GetBlockRequest,
  GetBlockV3Request,
  GetIncludedBlockRequest,
  GetIncludedBlockV3Request,
  GetCommitmentV3Request,
  GetOutputV3Request,
  RawOrJsonV3Response,
  GetInfoRequest,
  GetChainOutputRequest,
  FaucetEnqueueRequest,
  FaucetEnqueueResponse,
  FaucetInfoRequest,
  FaucetInfoResponse,
  AddPeerRequest,
  DashboardResponse,
  GetDashboardRequest,
  GetPeerRequest,
  GetPeersRequest,
  Peer,
  PeersResponse,
  RemovePeerResponse,
  GetMilestoneRequest,
  GetOutputRequest,
  GetReceiptsRequest,
  GetTipsRequest,
  GetTreasuryRequest,
  InfoResponse,
  JsonV3Response,
  LedgerJsonResponse,
  MilestoneResponse,
  type NodeServiceService,
  OutputResponse,
  QueryOutputsRequest,
  SubmitBlockRequest,
  SubmitBlockResponse,
  SubmitBlockV3Request,
  TipsResponse,
  PruneDatabaseRequest,
  PruneDatabaseResponse,
  CreateSnapshotRequest,
  CreateSnapshotResponse,
  type MessageFns,
} from './gen/node.ts';

type Definition = typeof NodeServiceService;
type NodeServiceMethod = keyof Definition;
type RequestOf<M extends NodeServiceMethod> = Parameters<Definition[M]['requestSerialize']>[0];
export type ResponseOf<M extends NodeServiceMethod> = ReturnType<Definition[M]['responseDeserialize']>;

/** The generated message functions of each method (the compiler checks every method is here with its own types). */
export const MESSAGES: {
  readonly [M in NodeServiceMethod]: {
    readonly request: MessageFns<RequestOf<M>>;
    readonly response: MessageFns<ResponseOf<M>>;
  };
} = {
  getBlock: { request: GetBlockRequest, response: BlockResponse },
  getBlockMetadata: { request: GetBlockMetadataRequest, response: BlockMetadata },
  submitBlock: { request: SubmitBlockRequest, response: SubmitBlockResponse },
  getIncludedBlock: { request: GetIncludedBlockRequest, response: BlockResponse },
  getIncludedBlockMetadata: { request: GetIncludedBlockRequest, response: BlockMetadata },
  getIncludedBlockV3: { request: GetIncludedBlockV3Request, response: BlockV3Response },
  submitBlockV3: { request: SubmitBlockV3Request, response: SubmitBlockResponse },
  getBlockV3: { request: GetBlockV3Request, response: BlockV3Response },
  getBlockMetadataV3: { request: GetBlockV3Request, response: JsonV3Response },
  getInfoV3: { request: GetInfoRequest, response: JsonV3Response },
  getIssuanceV3: { request: GetInfoRequest, response: JsonV3Response },
  getBlockWithMetadataV3: { request: GetBlockV3Request, response: JsonV3Response },
  getTransactionMetadataV3: { request: GetIncludedBlockV3Request, response: JsonV3Response },
  getIncludedBlockMetadataV3: { request: GetIncludedBlockV3Request, response: JsonV3Response },
  getOutputV3: { request: GetOutputV3Request, response: RawOrJsonV3Response },
  getOutputMetadataV3: { request: GetOutputV3Request, response: JsonV3Response },
  getOutputWithMetadataV3: { request: GetOutputV3Request, response: JsonV3Response },
  getCommitmentV3: { request: GetCommitmentV3Request, response: RawOrJsonV3Response },
  getInfo: { request: GetInfoRequest, response: InfoResponse },
  getTips: { request: GetTipsRequest, response: TipsResponse },
  getOutput: { request: GetOutputRequest, response: OutputResponse },
  getOutputMetadata: { request: GetOutputRequest, response: LedgerJsonResponse },
  getMilestone: { request: GetMilestoneRequest, response: MilestoneResponse },
  getMilestoneUtxoChanges: { request: GetMilestoneRequest, response: LedgerJsonResponse },
  getReceipts: { request: GetReceiptsRequest, response: LedgerJsonResponse },
  getTreasury: { request: GetTreasuryRequest, response: LedgerJsonResponse },
  queryOutputs: { request: QueryOutputsRequest, response: LedgerJsonResponse },
  getChainOutput: { request: GetChainOutputRequest, response: LedgerJsonResponse },
  faucetInfo: { request: FaucetInfoRequest, response: FaucetInfoResponse },
  faucetEnqueue: { request: FaucetEnqueueRequest, response: FaucetEnqueueResponse },
  getPeers: { request: GetPeersRequest, response: PeersResponse },
  getPeer: { request: GetPeerRequest, response: Peer },
  addPeer: { request: AddPeerRequest, response: Peer },
  removePeer: { request: GetPeerRequest, response: RemovePeerResponse },
  getDashboard: { request: GetDashboardRequest, response: DashboardResponse },
  pruneDatabase: { request: PruneDatabaseRequest, response: PruneDatabaseResponse },
  createSnapshot: { request: CreateSnapshotRequest, response: CreateSnapshotResponse },
};
