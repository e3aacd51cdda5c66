/**
 * Reads of the TIP-26 indexer (src/core/ledger/indexer) for the node's answers: a list query of one route, or the
 * unspent output of one alias, NFT or foundry. The indexer's tables commit in the same batch as the ledger, so a page
 * and the ledger index it names agree when no milestone commits in between; the index is read before and after the
 * query. When a milestone moved it meanwhile, a cheap read (few index entries, a few milliseconds) runs again, a few
 * times at most; an expensive one is not repeated: the page names the index read after it, and reflects the ledger at
 * that index or at an earlier one back to the index read before (docs/indexer.md, "Consistency"). The store's port
 * has no snapshot spanning several reads, which would make one ledger state of every page.
 * A list query examines at most a budget of index entries (src/core/ledger/indexer/query.ts) and stops between
 * store reads once the caller's signal aborts (the gRPC call was cancelled: client gone, deadline passed).
 */
import { toHex0x } from '../../core/bytes.ts';
import {
  LedgerState,
  outputIdByAliasId,
  outputIdByFoundryId,
  outputIdByNftId,
  parseOutputQuery,
  scanOutputQuery,
  type IndexerAnswer,
  type IndexerRoute,
} from '../../core/ledger/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../support/errors.ts';

export type ChainKind = 'alias' | 'nft' | 'foundry';

const ATTEMPTS = 3;
/** A read that examined more index entries than this, or took longer, is not run again (its cost would double). */
export const RERUN_MAX_ENTRIES = 2_000;
export const RERUN_MAX_MS = 50;

/** One read of `consistent`: its answer and the index entries it examined. */
interface Read {
  answer: IndexerAnswer;
  examined: number;
}

const LOOKUP: Readonly<Record<ChainKind, (store: NodeStore, id: Uint8Array) => Promise<Uint8Array | undefined>>> = {
  alias: outputIdByAliasId,
  nft: outputIdByNftId,
  foundry: outputIdByFoundryId,
};

export class IndexerReader {
  private readonly ledger: LedgerState;

  /**
   * `hrp()`: the network's bech32 prefix, which addresses in queries must carry. `rerun`: the bounds under which a
   * read that a milestone overlapped runs again (default RERUN_MAX_ENTRIES, RERUN_MAX_MS).
   */
  constructor(
    private readonly store: NodeStore,
    private readonly hrp: () => string,
    private readonly rerun: { maxEntries: number; maxMs: number } = {
      maxEntries: RERUN_MAX_ENTRIES,
      maxMs: RERUN_MAX_MS,
    },
  ) {
    this.ledger = new LedgerState(store);
  }

  /**
   * One page of `route` filtered by `params` (bad parameters throw a ProtocolError naming the parameter). `budget`:
   * index entries examined at most (default: query.ts `scanBudget`); `signal` stops the scan (UNAVAILABLE).
   */
  async query(
    route: IndexerRoute,
    params: Readonly<Record<string, string>>,
    options: { signal?: AbortSignal; budget?: number } = {},
  ): Promise<IndexerAnswer> {
    const q = parseOutputQuery(route, params, this.hrp());
    const limits = {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.budget !== undefined ? { budget: options.budget } : {}),
    };
    return this.consistent(async (ledgerIndex) => {
      try {
        return await scanOutputQuery(this.store, q, ledgerIndex, limits);
      } catch (e) {
        if (options.signal?.aborted === true)
          throw new NodeError('UNAVAILABLE', `the indexer query was stopped: ${(e as Error).message}`);
        throw e;
      }
    });
  }

  /** The unspent output of a chain, as a one-item answer with page size 0 (inx-indexer's); NOT_FOUND without one. */
  chainOutput(kind: ChainKind, id: Uint8Array): Promise<IndexerAnswer> {
    return this.consistent(async (ledgerIndex) => {
      const outputId = await LOOKUP[kind](this.store, id);
      if (outputId === undefined) throw new NodeError('NOT_FOUND', `no unspent output of ${kind} ${toHex0x(id)}`);
      return { answer: { ledgerIndex, pageSize: 0, items: [toHex0x(outputId)] }, examined: 1 };
    });
  }

  private async consistent(read: (ledgerIndex: number) => Promise<Read>): Promise<IndexerAnswer> {
    for (let attempt = 1; ; attempt++) {
      const before = await this.ledger.ledgerIndex();
      if (before === undefined)
        throw new NodeError('UNAVAILABLE', 'the indexer has no ledger yet: the node was started without one');
      const started = performance.now();
      const { answer, examined } = await read(before);
      const after = (await this.ledger.ledgerIndex()) ?? before;
      if (after === before) return answer;
      const cheap = examined <= this.rerun.maxEntries && performance.now() - started <= this.rerun.maxMs;
      // Milestones committed during the read: name the index read after it (the page is of that state or an earlier
      // one).
      if (!cheap || attempt >= ATTEMPTS) return { ...answer, ledgerIndex: after };
    }
  }
}
