/**
 * The NodeService over NodeStore and the core: every RPC as a plain async method (request message in, answer
 * message out, errors thrown as NodeError / ProtocolError). grpc-handlers.ts puts them on the wire.
 */
import { setMaxListeners } from 'node:events';
import { toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { blockToJson } from '../../core/json/index.ts';
import { META, type BlockMetadata as StoredMetadata, type NodeStore } from '../../core/store/index.ts';
import { blockResponse, requireId, V2_ID_LENGTH, V3_ID_LENGTH } from './answers.ts';
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
  type JsonV3Response,
  type SubmitBlockV3Request,
  type GetTipsRequest,
  type InfoResponse,
  type MilestoneInfo,
  type SubmitBlockRequest,
  type SubmitBlockResponse,
  type TipsResponse,
} from '../../grpc/gen/node.ts';
import { protocolParametersToProto } from '../../grpc/mapping.ts';
import { NodeError } from '../errors.ts';
import { Attacher } from '../tangle/attach.ts';
import { RateMeter } from '../metrics.ts';
import type { NetworkState } from '../network.ts';
import type { PowQueue } from '../pow/queue.ts';
import { submitBlock } from '../tangle/intake.ts';
import { v3Unavailable, type V3Service } from '../v3/service-v3.ts';
import { MilestoneProcessor } from '../ledger/milestones.ts';
import { consoleLogger, type Logger } from '../logger.ts';
import { promoteReattach, TipSelector, type PromoteReattach } from '../tangle/urts.ts';

export const NODE_NAME = 'ledger-node';
export const SUPPORTED_PROTOCOL_VERSIONS = [2];

export interface ServiceOptions {
  store: NodeStore;
  network: NetworkState;
  /** Undefined = remote PoW off. */
  pow?: PowQueue;
  /** The node's version (package.json). */
  version: string;
  now?: () => number;
  /** Tip selection randomness (tests may fix it). */
  random?: () => number;
  logger?: Logger;
}

/** A node whose latest milestone is older than this is not healthy (unless its own coordinator runs). */
export const MAX_MILESTONE_AGE_MS = 5 * 60 * 1000;

const STATE: Record<string, LedgerInclusionState> = {
  noTransaction: LedgerInclusionState.LEDGER_INCLUSION_STATE_NO_TRANSACTION,
  included: LedgerInclusionState.LEDGER_INCLUSION_STATE_INCLUDED,
  conflicting: LedgerInclusionState.LEDGER_INCLUSION_STATE_CONFLICTING,
};

export class NodeServiceImpl {
  readonly store: NodeStore;
  readonly network: NetworkState;
  readonly pow: PowQueue | undefined;
  readonly version: string;
  readonly blocksPerSecond: RateMeter;
  /** The attach path (submissions, the coordinator and blocks from peers: src/node/peering). */
  readonly attacher: Attacher;
  private readonly random: () => number;
  private readonly now: () => number;
  /** URTS tip selection and tip scores. */
  readonly tips: TipSelector;
  /** Milestone blocks -> confirmation. */
  readonly milestones: MilestoneProcessor;
  /** Set by the composition root when the built-in coordinator runs (health). */
  coordinatorActive: () => boolean = () => false;
  /** Set by the composition root when peering runs (src/node/peering): false while the node catches up with its peers. */
  synced: () => boolean = () => true;
  /** The IOTA 2.0 (v3) part (src/node/v3), set by the composition root when the network has one. */
  v3: V3Service | undefined = undefined;
  /** Aborted by shutdown(): in-flight PoW jobs stop. */
  /** Aborted at shutdown. Every submission in flight listens to it (and stops listening when it ends), so the number
   * of listeners is the number of concurrent submissions: no listener-count warning applies. */
  private readonly lifetime = (() => {
    const c = new AbortController();
    setMaxListeners(0, c.signal);
    return c;
  })();

  constructor(options: ServiceOptions) {
    this.store = options.store;
    this.network = options.network;
    this.pow = options.pow;
    this.version = options.version;
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    this.attacher = new Attacher(this.store, this.network, this.now);
    this.tips = new TipSelector(this.store, this.network);
    this.milestones = new MilestoneProcessor(this.store, (fn) => this.attacher.exclusive(fn), options.logger ?? consoleLogger);
    this.attacher.onStored((id, block, result) => this.milestones.stored(id, block, result));
    this.blocksPerSecond = new RateMeter(10, options.now ?? Date.now);
  }

  // ---- blocks

  async getBlock(req: GetBlockRequest): Promise<BlockResponse> {
    const id = requireId(req.blockId, V2_ID_LENGTH, 'block ID');
    return this.blockAnswer(id, req.view);
  }

  async getBlockMetadata(req: GetBlockMetadataRequest): Promise<BlockMetadata> {
    const id = requireId(req.blockId, V2_ID_LENGTH, 'block ID');
    return this.metadataAnswer(id);
  }

  /** `signal`: the call's cancellation (client gone); shutdown aborts too. */
  async submitBlock(req: SubmitBlockRequest, signal?: AbortSignal): Promise<SubmitBlockResponse> {
    if (!this.synced()) throw new NodeError('NODE_NOT_SYNCED', 'node is not synced: it is catching up with its peers');
    // One controller per call, listening to both signals and letting go of the node-lifetime signal when the call
    // ends. (AbortSignal.any would do, but on Node 20 every combined signal stays registered on the long-lived
    // lifetime signal for good: about 0.8 KB per submission, found by the soak; nodejs/node#55351.)
    const call = new AbortController();
    const abort = (s: AbortSignal) => () => call.abort(s.reason);
    const sources = signal ? [signal, this.lifetime.signal] : [this.lifetime.signal];
    const listeners = sources.map((s) => [s, abort(s)] as const);
    for (const [s, l] of listeners) {
      if (s.aborted) call.abort(s.reason);
      else s.addEventListener('abort', l, { once: true });
    }
    try {
      const blockId = await submitBlock(
        { network: this.network, pow: this.pow, attacher: this.attacher, selectTips: () => this.tips.select(this.random) },
        req,
        call.signal,
      );
      this.blocksPerSecond.mark();
      return { blockId };
    } finally {
      for (const [s, l] of listeners) s.removeEventListener('abort', l);
    }
  }

  // ---- transactions

  async getIncludedBlock(req: GetIncludedBlockRequest): Promise<BlockResponse> {
    const txId = requireId(req.transactionId, V2_ID_LENGTH, 'transaction ID');
    return this.blockAnswer(await this.includedBlockId(txId), req.view);
  }

  async getIncludedBlockMetadata(req: GetIncludedBlockRequest): Promise<BlockMetadata> {
    const txId = requireId(req.transactionId, V2_ID_LENGTH, 'transaction ID');
    return this.metadataAnswer(await this.includedBlockId(txId));
  }

  /** v3: the earliest confirmed attachment (src/node/v3/engine.ts); NOT_FOUND before confirmation. */
  async getIncludedBlockV3(req: GetIncludedBlockV3Request): Promise<BlockV3Response> {
    const txId = requireId(req.transactionId, V3_ID_LENGTH, 'transaction ID');
    if (req.view === BlockView.BLOCK_VIEW_STRUCTURED) throw new NodeError('INVALID_REQUEST', 'the structured view is not offered for v3 blocks');
    if (this.v3) return this.v3.getIncludedBlock(txId, req.view);
    const blockId = await this.includedBlockId(txId);
    throw new NodeError('NOT_FOUND', `block not found: ${toHex0x(blockId)}`);
  }

  // ---- v3 (IOTA 2.0): delegated to src/node/v3/service-v3.ts

  submitBlockV3 = (req: SubmitBlockV3Request): Promise<SubmitBlockResponse> => (this.v3 ?? v3Unavailable()).submitBlock(req);
  getBlockV3 = (req: GetBlockV3Request): Promise<BlockV3Response> => (this.v3 ?? v3Unavailable()).getBlock(req);
  getBlockMetadataV3 = (req: GetBlockV3Request): Promise<JsonV3Response> => (this.v3 ?? v3Unavailable()).getBlockMetadata(req);
  getInfoV3 = (): Promise<JsonV3Response> => (this.v3 ?? v3Unavailable()).getInfo();
  getIssuanceV3 = (): Promise<JsonV3Response> => (this.v3 ?? v3Unavailable()).getIssuance();

  // ---- node

  async getInfo(): Promise<InfoResponse> {
    const seen = this.milestones.latest();
    const latest = Math.max((await this.store.getMeta(META.latestMilestoneIndex)) ?? this.network.genesisMilestone.index, seen?.index ?? 0);
    const confirmed = (await this.store.getMeta(META.confirmedMilestoneIndex)) ?? this.network.genesisMilestone.index;
    const latestMilestone = seen !== undefined && seen.index === latest && latest > confirmed ? { ...seen } : await this.milestoneInfo(latest);
    // Hornet: synced (confirmed = latest) and the latest milestone is recent; a node running its own coordinator is
    // the network's clock, so it is healthy while it runs.
    const recent = latestMilestone.timestamp !== undefined && this.now() - latestMilestone.timestamp * 1000 < MAX_MILESTONE_AGE_MS;
    const isHealthy = confirmed === latest && (recent || this.coordinatorActive()) && this.synced();
    return {
      name: NODE_NAME,
      version: this.version,
      status: {
        isHealthy,
        latestMilestone,
        confirmedMilestone: await this.milestoneInfo(confirmed),
        pruningIndex: 0,
      },
      supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS.slice(),
      protocol: protocolParametersToProto(this.network.protocol),
      pendingProtocolParameters: [],
      baseToken: { ...this.network.baseToken },
      metrics: { blocksPerSecond: this.blocksPerSecond.rate(), referencedBlocksPerSecond: 0, referencedRate: 0 },
      features: this.pow ? ['pow'] : [],
    };
  }

  async getTips(req: GetTipsRequest): Promise<TipsResponse> {
    return { tips: await this.tips.select(this.random, undefined, req.allowSemiLazy === true) };
  }

  /** Runs `fn` with no block attach or milestone confirmation running meanwhile. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.attacher.exclusive(fn);
  }

  /** Aborts running and queued PoW jobs and waits for writes under way. */
  async shutdown(): Promise<void> {
    this.lifetime.abort(new Error('the node is shutting down'));
    this.milestones.stop();
    await this.attacher.idle();
  }

  // ---- internals

  private async includedBlockId(txId: Uint8Array): Promise<Uint8Array> {
    const blockId = await this.store.includedBlock(txId);
    if (blockId === undefined) throw new NodeError('NOT_FOUND', `transaction not included: ${toHex0x(txId)} (unknown, or not confirmed by a milestone yet)`);
    return blockId;
  }

  private async storedBlock(id: Uint8Array): Promise<Uint8Array> {
    const raw = await this.store.getBlock(id);
    if (raw === undefined) throw new NodeError('NOT_FOUND', `block not found: ${toHex0x(id)}`);
    return raw;
  }

  private async blockAnswer(id: Uint8Array, view: BlockView): Promise<BlockResponse> {
    const raw = await this.storedBlock(id);
    let decoded: ReturnType<typeof decodeBlock> | undefined;
    const block = () => (decoded ??= decodeBlock(raw));
    return blockResponse(id, view, { block, raw: () => raw, json: () => JSON.stringify(blockToJson(block())) });
  }

  private async metadataAnswer(id: Uint8Array): Promise<BlockMetadata> {
    const [raw, md] = await Promise.all([this.storedBlock(id), this.store.getBlockMetadata(id)]);
    if (md === undefined) throw new NodeError('INTERNAL', `block ${toHex0x(id)} is stored without metadata`);
    const flags = md.solid && !md.referenced ? promoteReattach(await this.tips.score(id)) : undefined;
    return metadataMessage(id, decodeBlock(raw).parents, md, flags);
  }

  private async milestoneInfo(index: number): Promise<MilestoneInfo> {
    const record = await this.store.milestone(index);
    if (record) return { index, timestamp: record.timestamp, milestoneId: record.milestoneId };
    const g = this.network.genesisMilestone;
    if (index === g.index && index > 0) return { index, timestamp: g.timestamp, milestoneId: g.milestoneId };
    return { index };
  }
}

/**
 * The metadata answer (Hornet's rules): referenced blocks carry the milestone index, white-flag index, inclusion
 * state and (conflicting only) the conflict reason; unreferenced solid blocks carry shouldPromote/shouldReattach
 * from their tip score (urts.ts; both false when not given); unsolid blocks carry neither.
 */
export function metadataMessage(blockId: Uint8Array, parents: Uint8Array[], md: StoredMetadata, flags?: PromoteReattach): BlockMetadata {
  const out: BlockMetadata = { blockId, parents, isSolid: md.solid, ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_UNSPECIFIED };
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
