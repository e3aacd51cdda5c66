/**
 * The in-process transport's messages: each NodeService method's generated message functions, and the answer as a
 * real client would get it (normalized like decode's output, every bytes field copied, so nothing the caller does
 * reaches the service's objects). in-process.ts dispatches the calls.
 */
import { Buffer } from 'node:buffer';
import {
  BlockMetadata,
  BlockResponse,
  BlockV3Response,
  GetBlockMetadataRequest,
  GetBlockRequest,
  GetBlockV3Request,
  GetIncludedBlockRequest,
  GetIncludedBlockV3Request,
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
  NodeServiceService,
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
} from '../../grpc/gen/node.ts';

type Definition = typeof NodeServiceService;
export type NodeServiceMethod = keyof Definition;
type RequestOf<M extends NodeServiceMethod> = Parameters<Definition[M]['requestSerialize']>[0];
export type ResponseOf<M extends NodeServiceMethod> = ReturnType<Definition[M]['responseDeserialize']>;

/** The generated message functions of each method (the compiler checks every method is here with its own types). */
export const MESSAGES: { readonly [M in NodeServiceMethod]: { readonly request: MessageFns<RequestOf<M>>; readonly response: MessageFns<ResponseOf<M>> } } = {
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

/** A message type's fromPartial, for a value the compiler cannot tie to one method. */
export interface Normalizer {
  fromPartial(object: unknown): unknown;
}

/** A copy of `bytes` as decode would hand it out (a Buffer; an empty field is a fresh empty array). */
function copyBytes(bytes: Uint8Array): Uint8Array {
  return bytes.length === 0 ? new Uint8Array(0) : Buffer.from(bytes);
}

/** Replaces every bytes value inside `node` (objects and arrays fromPartial just built) by a copy. */
function copyBytesIn(node: object): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (v instanceof Uint8Array) node[i] = copyBytes(v);
      else if (typeof v === 'object' && v !== null) copyBytesIn(v);
    }
    return;
  }
  const record = node as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const v = record[key];
    if (v instanceof Uint8Array) record[key] = copyBytes(v);
    else if (typeof v === 'object' && v !== null) copyBytesIn(v);
  }
}

/** The answer as the caller gets it: normalized like decode's output, detached from the service's objects. */
export function detachResponse<M extends NodeServiceMethod>(method: M, value: unknown): ResponseOf<M> {
  if (typeof value !== 'object' || value === null) throw new TypeError('the answer is not a message');
  const message = (MESSAGES[method].response as Normalizer).fromPartial(value) as ResponseOf<M>;
  copyBytesIn(message);
  return message;
}
