/**
 * The current state a new subscription gets at once, where inx-mqtt sends it (docs/decisions.md §25), read with the
 * node's unary calls: `milestone-info/latest|confirmed` (GetInfo), `block-metadata/{blockId}` (GetBlockMetadata),
 * `transactions/{transactionId}/included-block` (GetIncludedBlock, the stored bytes) and `outputs/{outputId}`
 * (GetOutput, the node's JSON). So a client that polled and then subscribed misses nothing. Nothing is sent when the
 * node knows nothing yet (NOT_FOUND) or cannot answer; the subscription stays and gets the next event.
 */
import { BlockView } from '../../src/grpc/gen/node.ts';
import type { NodePort } from '../../src/grpc/port.ts';
import { metadataPayload, milestoneInfoPayload } from './publisher.ts';
import type { TopicRequest } from './topics.ts';

const fromHex = (hex: string): Uint8Array => Buffer.from(hex.slice(2), 'hex');

/** The message to send on subscribe for `request`, or undefined when there is none. */
export async function currentState(
  node: NodePort,
  request: TopicRequest,
  timeoutMs: number,
): Promise<Uint8Array | string | undefined> {
  try {
    switch (request.kind) {
      case 'milestone-info': {
        const info = await node.getInfo({}, { deadline: Date.now() + timeoutMs });
        const m = request.which === 'latest' ? info.status?.latestMilestone : info.status?.confirmedMilestone;
        return m?.milestoneId !== undefined && m.milestoneId.length > 0 ? milestoneInfoPayload(m) : undefined;
      }
      case 'block-metadata':
        return metadataPayload(
          await node.getBlockMetadata({ blockId: fromHex(request.blockId) }, { deadline: Date.now() + timeoutMs }),
        );
      case 'included-block': {
        const res = await node.getIncludedBlock(
          { transactionId: fromHex(request.transactionId), view: BlockView.BLOCK_VIEW_RAW },
          { deadline: Date.now() + timeoutMs },
        );
        return res.raw;
      }
      case 'output': {
        const res = await node.getOutput(
          { outputId: fromHex(request.outputId), view: BlockView.BLOCK_VIEW_JSON },
          { deadline: Date.now() + timeoutMs },
        );
        return res.json;
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}
