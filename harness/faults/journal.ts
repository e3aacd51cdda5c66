/**
 * What the fault suite's clients were told: every acknowledged submission (201, its block ID, the node that
 * acknowledged it, the way in: the node's REST door or the standalone gateway), every refusal (503: the node says it
 * cannot take blocks now), every submission without an answer (node down, paused or slow: outcome unknown) and any
 * other answer, by status. The double spends are recorded apart, with both sides.
 */
import type { Result } from '../crash/load.ts';

export type SubmissionKind = 'data' | 'transfer' | 'double';

export interface Ack {
  blockId: string;
  /** The node that acknowledged it (for the gateway: the node behind it). */
  node: string;
  via: 'rest' | 'gateway';
  kind: SubmissionKind;
  /** The fault cycle under way (0: before the first fault). */
  cycle: number;
  at: number;
}

export interface DoubleSpend {
  cycle: number;
  fault: string;
  /** The two nodes the two transactions went to. */
  nodes: [string, string];
  txIds: [string, string];
  /** The block IDs of the acknowledged sides (undefined: not acknowledged). */
  blockIds: [string | undefined, string | undefined];
  statuses: [number, number];
}

export class Journal {
  readonly acks: Ack[] = [];
  readonly doubles: DoubleSpend[] = [];
  /** 503 answers, and of them through the gateway. */
  refused = 0;
  refusedViaGateway = 0;
  /** No answer (status 0), and of them through the gateway. */
  unanswered = 0;
  unansweredViaGateway = 0;
  /** Other answers, by status. */
  readonly others = new Map<number, number>();
  /** The cycle the next records belong to. */
  cycle = 0;

  /** Records the answer to a submission; returns the block ID on 201. */
  record(node: string, via: Ack['via'], kind: SubmissionKind, r: Result & { blockId?: string }): string | undefined {
    if (r.blockId !== undefined) {
      this.acks.push({ blockId: r.blockId, node, via, kind, cycle: this.cycle, at: Date.now() });
      return r.blockId;
    }
    const gateway = via === 'gateway' ? 1 : 0;
    if (r.status === 503) {
      this.refused++;
      this.refusedViaGateway += gateway;
    } else if (r.status === 0) {
      this.unanswered++;
      this.unansweredViaGateway += gateway;
    } else this.others.set(r.status, (this.others.get(r.status) ?? 0) + 1);
    return undefined;
  }
}
