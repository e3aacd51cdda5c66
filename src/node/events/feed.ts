/**
 * Feeds the event bus from the domain: the attacher (a block stored, a block solid), the milestone processor (the
 * latest milestone raised, a milestone confirmed with everything its confirmation did) and the store (the confirmed
 * cone's stored bytes and metadata, read after the confirmation's batch is durable, so an event never announces a
 * state a read could not see yet).
 *
 * Nothing is built while nobody listens (`bus.active`). Blocks and solid metadata are built in the listener, from what
 * the attacher hands over (no read). A confirmation is turned into events by one chained job at a time, so the
 * events of milestone N always precede those of N+1: the referenced metadata of every cone block (and the milestone
 * block's own, which now carries its index), the outputs created, then spent, the included transactions, the receipt,
 * and last `confirmed`.
 */
import { toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { milestoneOptionToJson } from '../../core/json/index.ts';
import {
  MILESTONE_OPTION_RECEIPT,
  PAYLOAD_MILESTONE,
  PAYLOAD_TAGGED_DATA,
  PAYLOAD_TRANSACTION,
  type Block,
} from '../../core/model/index.ts';
import { TABLES, type NodeStore } from '../../core/store/index.ts';
import type { ConfirmedEvent, LatestMilestone } from '../ledger/milestones.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { Logger } from '../logger.ts';
import type { SolidListener, StoredListener } from '../tangle/attach.ts';
import type { BlockMetadataView } from '../tangle/reads.ts';
import { promoteReattach, tipScore } from '../tangle/urts.ts';
import type { EventBus, StoredBlockEvent } from './bus.ts';
import { outputEvent } from './outputs.ts';

export interface FeedSources {
  store: NodeStore;
  protocol: ProtocolState;
  onStored(listener: StoredListener): void;
  onSolid(listener: SolidListener): void;
  onConfirmed(listener: (e: ConfirmedEvent) => void): void;
  onLatest(listener: (m: LatestMilestone) => void): void;
  logger: Logger;
}

/** Offset of the first parent in a v2 block (TIP-24): protocol version u8, parent count u8, then the parents. */
const PARENTS_AT = 2;

/** The parents of a stored v2 block, read from its bytes (no decode). */
export function parentsOfRaw(raw: Uint8Array): Uint8Array[] {
  const n = raw[PARENTS_AT - 1] ?? 0;
  const out: Uint8Array[] = [];
  for (let i = 0; i < n; i++) out.push(raw.slice(PARENTS_AT + 32 * i, PARENTS_AT + 32 * (i + 1)));
  return out;
}

/** The serialized payload inside a stored v2 block: after the parents and the u32 payload length, before the nonce. */
export function payloadBytesOfRaw(raw: Uint8Array): Uint8Array {
  const at = PARENTS_AT + 32 * (raw[PARENTS_AT - 1] ?? 0);
  const length = new DataView(raw.buffer, raw.byteOffset + at, 4).getUint32(0, true);
  return raw.subarray(at + 4, at + 4 + length);
}

/** A stored block as a `block` event: the payload kind and, where the topics need them, the tag and milestone bytes. */
export function storedBlockEvent(blockId: Uint8Array, block: Block, raw: Uint8Array): StoredBlockEvent {
  const event: StoredBlockEvent = { kind: 'block', blockId, raw, payload: 'none' };
  const p = block.payload;
  switch (p?.type) {
    case PAYLOAD_TRANSACTION:
      event.payload = 'transaction';
      if (p.essence.payload?.type === PAYLOAD_TAGGED_DATA) event.tag = p.essence.payload.tag;
      break;
    case PAYLOAD_TAGGED_DATA:
      event.payload = 'taggedData';
      event.tag = p.tag;
      break;
    case PAYLOAD_MILESTONE:
      event.payload = 'milestone';
      event.milestone = payloadBytesOfRaw(raw);
      break;
    default:
      break;
  }
  return event;
}

export function feedEvents(bus: EventBus, s: FeedSources): void {
  s.onStored((blockId, block, _result, raw) => {
    if (bus.active) bus.emit(storedBlockEvent(blockId, block, raw));
  });
  s.onSolid((blockId, parents, coneRoots) => {
    if (!bus.active) return;
    const flags = promoteReattach(tipScore(coneRoots, s.protocol.ledgerIndex, s.protocol.current.belowMaxDepth));
    bus.emit({
      kind: 'metadata',
      view: { blockId, parents: [...parents], metadata: { protocolVersion: 2, solid: true, arrivalTime: 0 }, flags },
    });
  });
  s.onLatest((m) => bus.emit({ kind: 'latest', milestone: { ...m } }));
  let chain: Promise<void> = Promise.resolve();
  s.onConfirmed((e) => {
    if (!bus.active) return;
    chain = chain
      .then(() => confirmationEvents(bus, s, e))
      .catch((err: unknown) => s.logger.error(`events of milestone ${e.index} failed`, err));
  });
}

async function confirmationEvents(bus: EventBus, s: FeedSources, e: ConfirmedEvent): Promise<void> {
  const c = e.confirmation;
  const ids = [...c.verdicts.map((v) => v.blockId), e.blockId];
  const [raws, metadata] = await Promise.all([
    s.store.getMany(TABLES.blocks, ids),
    s.store.getMany(TABLES.blockMetadata, ids),
  ]);
  ids.forEach((blockId, i) => {
    const raw = raws[i];
    const md = metadata[i];
    if (raw === undefined || md === undefined) return;
    const view: BlockMetadataView = { blockId, parents: parentsOfRaw(raw), metadata: md };
    bus.emit({ kind: 'metadata', view });
  });
  const hrp = s.protocol.current.bech32Hrp;
  for (const o of c.created) bus.emit(outputEvent('created', o, c.milestoneIndex, hrp));
  for (const o of c.consumed) bus.emit(outputEvent('spent', o, c.milestoneIndex, hrp));
  c.verdicts.forEach((v, i) => {
    const raw = raws[i];
    if (v.ledgerInclusionState === 'included' && v.transactionId !== undefined && raw !== undefined) {
      bus.emit({ kind: 'included', transactionId: v.transactionId, blockId: v.blockId, raw });
    }
  });
  if (c.receipt !== undefined) {
    const milestoneRaw = raws[ids.length - 1];
    const block = milestoneRaw === undefined ? undefined : decodeBlock(milestoneRaw);
    const option =
      block?.payload?.type === PAYLOAD_MILESTONE
        ? block.payload.options.find((o) => o.type === MILESTONE_OPTION_RECEIPT)
        : undefined;
    if (option)
      bus.emit({
        kind: 'receipt',
        milestoneIndex: c.milestoneIndex,
        json: JSON.stringify(milestoneOptionToJson(option)),
      });
    else
      s.logger.warn(
        `milestone ${c.milestoneIndex} (${toHex0x(e.blockId)}) confirmed a receipt its stored block does not show`,
      );
  }
  bus.emit({
    kind: 'confirmed',
    milestone: { index: c.milestoneIndex, timestamp: c.milestoneTimestamp, milestoneId: c.milestoneId },
  });
}
