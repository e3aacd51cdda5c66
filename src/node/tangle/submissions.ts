/**
 * Blocks that clients submit (REST / gRPC SubmitBlock): refused while the node is cut off from its network (no live
 * peer, or no recent milestone: status/health.ts) or catches up with its peers, both NODE_NOT_SYNCED (503) with a
 * Retry-After hint, then the one intake with the client's rules. Each submission listens to the client's
 * cancellation and to the node's lifetime (shutdown aborts the PoW of every submission in flight).
 */
import { setMaxListeners } from 'node:events';
import { NodeError } from '../support/errors.ts';
import type { Intake, IncomingBlock } from './intake.ts';

/** Seconds a submission refused while the node catches up is told to wait (Retry-After): a milestone or two. */
export const CATCHING_UP_RETRY_SECONDS = 5;

/** When the node takes client submissions. */
export interface SubmissionGate {
  /** Almost synced (peering/sync-state.ts). */
  synced: () => boolean;
  /** The error to refuse with while the node is cut off from its network (status.ts `refusal`); undefined: none. */
  refusal?: () => Promise<NodeError | undefined>;
}

export class ClientSubmissions {
  /** Aborted at shutdown. Every submission in flight listens to it (and stops listening when it ends), so the number
   * of listeners is the number of concurrent submissions: no listener-count warning applies. */
  private readonly lifetime = (() => {
    const c = new AbortController();
    setMaxListeners(0, c.signal);
    return c;
  })();

  constructor(
    private readonly intake: Intake,
    private readonly gate: SubmissionGate,
  ) {}

  /** Resolves to the block ID once the block is durably stored. `signal`: the call's cancellation (client gone). */
  async submit(incoming: IncomingBlock, signal?: AbortSignal): Promise<Uint8Array> {
    const refused = await this.gate.refusal?.();
    if (refused) throw refused;
    if (!this.gate.synced())
      throw new NodeError('NODE_NOT_SYNCED', 'node is not synced: it is catching up with its peers', {
        retryAfterSeconds: CATCHING_UP_RETRY_SECONDS,
      });
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
      return (await this.intake.accept(incoming, { kind: 'client', signal: call.signal })).blockId;
    } finally {
      for (const [s, l] of listeners) s.removeEventListener('abort', l);
    }
  }

  /** Aborts the PoW of every submission in flight. */
  shutdown(): void {
    this.lifetime.abort(new Error('the node is shutting down'));
  }
}
