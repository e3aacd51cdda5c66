/**
 * The answers of the explorer routes (`/api/explorer/v2`, inx-chronicle 1.0's, docs/explorer.md) from the history
 * and its aggregates (src/core/ledger/history): the query parameters are checked there (a ProtocolError naming the
 * parameter, 400), addresses must be bech32 of this network, and a read outside the history kept is NOT_FOUND or
 * PRUNED (404) with the range that is kept. The JSON keeps chronicle's field names and types: token amounts and counts
 * as decimal strings, indexes and timestamps as numbers, IDs as 0x-hex, addresses as bech32, `cursor` null on the
 * last page. Answers that name a ledger index (balance, richest addresses, token distribution) read it before and
 * after their read and read again (up to three times) when a milestone committed in between, so the figures and the
 * index they name agree.
 */
import { clip, toHex0x } from '../../core/bytes.ts';
import { decodeAddress, encodeAddress } from '../../core/codec/index.ts';
import { reject } from '../../core/errors.ts';
import { bech32DecodeAddress, bech32EncodeAddress } from '../../core/ids/index.ts';
import {
  addressBalance,
  addressUpdates,
  blockChildren,
  historyMilestoneIndex,
  HistoryMissing,
  historyRange,
  milestoneBlocks,
  milestonesPage,
  milestoneUpdates,
  parseAddressUpdatesQuery,
  parseAggregateQuery,
  parseChildrenQuery,
  parseMilestoneBlocksQuery,
  parseMilestonesQuery,
  parseMilestoneUpdatesQuery,
  parseNoParameters,
  richestAddresses,
  tokenDistribution,
  type HistoryRange,
} from '../../core/ledger/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../support/errors.ts';
import { searchText } from './explorer-search.ts';

export type Params = Readonly<Record<string, string>>;
/** A milestone named by a route: by ID or by index. */
export type MilestoneRef = { milestoneId: Uint8Array } | { index: number };

type Json = Record<string, unknown>;
const ATTEMPTS = 3;

export class ExplorerReader {
  /** `hrp()`: the network's bech32 prefix (addresses in paths must carry it; answers use it). */
  constructor(
    private readonly store: NodeStore,
    private readonly hrp: () => string,
  ) {}

  /**
   * `/balance/{address}`: chronicle's total and available balance at the ledger index. It takes no parameters and, as
   * chronicle's (no query extractor), does not read any.
   */
  balance(address: string): Promise<Json> {
    const key = this.address(address);
    return this.atLedgerIndex(async (r) => {
      const ms = await this.store.milestone(r.ledgerIndex);
      if (ms === undefined) throw new NodeError('UNAVAILABLE', `the ledger's milestone ${r.ledgerIndex} is not stored`);
      const b = await addressBalance(this.store, key, ms.timestamp);
      return { totalBalance: b.total.toString(), availableBalance: b.available.toString(), ledgerIndex: r.ledgerIndex };
    });
  }

  /** `/ledger/updates/by-address/{address}`. */
  async updatesByAddress(address: string, params: Params): Promise<Json> {
    const q = parseAddressUpdatesQuery(params);
    const key = this.address(address);
    const page = await this.read((r) => addressUpdates(this.store, r, key, q));
    return {
      address,
      items: page.items.map((u) => ({
        outputId: toHex0x(u.outputId),
        isSpent: u.spent,
        milestoneIndex: u.milestoneIndex,
        milestoneTimestamp: u.milestoneTimestamp,
      })),
      cursor: page.cursor ?? null,
    };
  }

  /** `/ledger/updates/by-milestone/{milestoneId}`. */
  async updatesByMilestone(milestone: MilestoneRef, params: Params): Promise<Json> {
    const q = parseMilestoneUpdatesQuery(params);
    const hrp = this.hrp();
    return this.read(async (r) => {
      const index = await this.milestoneIndex(r, milestone);
      const page = await milestoneUpdates(this.store, r, index, q);
      return {
        milestoneIndex: index,
        items: page.items.map((u) => ({
          address: bech32EncodeAddress(hrp, decodeAddress(u.address)),
          outputId: toHex0x(u.outputId),
          isSpent: u.spent,
        })),
        cursor: page.cursor ?? null,
      };
    });
  }

  /** `/milestones`. */
  async milestones(params: Params): Promise<Json> {
    const q = parseMilestonesQuery(params);
    const page = await this.read((r) => milestonesPage(this.store, r, q));
    return {
      items: page.items.map((m) => ({ milestoneId: toHex0x(m.milestoneId), index: m.index })),
      cursor: page.cursor ?? null,
    };
  }

  /** `/milestones/{milestoneId}/blocks`, `/milestones/by-index/{index}/blocks`. */
  async milestoneBlocks(milestone: MilestoneRef, params: Params): Promise<Json> {
    const q = parseMilestoneBlocksQuery(params);
    return this.read(async (r) => {
      const page = await milestoneBlocks(this.store, r, await this.milestoneIndex(r, milestone), q);
      return {
        blocks: page.items.map((b) => ({ blockId: toHex0x(b.blockId), payloadType: b.payloadType ?? null })),
        cursor: page.cursor ?? null,
      };
    });
  }

  /** `/blocks/{blockId}/children`. */
  async children(blockId: Uint8Array, params: Params): Promise<Json> {
    const q = parseChildrenQuery(params);
    const children = await this.read((r) => blockChildren(this.store, r, blockId, q));
    return {
      blockId: toHex0x(blockId),
      maxResults: q.pageSize,
      count: children.length,
      children: children.map(toHex0x),
    };
  }

  /** `/ledger/richest-addresses`. */
  richest(params: Params): Promise<Json> {
    const q = parseAggregateQuery('richest', params);
    const hrp = this.hrp();
    return this.atLedgerIndex(async (r) => {
      this.requireLedgerIndex(r, q.ledgerIndex);
      const top = await richestAddresses(this.store, q.top);
      return {
        top: top.map((a) => ({
          address: bech32EncodeAddress(hrp, decodeAddress(a.address)),
          balance: a.amount.toString(),
        })),
        ledgerIndex: r.ledgerIndex,
      };
    });
  }

  /** `/ledger/token-distribution`. */
  distribution(params: Params): Promise<Json> {
    const q = parseAggregateQuery('distribution', params);
    return this.atLedgerIndex(async (r) => {
      this.requireLedgerIndex(r, q.ledgerIndex);
      const buckets = await tokenDistribution(this.store);
      return {
        distribution: buckets.map((b) => ({
          range: { start: Number(10n ** BigInt(b.magnitude)), end: Number(10n ** BigInt(b.magnitude + 1)) },
          addressCount: b.addresses.toString(),
          totalBalance: b.total.toString(),
        })),
        ledgerIndex: r.ledgerIndex,
      };
    });
  }

  /** `/search/{text}`: what the text names (explorer-search.ts). */
  search(text: string, params: Params): Promise<Json> {
    parseNoParameters('search', params);
    return searchText(this.store, this.hrp(), text) as Promise<Json>;
  }

  /** A bech32 address of this network, serialized. */
  private address(text: string): Uint8Array {
    try {
      return encodeAddress(bech32DecodeAddress(text, this.hrp()).address);
    } catch (e) {
      return reject('INVALID_BECH32', `Invalid address: ${clip((e as Error).message, 300)}`, {
        field: 'address',
        value: clip(text),
      });
    }
  }

  private async milestoneIndex(r: HistoryRange, m: MilestoneRef): Promise<number> {
    return 'index' in m ? m.index : historyMilestoneIndex(this.store, r, m.milestoneId);
  }

  /** The aggregates are the ledger's now: another ledger index is not kept. */
  private requireLedgerIndex(r: HistoryRange, asked: number | undefined): void {
    if (asked === undefined || asked === r.ledgerIndex) return;
    const why = `the aggregates are kept for the ledger now (index ${r.ledgerIndex}) only`;
    if (asked > r.ledgerIndex) throw new NodeError('NOT_FOUND', `ledger index ${asked} is not confirmed yet: ${why}`);
    throw new NodeError('PRUNED', `ledger index ${asked} is not kept: ${why}`);
  }

  private async range(): Promise<HistoryRange> {
    const r = await historyRange(this.store);
    if (r === undefined) throw new NodeError('UNAVAILABLE', 'the node has no ledger and no history yet');
    return r;
  }

  /** A read of the history; HistoryMissing becomes the node's NOT_FOUND or PRUNED. */
  private async read<T>(fn: (r: HistoryRange) => Promise<T>, range?: HistoryRange): Promise<T> {
    const r = range ?? (await this.range());
    try {
      return await fn(r);
    } catch (e) {
      if (e instanceof HistoryMissing) throw new NodeError(e.reason, e.message);
      throw e;
    }
  }

  /** A read whose answer names the ledger index: again when a milestone committed during it. */
  private async atLedgerIndex<T>(fn: (r: HistoryRange) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const before = await this.range();
      const answer = await this.read(fn, before);
      const after = await this.range();
      if (after.ledgerIndex === before.ledgerIndex || attempt >= ATTEMPTS) return answer;
    }
  }
}
