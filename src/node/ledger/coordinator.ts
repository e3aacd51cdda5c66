/**
 * The built-in coordinator of a dev network: every `milestoneInterval` seconds it issues the next milestone.
 *
 * One milestone (`issue`):
 *   0. checkpoints: when more non-lazy tips have no child than a milestone can take, blocks without payload that
 *      approve them, chained, so the milestone reaches them all (see `checkpoints`);
 *   1. inside the attach queue (so the ledger cannot move meanwhile): the ledger index L and milestone L; up to 7
 *      parents: the last checkpoint and the childless tips, then the freshest non-lazy tips (URTS); the previous
 *      milestone's block is added as a parent unless their cone already holds it (or it is the genesis, which has no
 *      block); with no tip at all the previous milestone block (or a solid entry point) is the only parent;
 *      timestamp = max(now, previous + 1) seconds;
 *   2. both Merkle roots by a dry run of White-Flag over that cone (core `computeMilestoneRoots`);
 *   3. the payload signed with the applicable dev keys, as many as the threshold, signatures sorted by public key;
 *   4. the nonce-0 block goes through the node's one intake (syntax checks, attach) as a model block, and the
 *      milestone processor confirms it; `issue` resolves once the ledger reached the new index.
 */
import { compareBytes, equalBytes, toHex, toHex0x } from '../../core/bytes.ts';
import { ed25519PublicKeyFromSeed, ed25519Sign } from '../../core/crypto/index.ts';
import { applicableMilestoneKeys, blockId as blockIdOfBytes, milestoneIdOf } from '../../core/ids/index.ts';
import { encodeBlock } from '../../core/codec/index.ts';
import { NONCE_BYTES, powScore } from '../../core/pow/index.ts';
import { computeMilestoneRoots, LedgerState, walkCone, type ConeBlockSource } from '../../core/ledger/index.ts';
import { LIMITS, type Block, type MilestoneOption, type MilestonePayload } from '../../core/model/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import type { CoordinatorSettings } from '../genesis/genesis-ledger.ts';
import type { MilestoneProcessor } from './milestones.ts';
import type { Logger } from '../logger.ts';
import type { ProtocolState } from './protocol-state.ts';
import type { TipSelector } from '../tangle/urts.ts';

export interface CoordinatorDeps {
  store: NodeStore;
  protocol: ProtocolState;
  tips: TipSelector;
  /** Where cone blocks are read (the dry run, the check for the previous milestone block). */
  blocks: ConeBlockSource;
  milestones: MilestoneProcessor;
  exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The node's intake for the coordinator's own blocks; resolves to the block ID once stored. */
  accept: (block: Block) => Promise<Uint8Array>;
  /** Proof of work for checkpoints (absent: no PoW on this node; checkpoints only where the network asks for none). */
  mine?: (bytesWithoutNonce: Uint8Array, targetScore: number) => Promise<bigint>;
  settings: CoordinatorSettings;
  logger: Logger;
  now?: () => number;
}

export interface IssuedMilestone {
  index: number;
  blockId: Uint8Array;
  milestoneId: Uint8Array;
  parents: Uint8Array[];
}

export class Coordinator {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private started = 0;
  private inFlight: Promise<unknown> = Promise.resolve();
  /** What the round under way does now (the stall warning says it). */
  private round: { index?: number; step: string } = { step: 'not started' };
  private readonly now: () => number;

  constructor(private readonly deps: CoordinatorDeps) {
    this.now = deps.now ?? Date.now;
  }

  get active(): boolean {
    return this.running;
  }

  /** When the coordinator started (ms), while it runs. */
  get startedAt(): number | undefined {
    return this.running ? this.started : undefined;
  }

  /**
   * Issues a milestone every interval until stop(), at a fixed rate: a round is due one interval after the previous
   * round was due, so the time a round takes does not stretch the interval (a round that overruns is followed by the
   * next one at once, never by two at a time). A round that fails is logged with its reason and the next one follows;
   * a round still running after `stallWarningMs` is logged with the step it waits in, again at each further period,
   * so a coordinator never stops without a word. Rounds never overlap: a second milestone of the same index could
   * fork the network.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.started = this.now();
    const intervalMs = this.deps.settings.milestoneInterval * 1000;
    const stallMs = stallWarningMs(this.deps.settings.milestoneInterval);
    let due = this.now() + intervalMs;
    const tick = (): void => {
      if (!this.running) return;
      const began = this.now();
      const watchdog = setInterval(() => {
        const s = Math.round((this.now() - began) / 1000);
        this.deps.logger.warn(
          `coordinator: the round for milestone ${this.round.index ?? '?'} ` +
            `has run ${s} s, waiting in: ${this.round.step}`,
        );
      }, stallMs);
      watchdog.unref();
      this.inFlight = this.issue()
        .catch((e: unknown) => this.deps.logger.warn(`coordinator: no milestone this round: ${(e as Error).message}`))
        .finally(() => {
          clearInterval(watchdog);
          if (!this.running) return;
          due = Math.max(due + intervalMs, this.now());
          this.timer = setTimeout(tick, due - this.now());
        });
    };
    this.timer = setTimeout(tick, intervalMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight.catch(() => undefined);
  }

  /**
   * Issues and confirms the next milestone (see file comment). `options`: milestone options it carries, e.g. a
   * Protocol Parameters option that announces new parameters from a target index on (TIP-29).
   */
  async issue(options: MilestoneOption[] = []): Promise<IssuedMilestone> {
    const { store, protocol, settings } = this.deps;
    this.round = { step: 'issuing checkpoints' };
    const reach = await this.checkpoints();
    this.round.step = 'the attach queue (to read the ledger and build the milestone)';
    const { block, payload } = await this.deps.exclusive(async () => {
      const ledger = new LedgerState(store);
      const ledgerIndex = await ledger.ledgerIndex();
      if (ledgerIndex === undefined) throw new Error('the store holds no ledger');
      const previous = await store.milestone(ledgerIndex);
      if (!previous) throw new Error(`milestone ${ledgerIndex} is not stored`);
      const keys = await ledger.milestoneKeys();
      if (!keys) throw new Error('the ledger has no milestone keys');
      const index = ledgerIndex + 1;
      this.round = { index, step: 'building the milestone (parents, Merkle roots, signatures)' };
      const parents = await this.parents(previous.blockId, reach);
      const timestamp = Math.max(Math.floor(this.now() / 1000), previous.timestamp + 1);
      const roots = await computeMilestoneRoots(store, { index, timestamp, parents }, this.deps.blocks);
      const unsigned: MilestonePayload = {
        type: 7,
        index,
        timestamp,
        protocolVersion: protocol.current.version,
        previousMilestoneId: previous.milestoneId,
        parents,
        inclusionMerkleRoot: roots.inclusionMerkleRoot,
        appliedMerkleRoot: roots.appliedMerkleRoot,
        metadata: new Uint8Array(0),
        options,
        signatures: [],
      };
      const applicable = new Set(applicableMilestoneKeys(keys.keyRanges, index).map(toHex));
      const signers = settings.seeds
        .filter((s) => applicable.has(toHex(ed25519PublicKeyFromSeed(s))))
        .slice(0, keys.threshold);
      if (signers.length < keys.threshold)
        throw new Error(
          `only ${signers.length} coordinator keys apply at index ${index}, the threshold is ${keys.threshold}`,
        );
      const id = milestoneIdOf(unsigned);
      const signatures = signers
        .map((seed) => ({
          type: 0 as const,
          publicKey: ed25519PublicKeyFromSeed(seed),
          signature: ed25519Sign(seed, id),
        }))
        .sort((a, b) => compareBytes(a.publicKey, b.publicKey));
      const payload: MilestonePayload = { ...unsigned, signatures };
      const block: Block = { protocolVersion: protocol.current.version, parents, payload, nonce: 0n };
      return { block, payload };
    });
    this.round.step = 'the intake storing the milestone block';
    const blockId = await this.deps.accept(block);
    this.round.step = `the confirmation of milestone block ${toHex0x(blockId)}`;
    await this.deps.milestones.settled(blockId, payload.index);
    return { index: payload.index, blockId, milestoneId: milestoneIdOf(payload), parents: block.parents };
  }

  /**
   * Checkpoints (as Hornet's coordinator issues them): when more non-lazy tips than a milestone can take have no child
   * yet, blocks without payload, each approving the previous one and 7 of those tips (oldest first), so the milestone
   * reaches them all through the last one. Returns the tips the milestone should take first.
   */
  private async checkpoints(): Promise<Uint8Array[]> {
    const uncovered = this.deps.tips.childless();
    const room = LIMITS.parents.max - 1;
    if (uncovered.length <= room) return uncovered;
    const { minPowScore, version } = this.deps.protocol.current;
    const mine = this.deps.mine;
    if (minPowScore > 0 && !mine) return uncovered; // no PoW here: the freshest tips must do
    // The chain is built (and mined) here, so every block ID is known and the whole chain is stored in one group.
    const chain: Block[] = [];
    let last: Uint8Array | undefined;
    let i = 0;
    for (let n = 0; n < MAX_CHECKPOINTS && uncovered.length - i > room - 1; n++) {
      const take = last ? LIMITS.parents.max - 1 : LIMITS.parents.max;
      const block: Block = {
        protocolVersion: version,
        parents: uniqueSorted([...(last ? [last] : []), ...uncovered.slice(i, i + take)]),
        nonce: 0n,
      };
      i += take;
      let bytes = encodeBlock(block);
      if (minPowScore > 0 && powScore(bytes) < minPowScore) {
        block.nonce = await mine!(bytes.subarray(0, bytes.length - NONCE_BYTES), minPowScore);
        bytes = encodeBlock(block);
      }
      chain.push(block);
      last = blockIdOfBytes(bytes);
    }
    try {
      await Promise.all(chain.map((b) => this.deps.accept(b)));
    } catch (e) {
      this.deps.logger.warn(`coordinator: no checkpoint this round: ${(e as Error).message}`);
      return uncovered;
    }
    return [...(last ? [last] : []), ...uncovered.slice(i)];
  }

  /**
   * The tips to reach first, then the freshest tips, plus, when needed, the previous milestone block; sorted, unique,
   * at most 8.
   */
  private async parents(previousBlock: Uint8Array, reach: readonly Uint8Array[]): Promise<Uint8Array[]> {
    const { store, protocol } = this.deps;
    // First what has no child yet (or the checkpoint that reaches it), then the freshest non-lazy tips: their cones
    // hold what arrived since the last milestone.
    let tips = uniqueSorted(
      [...reach, ...this.deps.tips.freshest(LIMITS.parents.max - 1)].slice(0, LIMITS.parents.max - 1),
    );
    const hasPrevious = !previousBlock.every((b) => b === 0) && (await store.hasBlock(previousBlock));
    if (hasPrevious && !tips.some((t) => equalBytes(t, previousBlock))) {
      const cone = await walkCone(tips, this.deps.blocks, 0);
      if (!cone.some((c) => equalBytes(c.blockId, previousBlock)))
        tips = [...tips.slice(0, LIMITS.parents.max - 1), previousBlock];
    }
    if (tips.length === 0) tips = [protocol.solidEntryPoints[0]!];
    return uniqueSorted(tips);
  }
}

/** How long a round may run before the coordinator says where it waits: three intervals, at least 10 s. */
export function stallWarningMs(intervalSeconds: number): number {
  return Math.max(10_000, 3 * intervalSeconds * 1000);
}

/** Checkpoints issued before one milestone at most (they reach 8 + 7 × 19 = 141 childless tips). */
const MAX_CHECKPOINTS = 20;

function uniqueSorted(ids: readonly Uint8Array[]): Uint8Array[] {
  return [...new Map(ids.map((t) => [toHex0x(t), t])).values()].sort(compareBytes);
}
