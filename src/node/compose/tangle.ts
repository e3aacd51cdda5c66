/**
 * The tangle and the ledger: the protocol state, storing blocks (the attacher and its write lock), tip selection,
 * milestone confirmation, the intake every block goes through, client submissions and the built-in coordinator.
 */
import { LedgerState } from '../../core/ledger/index.ts';
import { TABLES, type NodeStore } from '../../core/store/index.ts';
import { Coordinator } from '../ledger/coordinator.ts';
import type { CoordinatorSettings } from '../genesis/genesis-ledger.ts';
import { MilestoneProcessor } from '../ledger/milestones.ts';
import { ProtocolState } from '../ledger/protocol-state.ts';
import type { Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import type { SyncState } from '../peering/sync-state.ts';
import type { PowQueue } from '../pow/queue.ts';
import type { NodeMetrics } from '../metrics/node-metrics.ts';
import type { NodeStatus } from '../status/status.ts';
import { Attacher } from '../tangle/attach.ts';
import { ConeRoots } from '../tangle/cone-roots.ts';
import { Intake } from '../tangle/intake.ts';
import { KnownBlocks } from '../tangle/known-blocks.ts';
import { RecentBlocks } from '../tangle/recent-blocks.ts';
import { ClientSubmissions } from '../tangle/submissions.ts';
import { TipSelector, type PoolRules } from '../tangle/urts.ts';
import type { WriteLock } from '../tangle/write-lock.ts';

export interface TangleParts {
  readonly protocol: ProtocolState;
  readonly coneRoots: ConeRoots;
  readonly known: KnownBlocks;
  readonly attacher: Attacher;
  readonly tips: TipSelector;
  readonly recent: RecentBlocks;
  /** The attacher's exclusive slot (tangle/write-lock.ts). */
  readonly writeLock: WriteLock;
}

/** The protocol state, the attacher and the tip pools it feeds, and the recently stored blocks. */
export async function wireTangle(
  store: NodeStore,
  network: NetworkState,
  settings: { tipPools?: { nonLazy: PoolRules; semiLazy: PoolRules } | undefined },
  now: () => number,
): Promise<TangleParts> {
  const protocol = await ProtocolState.load(store);
  const coneRoots = new ConeRoots(store, network, protocol);
  const known = new KnownBlocks();
  const attacher = new Attacher(store, protocol, coneRoots, known, now);
  const tips = new TipSelector(store, protocol, coneRoots, now, settings.tipPools);
  attacher.onSolid((id, parents, cri) => tips.added(id, parents, cri));
  const recent = new RecentBlocks(store, protocol);
  attacher.onStored((id, block) => recent.stored(id, block));
  return { protocol, coneRoots, known, attacher, tips, recent, writeLock: (fn) => attacher.exclusive(fn) };
}

export interface LedgerParts {
  readonly ledger: LedgerState;
  readonly milestones: MilestoneProcessor;
}

/**
 * The milestone processor: confirms milestones under the write lock; after each confirmation the recent blocks
 * learn what was referenced, cone root indexes above the confirmed cone become current again and the tip pools are
 * rescored. Then one pass over the stored blocks' metadata tells the attacher and the processor what they need at
 * start, and the attacher and the tip pools load.
 */
export async function wireLedger(store: NodeStore, tangle: TangleParts, logger: Logger): Promise<LedgerParts> {
  const { protocol, coneRoots, attacher, tips, recent, writeLock } = tangle;
  const afterConfirm = async (referenced: Uint8Array[], index: number): Promise<void> => {
    recent.referenced(referenced);
    // The confirmed index moved: cone root indexes above the confirmed cone are current again, then the pools rescored.
    const batch = store.batch();
    const changed = await coneRoots.afterConfirmation(referenced, index, batch);
    if (batch.length > 0) await batch.commit({ sync: false });
    tips.rescore(changed);
  };
  const milestones = new MilestoneProcessor(store, writeLock, protocol, logger, afterConfirm, recent);
  attacher.onStored((id, block, result) => milestones.stored(id, block, result));
  for await (const [id, md] of store.entries(TABLES.blockMetadata)) {
    attacher.noteStored(id, md);
    milestones.noteStored(id, md);
  }
  await attacher.load();
  await tips.load();
  return { ledger: new LedgerState(store), milestones };
}

export interface IntakeParts {
  readonly intake: Intake;
  readonly submissions: ClientSubmissions;
}

/**
 * The clients' submissions over the intake: refused while the node is cut off from its network (the status' refusal,
 * status/health.ts) or not synced.
 */
export function wireSubmissions(
  intake: Intake,
  sync: SyncState,
  status: Pick<NodeStatus, 'refusal'>,
): ClientSubmissions {
  return new ClientSubmissions(intake, {
    synced: () => sync.almostSynced,
    refusal: () => status.refusal(),
  });
}

/** Every block's way in (intake.ts); the clients' submissions come later (wireSubmissions), over the node's status. */
export function wireIntake(
  deps: {
    network: NetworkState;
    tangle: TangleParts;
    ledger: LedgerParts;
    metrics: NodeMetrics;
    pow: PowQueue | undefined;
  },
  random: () => number,
): Intake {
  const { network, tangle, ledger, metrics, pow } = deps;
  const intake = new Intake({
    network,
    protocol: tangle.protocol,
    pow,
    attacher: tangle.attacher,
    selectTips: () => tangle.tips.select(random),
    milestoneKeys: () => ledger.ledger.milestoneKeys(),
    observe: (origin, outcome) => metrics.blockReceived(origin, outcome),
  });
  return intake;
}

/** The built-in coordinator of dev networks (undefined without its settings). */
export function wireCoordinator(
  deps: {
    store: NodeStore;
    tangle: TangleParts;
    ledger: LedgerParts;
    intake: Intake;
    pow: PowQueue | undefined;
    now: () => number;
  },
  settings: CoordinatorSettings | undefined,
  logger: Logger,
): Coordinator | undefined {
  if (!settings) return undefined;
  const { store, tangle, ledger, intake, pow, now } = deps;
  return new Coordinator({
    store,
    protocol: tangle.protocol,
    tips: tangle.tips,
    blocks: tangle.recent,
    milestones: ledger.milestones,
    exclusive: tangle.writeLock,
    accept: async (block) => (await intake.accept({ block }, { kind: 'coordinator' })).blockId,
    ...(pow
      ? { mine: (bytes: Uint8Array, score: number) => pow.mine(bytes, score, new AbortController().signal) }
      : {}),
    settings,
    logger,
    now,
  });
}
