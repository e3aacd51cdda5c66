/**
 * Wiring of the peer layer into the node (node.ts calls these): the PeerService on the node's gRPC server, the
 * PeerManager over the NodeService, and the service's `synced` hook (SubmitBlock answers UNAVAILABLE and GetInfo
 * reports not healthy while the node catches up).
 */
import type { ServerDuplexStream } from '@grpc/grpc-js';
import { PeerServiceService, type PeerMessage } from '../../grpc/gen/peer.ts';
import type { ExtraService } from '../grpc/server.ts';
import type { Logger } from '../logger.ts';
import type { NodeServiceImpl } from '../grpc/service.ts';
import { acceptPeer } from './link.ts';
import { PeerManager, type PeeringOptions } from './manager.ts';
import { peeringPortOf } from './port.ts';

export interface PeeringHandle {
  readonly manager: PeerManager;
  /** The PeerService for the node's gRPC server. */
  readonly grpcService: ExtraService;
  /** Dials the static peers and starts gossip, solidification and sync. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createPeering(service: NodeServiceImpl, options: { peers: readonly string[]; logger: Logger } & Partial<PeeringOptions>): PeeringHandle {
  const manager = new PeerManager(peeringPortOf(service), options);
  service.synced = () => manager.almostSynced;
  // v3 blocks accepted from clients are gossiped too (v2 blocks reach the manager through the Attacher's listener)
  const submitV3 = service.submitBlockV3;
  service.submitBlockV3 = async (req) => {
    const answer = await submitV3(req);
    manager.announceV3(answer.blockId);
    return answer;
  };
  return {
    manager,
    grpcService: {
      definition: PeerServiceService,
      implementation: { connect: (call: ServerDuplexStream<PeerMessage, PeerMessage>) => manager.accept(acceptPeer(call)) },
    },
    async start() {
      await manager.start();
      options.logger.info(`peering: ${options.peers.length} static peer(s)${options.peers.length > 0 ? ` (${options.peers.join(', ')})` : ''}, node ID ${Buffer.from(manager.nodeId).toString('hex')}`);
    },
    stop: () => manager.stop(),
  };
}
