/**
 * The node's events (proto/events.proto) as TIP-28 messages, with inx-mqtt's topics and payloads (docs/decisions.md
 * §21, §25): blocks, included blocks and milestones as their serialized bytes, everything else as JSON (the node's
 * text for outputs and receipts; metadata and milestone info rendered here from the messages). A payload is built only
 * when somebody follows one of its topics.
 */
import {
  BlockPayloadKind,
  ChainKind,
  type Event,
  type LedgerOutput,
  type StoredBlock,
} from '../../src/grpc/gen/events.ts';
import type { BlockMetadata, MilestoneInfo } from '../../src/grpc/gen/node.ts';
import { hex0x } from '../ids.ts';
import { blockMetadataToJson } from '../render.ts';
import type { Fanout } from './fanout.ts';
import { TOPICS } from './topics.ts';

/** inx-mqtt's block metadata payload: GET metadata's fields, the parents under `parentBlockIds`. */
export function metadataPayload(md: BlockMetadata): string {
  return JSON.stringify(blockMetadataToJson(md, 'parentBlockIds'));
}

/** `{index, timestamp, milestoneId}`, as inx-mqtt sends it (docs/decisions.md §21). */
export function milestoneInfoPayload(m: MilestoneInfo): string {
  return JSON.stringify({
    index: m.index,
    timestamp: m.timestamp ?? 0,
    milestoneId: m.milestoneId ? hex0x(m.milestoneId) : undefined,
  });
}

const taggedTopic = (base: string, tag: Uint8Array): string => `${base}/${hex0x(tag)}`;

function publishBlock(f: Fanout, b: StoredBlock): void {
  f.publish(TOPICS.blocks, b.raw);
  switch (b.payload) {
    case BlockPayloadKind.BLOCK_PAYLOAD_KIND_TRANSACTION:
      f.publish(TOPICS.blocksTransaction, b.raw);
      if (b.tag !== undefined) {
        f.publish(TOPICS.blocksTransactionTaggedData, b.raw);
        if (b.tag.length > 0) f.publish(taggedTopic(TOPICS.blocksTransactionTaggedData, b.tag), b.raw);
      }
      break;
    case BlockPayloadKind.BLOCK_PAYLOAD_KIND_TAGGED_DATA:
      f.publish(TOPICS.blocksTaggedData, b.raw);
      if (b.tag !== undefined && b.tag.length > 0) f.publish(taggedTopic(TOPICS.blocksTaggedData, b.tag), b.raw);
      break;
    case BlockPayloadKind.BLOCK_PAYLOAD_KIND_MILESTONE:
      f.publish(TOPICS.milestones, b.milestone);
      break;
    default:
      break;
  }
}

function publishMetadata(f: Fanout, md: BlockMetadata): void {
  const single = `block-metadata/${hex0x(md.blockId)}`;
  const referenced = md.referencedByMilestoneIndex !== undefined && f.has(TOPICS.blockMetadataReferenced);
  if (!f.has(single) && !referenced) return;
  const payload = metadataPayload(md);
  f.publish(single, payload);
  if (referenced) f.publish(TOPICS.blockMetadataReferenced, payload);
}

const CHAIN_TOPICS: Partial<Record<ChainKind, string>> = {
  [ChainKind.CHAIN_KIND_ALIAS]: 'outputs/alias',
  [ChainKind.CHAIN_KIND_NFT]: 'outputs/nft',
  [ChainKind.CHAIN_KIND_FOUNDRY]: 'outputs/foundry',
};

/** inx-mqtt's topics of an output: its ID, its chain (created only), each unlock condition's address and `+`. */
function publishOutput(f: Fanout, o: LedgerOutput, spent: boolean): void {
  f.publish(`outputs/${hex0x(o.outputId)}`, o.json);
  const chain = CHAIN_TOPICS[o.chain];
  if (!spent && chain !== undefined) f.publish(`${chain}/${hex0x(o.chainId)}`, o.json);
  const suffix = spent ? '/spent' : '';
  const addresses = new Set<string>();
  for (const u of o.unlocks) {
    f.publish(`outputs/unlock/${u.condition}/${u.address}${suffix}`, o.json);
    addresses.add(u.address);
  }
  for (const address of addresses) f.publish(`outputs/unlock/+/${address}${suffix}`, o.json);
}

/** Publishes one event on every topic it belongs to. */
export function publishEvent(f: Fanout, e: Event): void {
  const k = e.kind;
  switch (k?.$case) {
    case 'block':
      publishBlock(f, k.value);
      break;
    case 'metadata':
      publishMetadata(f, k.value);
      break;
    case 'latestMilestone':
      if (f.has(TOPICS.milestoneLatest)) f.publish(TOPICS.milestoneLatest, milestoneInfoPayload(k.value));
      break;
    case 'confirmedMilestone':
      if (f.has(TOPICS.milestoneConfirmed)) f.publish(TOPICS.milestoneConfirmed, milestoneInfoPayload(k.value));
      break;
    case 'outputCreated':
      publishOutput(f, k.value, false);
      break;
    case 'outputSpent':
      publishOutput(f, k.value, true);
      break;
    case 'included':
      f.publish(`transactions/${hex0x(k.value.transactionId)}/included-block`, k.value.raw);
      break;
    case 'receipt':
      f.publish(TOPICS.receipts, k.value.json);
      break;
    default:
      break;
  }
}
