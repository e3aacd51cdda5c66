/**
 * Gossip counters: per peer, the figures Hornet's peers routes answer (`gossip.metrics`), and node-wide, the messages
 * sent and received by kind (the Prometheus traffic counters, kept across disconnects). Every link of the peer set is
 * wrapped once (`countingLink`), so each send is counted whoever sends it; receipts are counted where the peer set
 * dispatches them, and new and known blocks where the manager tells them apart.
 */
import type { PeerMessage } from '../../grpc/gen/peer.ts';
import type { PeerLink } from './link.ts';

/** Hornet's PeerGossipMetrics. */
export interface GossipCounters {
  newBlocks: number;
  knownBlocks: number;
  receivedBlocks: number;
  receivedBlockRequests: number;
  receivedMilestoneRequests: number;
  receivedHeartbeats: number;
  sentBlocks: number;
  sentBlockRequests: number;
  sentMilestoneRequests: number;
  sentHeartbeats: number;
  droppedPackets: number;
}

/** A peer message's kind (its oneof case: handshake, heartbeat, block, blockRequest, ...). */
export type MessageKind = NonNullable<PeerMessage['kind']>['$case'];

/** Messages of every peer by kind, since the peer layer was built (a kind appears once counted). */
export interface Traffic {
  received: Partial<Record<MessageKind, number>>;
  sent: Partial<Record<MessageKind, number>>;
  /** Messages not sent: the link was closed or its send buffer full. */
  dropped: number;
}

export function emptyCounters(): GossipCounters {
  return {
    newBlocks: 0,
    knownBlocks: 0,
    receivedBlocks: 0,
    receivedBlockRequests: 0,
    receivedMilestoneRequests: 0,
    receivedHeartbeats: 0,
    sentBlocks: 0,
    sentBlockRequests: 0,
    sentMilestoneRequests: 0,
    sentHeartbeats: 0,
    droppedPackets: 0,
  };
}

export function emptyTraffic(): Traffic {
  const zero = (): Partial<Record<MessageKind, number>> => ({
    heartbeat: 0,
    block: 0,
    blockRequest: 0,
    milestoneRequest: 0,
  });
  return { received: zero(), sent: zero(), dropped: 0 };
}

const RECEIVED: Partial<Record<MessageKind, keyof GossipCounters>> = {
  block: 'receivedBlocks',
  blockRequest: 'receivedBlockRequests',
  milestoneRequest: 'receivedMilestoneRequests',
  heartbeat: 'receivedHeartbeats',
};
const SENT: Partial<Record<MessageKind, keyof GossipCounters>> = {
  block: 'sentBlocks',
  blockRequest: 'sentBlockRequests',
  milestoneRequest: 'sentMilestoneRequests',
  heartbeat: 'sentHeartbeats',
};

/** Counts a message a peer sent us. */
export function countReceived(m: PeerMessage, counters: GossipCounters, traffic: Traffic): void {
  const kind = m.kind?.$case;
  if (kind === undefined) return;
  traffic.received[kind] = (traffic.received[kind] ?? 0) + 1;
  const field = RECEIVED[kind];
  if (field) counters[field]++;
}

/** `link`, with every send counted (sent by kind, or dropped). */
export function countingLink(link: PeerLink, counters: GossipCounters, traffic: Traffic): PeerLink {
  return {
    address: link.address,
    inbound: link.inbound,
    send(message: PeerMessage): boolean {
      const sent = link.send(message);
      const kind = message.kind?.$case;
      if (!sent) {
        counters.droppedPackets++;
        traffic.dropped++;
      } else if (kind !== undefined) {
        traffic.sent[kind] = (traffic.sent[kind] ?? 0) + 1;
        const field = SENT[kind];
        if (field) counters[field]++;
      }
      return sent;
    },
    close: () => link.close(),
    onMessage: (listener) => link.onMessage(listener),
    onClose: (listener) => link.onClose(listener),
  };
}
