/**
 * The one intake of v2 blocks: client submissions (REST / gRPC), blocks from peers and the coordinator's own
 * milestones all pass here before the Attacher stores them.
 *
 * Order (Hornet's attacher and message processor, with the status choices of docs/decisions.md):
 *   1. decode, when bytes arrive: strict for peers; a client may leave the parents empty (the node fills them);
 *   2. the protocol version must be the one in force (PROTOCOL_VERSION_MISMATCH, before any work);
 *   3. a client's block without parents: a non-zero nonce is INVALID_NONCE; without PoW (and min score > 0)
 *      POW_UNAVAILABLE; else up to 4 tips (NO_TIPS when the pool is empty);
 *   4. full syntactic validation against the parameters in force (invalid blocks fail before any mining,
 *      hornet#1821);
 *   5. a peer's milestone must carry valid signatures (else the peer is misbehaving);
 *   6. proof of work, not for milestones (nonce 0) nor when minPowScore is 0 nor for a block this node asked a peer
 *      for (its own tangle needs it): a client's (or the coordinator's checkpoint's) nonce-0 block whose score is too
 *      low is mined at minPowScore
 *      (client parents are kept, hornet#1727), or POW_UNAVAILABLE when this node has PoW off; then
 *      score >= minPowScore or POW_SCORE_TOO_LOW;
 *   7. attach (one atomic batch).
 * The bytes stored are the received bytes whenever the node changed nothing, else the canonical encoding of the
 * completed block. The parameters are those in force at the ledger index (ledger/protocol-state.ts).
 */
import { decodeBlock, encodeBlock } from '../../core/codec/index.ts';
import { ProtocolError, reject } from '../../core/errors.ts';
import { blockId as blockIdOfBytes, milestoneIdOf, verifyMilestoneSignaturesOverId } from '../../core/ids/index.ts';
import type { MilestoneKeyConfig } from '../../core/ledger/index.ts';
import { PAYLOAD_MILESTONE, type Block } from '../../core/model/index.ts';
import { NONCE_BYTES, powScore } from '../../core/pow/index.ts';
import { validateBlockSyntax } from '../../core/validation/index.ts';
import { NodeError, POW_UNAVAILABLE_PHRASE } from '../support/errors.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { BlockOutcome } from '../metrics/metrics.ts';
import type { NetworkState } from '../genesis/network.ts';
import type { PowQueue } from '../pow/queue.ts';
import type { Attacher, AttachResult } from './attach.ts';

/** Where a block comes from; the rules above differ by origin only where they say so. */
export type BlockOrigin =
  | { kind: 'client'; signal?: AbortSignal }
  | { kind: 'peer'; requested: boolean }
  | { kind: 'coordinator' };

/** A block as it arrives: its bytes, or a model block (JSON / structured submissions, the coordinator). */
export type IncomingBlock = { bytes: Uint8Array } | { block: Block };

export interface Accepted {
  blockId: Uint8Array;
  block: Block;
  result: AttachResult;
}

export interface IntakeDeps {
  network: NetworkState;
  protocol: ProtocolState;
  /** Undefined when remote PoW is off (`--pow-workers 0`). */
  pow: PowQueue | undefined;
  attacher: Attacher;
  selectTips: () => Promise<Uint8Array[]>;
  milestoneKeys: () => Promise<MilestoneKeyConfig | undefined>;
  /** Told what became of every block (the metrics port): stored, unsolid, duplicate, or invalid (a ProtocolError). */
  observe?: (origin: BlockOrigin['kind'], outcome: BlockOutcome) => void;
}

function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : r === undefined ? 'aborted' : String(r);
}

export class Intake {
  constructor(private readonly deps: IntakeDeps) {}

  /** Checks, completes and stores a block; resolves once it is durably stored (or was already). */
  async accept(incoming: IncomingBlock, origin: BlockOrigin): Promise<Accepted> {
    const observe = this.deps.observe;
    if (!observe) return this.admit(incoming, origin);
    let accepted: Accepted;
    try {
      accepted = await this.admit(incoming, origin);
    } catch (e) {
      if (e instanceof ProtocolError) observe(origin.kind, 'invalid');
      throw e;
    }
    const { stored, solid } = accepted.result;
    observe(origin.kind, !stored ? 'duplicate' : solid ? 'stored' : 'unsolid');
    return accepted;
  }

  private async admit(incoming: IncomingBlock, origin: BlockOrigin): Promise<Accepted> {
    const received = 'bytes' in incoming ? incoming.bytes : undefined;
    const block =
      'block' in incoming ? incoming.block : decodeBlock(incoming.bytes, { allowNoParents: origin.kind === 'client' });
    const protocol = this.deps.protocol.current;
    if (block.protocolVersion !== protocol.version) {
      reject(
        'PROTOCOL_VERSION_MISMATCH',
        `invalid block: protocol version ${block.protocolVersion} differs from the node's ${protocol.version}`,
        {
          field: 'protocolVersion',
          value: String(block.protocolVersion),
        },
      );
    }
    const isMilestone = block.payload?.type === PAYLOAD_MILESTONE;
    const needsPow = !isMilestone && protocol.minPowScore > 0 && !(origin.kind === 'peer' && origin.requested);
    let changed = false;
    if (block.parents.length === 0) {
      if (block.nonce !== 0n)
        reject('INVALID_NONCE', 'invalid block: no parents were given but nonce was != 0', {
          field: 'nonce',
          value: String(block.nonce),
        });
      if (needsPow && !this.deps.pow)
        throw new NodeError(
          'POW_UNAVAILABLE',
          `${POW_UNAVAILABLE_PHRASE}: no parents were given and the node cannot do the proof of work for them`,
        );
      block.parents = await this.deps.selectTips();
      changed = true;
    }
    validateBlockSyntax(block, { protocol, networkId: this.deps.network.networkId });
    // A milestone needs no proof of work, so its signatures are what keeps made-up ones out: from peers and from
    // clients alike (a stored forgery would be gossiped on, and peers drop a node that sends them one).
    if (isMilestone && origin.kind !== 'coordinator') await this.checkMilestoneSignatures(block);
    let bytes = !changed && received ? received : encodeBlock(block);
    if (needsPow) {
      if (origin.kind !== 'peer' && block.nonce === 0n && powScore(bytes) < protocol.minPowScore) {
        block.nonce = await this.mine(
          bytes,
          protocol.minPowScore,
          origin.kind === 'client' ? origin.signal : undefined,
        );
        bytes = encodeBlock(block);
      }
      const score = powScore(bytes);
      if (score < protocol.minPowScore) {
        throw new ProtocolError(
          'POW_SCORE_TOO_LOW',
          `invalid block: insufficient PoW score ${score.toFixed(2)}, the node requires ${protocol.minPowScore}`,
          {
            field: 'nonce',
            value: String(block.nonce),
          },
        );
      }
    }
    const blockId = blockIdOfBytes(bytes);
    return {
      blockId,
      block,
      result: await this.deps.attacher.attach(blockId, bytes, block, origin.kind === 'coordinator'),
    };
  }

  private async mine(bytes: Uint8Array, targetScore: number, signal: AbortSignal | undefined): Promise<bigint> {
    const pow = this.deps.pow;
    if (!pow) throw new NodeError('POW_UNAVAILABLE', POW_UNAVAILABLE_PHRASE);
    const s = signal ?? new AbortController().signal;
    if (s.aborted) throw new NodeError('INTERNAL', `proof of work aborted: ${abortReason(s)}`);
    try {
      return await pow.mine(bytes.subarray(0, bytes.length - NONCE_BYTES), targetScore, s);
    } catch (e) {
      if (s.aborted) throw new NodeError('INTERNAL', `proof of work aborted: ${abortReason(s)}`);
      throw e;
    }
  }

  private async checkMilestoneSignatures(block: Block): Promise<void> {
    const ms = block.payload;
    if (ms?.type !== PAYLOAD_MILESTONE) return;
    const keys = await this.deps.milestoneKeys();
    if (!keys) return; // a network without a ledger: milestones are stored, never confirmed
    try {
      verifyMilestoneSignaturesOverId(milestoneIdOf(ms), ms.index, ms.signatures, keys.keyRanges, keys.threshold);
    } catch (e) {
      throw new ProtocolError(
        'INVALID_SIGNATURE',
        `milestone ${ms.index} with invalid signatures: ${(e as Error).message}`,
        { field: 'payload.signatures' },
      );
    }
  }
}
