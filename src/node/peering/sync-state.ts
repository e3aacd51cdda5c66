/**
 * Whether the node caught up with its peers, and whether its peers are live: the peer layer updates it (status.ts
 * `SyncStatus`, on every heartbeat, tick and confirmation) and tells how its peers are, the rest of the node reads it:
 * SubmitBlock and the faucet refuse work, pruning waits, and health and the dashboard report it. Built first by the
 * composition (compose/) and handed to the peer layer, so the parts that read it need not wait for the peer layer to
 * exist.
 */
import { NO_PEERS, type PeerLiveness } from '../status/health.ts';

export class SyncState {
  private lag = Infinity;
  private tolerance = 0;
  private liveness: () => PeerLiveness = () => NO_PEERS;

  /** The peer layer's view: milestones behind the highest index known (Infinity: not known yet), and the tolerance. */
  update(lag: number, tolerance: number): void {
    this.lag = lag;
    this.tolerance = tolerance;
  }

  /** Where the peer layer tells how its peers are (read at each call of `peers`). */
  observePeers(read: () => PeerLiveness): void {
    this.liveness = read;
  }

  /** Whether static peers are configured, how many are connected and when one was last heard (health.ts). */
  peers(): PeerLiveness {
    return this.liveness();
  }

  /** The ledger reached the highest milestone index known (ours or a peer's). */
  get synced(): boolean {
    return this.lag <= 0;
  }

  /** At most `syncTolerance` milestones behind (Hornet's "almost synced"): what submissions and health require. */
  get almostSynced(): boolean {
    return this.lag <= this.tolerance;
  }
}
