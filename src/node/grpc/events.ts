/**
 * The NodeEvents service (proto/events.proto): the event bus (src/node/events) on the wire. `Subscribe` streams every
 * batch of the bus from the call on, mapped to the wire messages here (the one mapping). A reader that falls behind is
 * not buffered without bound: once more than `maxQueuedBatches` batches wait in its stream it is cut off with
 * RESOURCE_EXHAUSTED and its subscription dropped. The stream ends when the node stops (the bus closes). `feed` is
 * that rule, shared with the gateway's events port in this process (events-port.ts).
 */
import { status as Status, type ServerWritableStream, type UntypedServiceImplementation } from '@grpc/grpc-js';
import {
  BlockPayloadKind,
  ChainKind,
  NodeEventsService,
  type Event,
  type EventBatch,
  type SubscribeRequest,
} from '../../grpc/gen/events.ts';
import type { MilestoneInfo } from '../../grpc/gen/node.ts';
import type { BlockPayloadKind as DomainPayloadKind, EventBus, NodeEvent, OutputEvent } from '../events/bus.ts';
import type { LatestMilestone } from '../ledger/milestones.ts';
import type { Logger } from '../logger.ts';
import type { ExtraService } from './server.ts';
import { metadataMessage } from './service.ts';

/** Batches a subscriber may leave unread before it is cut off (a batch is one group commit or one confirmation). */
export const DEFAULT_MAX_QUEUED_BATCHES = 4096;

const PAYLOAD_KINDS: Record<DomainPayloadKind, BlockPayloadKind> = {
  none: BlockPayloadKind.BLOCK_PAYLOAD_KIND_NONE,
  transaction: BlockPayloadKind.BLOCK_PAYLOAD_KIND_TRANSACTION,
  taggedData: BlockPayloadKind.BLOCK_PAYLOAD_KIND_TAGGED_DATA,
  milestone: BlockPayloadKind.BLOCK_PAYLOAD_KIND_MILESTONE,
};

const CHAIN_KINDS = {
  alias: ChainKind.CHAIN_KIND_ALIAS,
  nft: ChainKind.CHAIN_KIND_NFT,
  foundry: ChainKind.CHAIN_KIND_FOUNDRY,
} as const;

const EMPTY = new Uint8Array(0);

function milestoneInfo(m: LatestMilestone): MilestoneInfo {
  return { index: m.index, timestamp: m.timestamp, milestoneId: m.milestoneId };
}

function ledgerOutput(o: OutputEvent): Event['kind'] {
  const value = {
    outputId: o.outputId,
    json: o.json,
    unlocks: o.unlocks.map((u) => ({ condition: u.condition, address: u.address })),
    chain: o.chain ? CHAIN_KINDS[o.chain.kind] : ChainKind.CHAIN_KIND_NONE,
    chainId: o.chain ? o.chain.id : EMPTY,
  };
  return o.kind === 'created' ? { $case: 'outputCreated', value } : { $case: 'outputSpent', value };
}

/** One bus event as its wire message (its bytes fields are the event's own: nobody writes to them). */
export function eventMessage(e: NodeEvent): Event {
  switch (e.kind) {
    case 'block':
      return {
        kind: {
          $case: 'block',
          value: {
            blockId: e.blockId,
            raw: e.raw,
            payload: PAYLOAD_KINDS[e.payload],
            ...(e.tag !== undefined ? { tag: e.tag } : {}),
            milestone: e.milestone ?? EMPTY,
          },
        },
      };
    case 'metadata':
      return { kind: { $case: 'metadata', value: metadataMessage(e.view) } };
    case 'latest':
      return { kind: { $case: 'latestMilestone', value: milestoneInfo(e.milestone) } };
    case 'confirmed':
      return { kind: { $case: 'confirmedMilestone', value: milestoneInfo(e.milestone) } };
    case 'created':
    case 'spent':
      return { kind: ledgerOutput(e) };
    case 'included':
      return {
        kind: { $case: 'included', value: { transactionId: e.transactionId, blockId: e.blockId, raw: e.raw } },
      };
    case 'receipt':
      return { kind: { $case: 'receipt', value: { milestoneIndex: e.milestoneIndex, json: e.json } } };
  }
}

export function batchMessage(batch: readonly NodeEvent[]): EventBatch {
  return { events: batch.map(eventMessage) };
}

/** The status a subscriber that fell behind ends with. */
export interface EndStatus {
  code: Status;
  details: string;
}

/** The error a subscriber that fell behind gets. */
export function tooSlow(maxQueuedBatches: number): EndStatus {
  return {
    code: Status.RESOURCE_EXHAUSTED,
    details: `event subscriber too slow: more than ${maxQueuedBatches} batches unread`,
  };
}

/** One subscriber's stream, as `feed` writes to it: the gRPC call, or the port's subscription in this process. */
export interface BatchStream {
  /** Batches written and not taken by the reader yet. */
  readonly queued: number;
  write(batch: EventBatch): void;
  /** The reader fell behind: end the stream with `status` (its subscription is dropped already). */
  cutOff(status: EndStatus): void;
  /** The bus closed (the node stops): end the stream. */
  end(): void;
}

/**
 * Subscribes `stream` to `bus`: each batch as its message while at most `maxQueuedBatches` wait unread, else the cut
 * off; the end with the bus. Returns the unsubscribe, for when the reader goes away (safe to call again).
 */
export function feed(bus: EventBus, maxQueuedBatches: number, stream: BatchStream): () => void {
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    unsubscribe();
  };
  const unsubscribe = bus.subscribe(
    (batch) => {
      if (done) return;
      if (stream.queued > maxQueuedBatches) {
        finish();
        stream.cutOff(tooSlow(maxQueuedBatches));
      } else stream.write(batchMessage(batch));
    },
    () => {
      if (done) return;
      finish();
      stream.end();
    },
  );
  return finish;
}

/** The NodeEvents service for the node's gRPC server. */
export function nodeEventsService(
  bus: EventBus,
  logger: Logger,
  maxQueuedBatches = DEFAULT_MAX_QUEUED_BATCHES,
): ExtraService {
  const subscribe = (call: ServerWritableStream<SubscribeRequest, EventBatch>): void => {
    const finish = feed(bus, maxQueuedBatches, {
      get queued() {
        return call.writableLength;
      },
      write: (batch) => call.write(batch),
      cutOff: (status) => {
        logger.warn(`NodeEvents: subscriber ${call.getPeer()} cut off: more than ${maxQueuedBatches} batches unread`);
        call.emit('error', status);
      },
      end: () => call.end(),
    });
    call.once('cancelled', finish);
    call.once('error', finish);
  };
  return { definition: NodeEventsService, implementation: { subscribe } satisfies UntypedServiceImplementation };
}
