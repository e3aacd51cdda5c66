/**
 * The features around the tangle: the event bus (TIP-28), the metrics' hooks, the faucet of dev networks and the v3
 * engine with its validator and its retention.
 */
import type { NodeStore } from '../../core/store/index.ts';
import { EventBus } from '../events/bus.ts';
import { feedEvents } from '../events/feed.ts';
import { Faucet, type FaucetSettings } from '../faucet/faucet.ts';
import { FaucetLedger } from '../faucet/funds.ts';
import type { Logger } from '../logger.ts';
import type { NetworkState } from '../genesis/network.ts';
import type { PeerManager } from '../peering/manager.ts';
import type { SyncState } from '../peering/sync-state.ts';
import type { PowQueue } from '../pow/queue.ts';
import type { NodeMetrics } from '../metrics/node-metrics.ts';
import { DEFAULT_VALIDATION_INTERVAL_MS } from '../settings.ts';
import type { NodeStatus } from '../status/status.ts';
import { TangleReader } from '../tangle/reads.ts';
import type { V3Engine } from '../v3/engine.ts';
import { DEFAULT_V3_RETENTION_EPOCHS, startV3Retention, type RetentionHandle } from '../v3/retention.ts';
import { startValidator, type ValidatorHandle } from '../v3/validator.ts';
import type { IntakeParts, LedgerParts, TangleParts } from './tangle.ts';

/** The metrics that follow the tangle: unsolid blocks stored, blocks solidified, milestones confirmed. */
export function wireMetricHooks(metrics: NodeMetrics, tangle: TangleParts, ledger: LedgerParts): void {
  tangle.attacher.onStored((id, _block, result) => {
    if (!result.solid) metrics.unsolidStored(id);
  });
  tangle.attacher.onSolid((id) => metrics.solidified(id));
  ledger.milestones.onConfirmed((e) => {
    const verdicts = e.confirmation.verdicts;
    const conflicts = verdicts.filter((v) => v.ledgerInclusionState === 'conflicting').map((v) => v.conflictReason);
    metrics.milestoneConfirmed({
      index: e.index,
      timestamp: e.confirmation.milestoneTimestamp,
      milestoneId: e.milestoneId,
      blockId: e.blockId,
      referencedBlocks: e.coneSize,
      includedTransactions: e.included,
      conflicts,
      ms: e.ms,
    });
  });
}

/** The metrics' gauges, read when scraped: milestones, health, sync, tips, peers, traffic, PoW, event subscribers. */
export function wireMetricGauges(
  metrics: NodeMetrics,
  deps: {
    status: NodeStatus;
    peering: PeerManager;
    sync: SyncState;
    tangle: TangleParts;
    events: EventBus;
    pow: PowQueue | undefined;
  },
): void {
  const { status, peering, sync, tangle, events, pow } = deps;
  metrics.observe({
    milestones: () => status.milestoneStatus(),
    health: () => status.health(),
    latestKnown: () => peering.latestKnown(),
    synced: () => sync.almostSynced,
    tips: () => tangle.tips.size,
    peers: () => ({
      connected: peering.connectedPeers(),
      known: peering.peerInfos().filter((p) => p.relation === 'known').length,
    }),
    traffic: () => peering.traffic,
    pow: () => pow,
    eventSubscribers: () => events.subscribers,
  });
}

/** The node's events (TIP-28), fed by the attacher and the milestone processor; closed last on stop. */
export function wireEvents(store: NodeStore, tangle: TangleParts, ledger: LedgerParts, logger: Logger): EventBus {
  const events = new EventBus();
  const { attacher } = tangle;
  const { milestones } = ledger;
  feedEvents(events, {
    store,
    protocol: tangle.protocol,
    logger,
    onStored: (l) => attacher.onStored(l),
    onSolid: (l) => attacher.onSolid(l),
    onConfirmed: (l) => milestones.onConfirmed(l),
    onLatest: (l) => milestones.onLatest(l),
  });
  return events;
}

export interface FaucetSection {
  /** The dev wallet's seed the faucet pays from. */
  seed: Uint8Array;
  settings?: Partial<FaucetSettings>;
}

/** The dev network's faucet: pays from the dev wallet through client submissions; none without a ledger or a seed. */
export function wireFaucet(
  deps: {
    store: NodeStore;
    network: NetworkState;
    tangle: TangleParts;
    ledger: LedgerParts;
    intake: IntakeParts;
    sync: SyncState;
    status: Pick<NodeStatus, 'refusal'>;
  },
  settings: FaucetSection | undefined,
  logger: Logger,
): Faucet | undefined {
  const { store, network, tangle, ledger, intake, sync, status } = deps;
  const { protocol } = tangle;
  if (!settings || !protocol.hasLedger) return undefined;
  return new Faucet(
    {
      seed: settings.seed,
      protocol: () => protocol.current,
      tokenName: network.baseToken.name,
      ledger: new FaucetLedger(store, tangle.writeLock, () => protocol.current.bech32Hrp),
      submit: (block, signal) => intake.submissions.submit({ block }, signal),
      metadata: (id) => new TangleReader(store, tangle.tips).metadata(id),
      synced: () => sync.almostSynced,
      refusal: () => status.refusal(),
      onConfirmed: (l) => ledger.milestones.onConfirmed((e) => l(e.confirmation)),
      logger,
    },
    settings.settings,
  );
}

/**
 * Starts the v3 validator (its interval: `validationInterval`, 0 = off) and logs the network's committee, and a long
 * stop's slots still to commit (v3/catch-up.ts).
 */
export function startV3Validator(
  v3: V3Engine,
  validationInterval: number | undefined,
  logger: Logger,
): ValidatorHandle {
  const intervalMs = validationInterval ?? DEFAULT_VALIDATION_INTERVAL_MS;
  const behind = v3.catchUp.behind;
  if (behind > 0)
    logger.warn(
      `v3: the latest slot commitment is ${behind} slots ` +
        `(${((behind * v3.params.slotDurationInSeconds) / 3600).toFixed(1)} h) behind the clock: committing them in ` +
        'the background (about 360 bytes written and 90 kept on disk a slot); blocks are refused with 503 until then',
    );
  const validator = startValidator(v3, { intervalMs, logger });
  const seats = v3.validatorSeats.length;
  logger.info(
    `v3 network "${v3.params.networkName}": ${v3.seats.length} committee seat(s), built-in ` +
      `validator ${seats > 0 && intervalMs > 0 ? `every ${intervalMs} ms for ${seats} seat(s)` : 'off'}`,
  );
  return validator;
}

/** Starts the v3 retention (`pruneV3Epochs`: epochs kept, 0 = off; v3/retention.ts) and logs what it keeps. */
export function startV3RetentionOf(v3: V3Engine, pruneV3Epochs: number | undefined, logger: Logger): RetentionHandle {
  const epochs = pruneV3Epochs ?? DEFAULT_V3_RETENTION_EPOCHS;
  const slots = epochs * 2 ** v3.params.slotsPerEpochExponent;
  const minutes = (slots * v3.params.slotDurationInSeconds) / 60;
  const span = minutes < 120 ? `${Math.round(minutes)} min` : `${(minutes / 60).toFixed(1)} h`;
  logger.info(
    epochs > 0
      ? `v3 retention: the confirmed blocks of the latest commitment's epoch and the ${epochs} before it ` +
          `(${slots} slots, ${span}) are kept, older ones pruned (--prune-v3-epochs)`
      : 'v3 retention off (--prune-v3-epochs 0): v3 blocks go only with the v2 pruning',
  );
  return startV3Retention(v3, { epochs, logger });
}
