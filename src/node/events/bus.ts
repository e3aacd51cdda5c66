/**
 * The node's event bus: what happened in the tangle and the ledger, in the order it happened, for the TIP-28 event API
 * (the gRPC NodeEvents service puts it on the wire, every gateway turns it into MQTT messages). The domain feeds it
 * (feed.ts); it holds no state but the events of the current tick.
 *
 * Events emitted in the same tick go out as one batch on the next (a group commit's blocks, a confirmation's effects),
 * at most MAX_BATCH events and about MAX_BATCH_BYTES each (a gRPC message stays far below its 4 MiB limit). With no
 * subscriber nothing is kept and the feed skips building events at all (`active`). A subscriber is a plain function: it
 * must not throw and must bound what it keeps (the gRPC adapter cuts a stream whose reader falls behind).
 */
import type { LatestMilestone } from '../ledger/milestones.ts';
import type { BlockMetadataView } from '../tangle/reads.ts';

/** What a stored block carries, as far as the topics of TIP-28 care. */
export type BlockPayloadKind = 'none' | 'transaction' | 'taggedData' | 'milestone';

export interface StoredBlockEvent {
  kind: 'block';
  blockId: Uint8Array;
  raw: Uint8Array;
  payload: BlockPayloadKind;
  /** The Tagged Data tag (block payload or inside the transaction essence), when the block carries Tagged Data. */
  tag?: Uint8Array;
  /** A milestone block's serialized milestone payload. */
  milestone?: Uint8Array;
}

export interface MetadataEvent {
  kind: 'metadata';
  view: BlockMetadataView;
}

export interface MilestoneEvent {
  kind: 'latest' | 'confirmed';
  milestone: LatestMilestone;
}

/** TIP-28 unlock condition names, as in the topic `outputs/unlock/{condition}/{address}`. */
export type UnlockConditionName =
  | 'address'
  | 'storage-return'
  | 'expiration'
  | 'state-controller'
  | 'governor'
  | 'immutable-alias';

export interface OutputEvent {
  kind: 'created' | 'spent';
  outputId: Uint8Array;
  /** TIP-25 `{"metadata": {...}, "output": {...}}` text. */
  json: string;
  /** Bech32 addresses by condition, in the output's order. */
  unlocks: { condition: UnlockConditionName; address: string }[];
  /** Alias/NFT ID (implicit IDs resolved) or foundry ID; created outputs of those kinds only. */
  chain?: { kind: 'alias' | 'nft' | 'foundry'; id: Uint8Array };
}

export interface IncludedEvent {
  kind: 'included';
  transactionId: Uint8Array;
  blockId: Uint8Array;
  raw: Uint8Array;
}

export interface ReceiptEvent {
  kind: 'receipt';
  milestoneIndex: number;
  /** The receipt milestone option as TIP-25 JSON text. */
  json: string;
}

export type NodeEvent = StoredBlockEvent | MetadataEvent | MilestoneEvent | OutputEvent | IncludedEvent | ReceiptEvent;

export type EventListener = (batch: readonly NodeEvent[]) => void;

/** Most events in one batch (a confirmation of a large cone is split). */
export const MAX_BATCH = 512;
/** About the most bytes of one batch (included blocks of 32 KiB would otherwise add up). */
export const MAX_BATCH_BYTES = 1024 * 1024;

/** An upper estimate of an event's size on the wire. */
export function eventBytes(e: NodeEvent): number {
  switch (e.kind) {
    case 'block':
      return 64 + e.raw.length + (e.tag?.length ?? 0) + (e.milestone?.length ?? 0);
    case 'included':
      return 96 + e.raw.length;
    case 'metadata':
      return 64 + 34 * e.view.parents.length;
    case 'created':
    case 'spent':
      return 64 + 2 * e.json.length + e.unlocks.reduce((n, u) => n + 24 + u.address.length, 0);
    case 'receipt':
      return 16 + 2 * e.json.length;
    default:
      return 64;
  }
}

export class EventBus {
  private readonly listeners = new Set<EventListener>();
  private readonly closeListeners = new Set<() => void>();
  private pending: NodeEvent[] = [];
  private scheduled = false;
  private closed = false;

  /** Whether anybody listens: the feed builds no events otherwise. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  get subscribers(): number {
    return this.listeners.size;
  }

  /** Adds a subscriber and a function called when the bus closes; returns the unsubscribe function. */
  subscribe(listener: EventListener, onClose: () => void = () => undefined): () => void {
    if (this.closed) {
      queueMicrotask(onClose);
      return () => undefined;
    }
    this.listeners.add(listener);
    this.closeListeners.add(onClose);
    return () => {
      this.listeners.delete(listener);
      this.closeListeners.delete(onClose);
    };
  }

  emit(event: NodeEvent): void {
    if (this.closed || this.listeners.size === 0) return;
    this.pending.push(event);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Delivers what is pending now (also called by tests). */
  flush(): void {
    this.scheduled = false;
    const events = this.pending;
    this.pending = [];
    let start = 0;
    let bytes = 0;
    for (let i = 0; i < events.length; i++) {
      const size = eventBytes(events[i]!);
      if (i > start && (i - start >= MAX_BATCH || bytes + size > MAX_BATCH_BYTES)) {
        this.deliver(events.slice(start, i));
        start = i;
        bytes = 0;
      }
      bytes += size;
    }
    if (start < events.length) this.deliver(start === 0 ? events : events.slice(start));
  }

  private deliver(batch: readonly NodeEvent[]): void {
    for (const l of [...this.listeners]) l(batch);
  }

  /** Delivers what is pending, then ends every subscription (the node stops). */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    const ends = [...this.closeListeners];
    this.listeners.clear();
    this.closeListeners.clear();
    for (const end of ends) end();
  }
}
