/**
 * The explorer's search (`GET /api/explorer/v2/search/{text}`, docs/explorer.md): what a text names, read from the
 * store, so that a page asks one question and then reads only what exists (a browser logs every 404 as an error).
 *
 *   - a decimal number is a milestone index;
 *   - 0x and 64 hex digits is a block ID, else a transaction ID, else a milestone ID (in that order; the three are
 *     hashes of different things, so one value names at most one of them in practice);
 *   - 0x and 68 hex digits is an output ID;
 *   - a bech32 text is an address, of this network only.
 *
 * Other text is INVALID_REQUEST or INVALID_BECH32 (400). An ID or index the node does not hold is NOT_FOUND (404),
 * saying it may have been pruned when the node has pruned; a milestone at or below the pruning index is PRUNED.
 * The answers carry what a page needs to link on: a block's transaction ID, a transaction's block, a milestone's
 * block (null when the node does not hold it: the genesis, a snapshot's start, a pruned one), whether the history
 * holds its blocks and ledger updates, and its neighbours the node knows.
 */
import { clip, fromHex0x, toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { reject } from '../../core/errors.ts';
import { bech32DecodeAddress, bech32EncodeAddress, parseOutputId, transactionIdOf } from '../../core/ids/index.ts';
import { HISTORY_TABLES, historyRange, LedgerState } from '../../core/ledger/index.ts';
import { PAYLOAD_TRANSACTION } from '../../core/model/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { notFound, prunedMilestone } from '../pruning/answers.ts';
import { NodeError } from '../support/errors.ts';

export type SearchKind = 'block' | 'transaction' | 'milestone' | 'output' | 'address';

/** `{kind, id, ...}`: `id` is the normalized text (lower-case hex or bech32; a milestone's ID for an index). */
export interface SearchAnswer {
  kind: SearchKind;
  id: string;
  [fact: string]: unknown;
}

const MAX_INDEX = 0xffffffff;
const DECIMAL = /^[0-9]+$/;
const ID32 = /^0x[0-9a-fA-F]{64}$/;
const ID34 = /^0x[0-9a-fA-F]{68}$/;
/** The shape of bech32 (BIP-173): a human-readable part, the separator 1, at least the 6-character checksum. */
const BECH32 = /^[\x21-\x7e]{1,83}1[0-9a-zA-Z]{6,}$/;

/** What `text` names on this node (see the file comment); `hrp` is the network's bech32 prefix. */
export async function searchText(store: NodeStore, hrp: string, text: string): Promise<SearchAnswer> {
  const t = text.trim();
  if (DECIMAL.test(t)) return milestoneByIndex(store, parseIndex(t));
  if (ID32.test(t)) return byId32(store, fromHex0x(t.toLowerCase()));
  if (ID34.test(t)) return output(store, fromHex0x(t.toLowerCase()));
  if (BECH32.test(t)) return address(hrp, t);
  throw new NodeError(
    'INVALID_REQUEST',
    `search: "${clip(t, 100)}" is neither a milestone index, a block, transaction or milestone ID (0x and 64 hex ` +
      `digits), an output ID (0x and 68 hex digits) nor a bech32 address (${hrp}1...)`,
  );
}

function parseIndex(t: string): number {
  const n = t.length > 10 ? Number.POSITIVE_INFINITY : Number(t);
  if (n > MAX_INDEX)
    throw new NodeError('INVALID_REQUEST', `search: milestone index ${clip(t, 30)} is above ${MAX_INDEX}`);
  return n;
}

async function byId32(store: NodeStore, id: Uint8Array): Promise<SearchAnswer> {
  const raw = await store.getBlock(id);
  if (raw !== undefined) {
    const payload = decodeBlock(raw).payload;
    const tx = payload?.type === PAYLOAD_TRANSACTION ? toHex0x(transactionIdOf(payload)) : null;
    return { kind: 'block', id: toHex0x(id), transactionId: tx };
  }
  const included = await store.includedBlock(id);
  const carriers = included === undefined ? await store.transactionBlocks(id) : [included];
  for (const blockId of carriers)
    if (await store.hasBlock(blockId))
      return { kind: 'transaction', id: toHex0x(id), blockId: toHex0x(blockId), included: included !== undefined };
  const index = (await store.milestoneIndexById(id)) ?? (await store.get(HISTORY_TABLES.milestoneIds, id));
  if (index !== undefined) return milestoneByIndex(store, index);
  throw await notFound(
    store,
    `nothing known by ${toHex0x(id)}: no block, transaction or milestone`,
    'unknown, or not seen by this node yet',
  );
}

/** A milestone the node knows: its store record (with its block) or, when block pruning dropped that, its history. */
async function knownMilestone(
  store: NodeStore,
  index: number,
): Promise<{ milestoneId: Uint8Array; timestamp: number; blockId?: Uint8Array } | undefined> {
  if (index < 0 || index > MAX_INDEX) return undefined;
  return (await store.milestone(index)) ?? (await store.get(HISTORY_TABLES.milestones, index));
}

async function milestoneByIndex(store: NodeStore, index: number): Promise<SearchAnswer> {
  const m = await knownMilestone(store, index);
  if (m === undefined) throw await missingMilestone(store, index);
  const [blockHeld, range, before, after] = await Promise.all([
    m.blockId === undefined ? false : store.hasBlock(m.blockId),
    historyRange(store),
    knownMilestone(store, index - 1),
    knownMilestone(store, index + 1),
  ]);
  return {
    kind: 'milestone',
    id: toHex0x(m.milestoneId),
    index,
    timestamp: m.timestamp,
    blockId: blockHeld ? toHex0x(m.blockId!) : null,
    history: range !== undefined && index >= range.start && index <= range.ledgerIndex,
    previousIndex: before === undefined ? null : index - 1,
    nextIndex: after === undefined ? null : index + 1,
  };
}

async function missingMilestone(store: NodeStore, index: number): Promise<NodeError> {
  const confirmed = await new LedgerState(store).ledgerIndex();
  if (confirmed !== undefined && index > confirmed)
    return new NodeError(
      'NOT_FOUND',
      `milestone ${index} is not confirmed yet: the confirmed milestone is ${confirmed}`,
    );
  return (
    (await prunedMilestone(store, index, `milestone ${index}`)) ??
    new NodeError('NOT_FOUND', `milestone ${index} is not known to this node (before the start of its ledger)`)
  );
}

async function output(store: NodeStore, id: Uint8Array): Promise<SearchAnswer> {
  parseOutputId(id, 'output ID');
  if ((await new LedgerState(store).output(id)) === undefined)
    throw await notFound(store, `output not found: ${toHex0x(id)}`, 'unknown, or not booked by a milestone yet');
  return { kind: 'output', id: toHex0x(id) };
}

function address(hrp: string, text: string): SearchAnswer {
  try {
    return { kind: 'address', id: bech32EncodeAddress(hrp, bech32DecodeAddress(text, hrp).address) };
  } catch (e) {
    return reject('INVALID_BECH32', `Invalid address: ${clip((e as Error).message, 300)}`, {
      field: 'address',
      value: clip(text),
    });
  }
}
