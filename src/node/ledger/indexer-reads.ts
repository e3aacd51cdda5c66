/**
 * Reads of the TIP-26 indexer (src/core/ledger/indexer) for the node's answers: a list query of one route, or the
 * unspent output of one alias, NFT or foundry. The indexer's tables commit in the same batch as the ledger, so a page
 * and the ledger index it names agree when no milestone commits in between; the index is read before and after the
 * query, and the query runs again (a few times at most) when a milestone moved it meanwhile.
 */
import { toHex0x } from '../../core/bytes.ts';
import {
  LedgerState,
  outputIdByAliasId,
  outputIdByFoundryId,
  outputIdByNftId,
  queryOutputs,
  type IndexerAnswer,
  type IndexerRoute,
} from '../../core/ledger/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../errors.ts';

export type ChainKind = 'alias' | 'nft' | 'foundry';

const ATTEMPTS = 3;

const LOOKUP: Readonly<Record<ChainKind, (store: NodeStore, id: Uint8Array) => Promise<Uint8Array | undefined>>> = {
  alias: outputIdByAliasId,
  nft: outputIdByNftId,
  foundry: outputIdByFoundryId,
};

export class IndexerReader {
  private readonly ledger: LedgerState;

  /** `hrp()`: the network's bech32 prefix, which addresses in queries must carry. */
  constructor(
    private readonly store: NodeStore,
    private readonly hrp: () => string,
  ) {
    this.ledger = new LedgerState(store);
  }

  /** One page of `route` filtered by `params` (bad parameters throw a ProtocolError naming the parameter). */
  query(route: IndexerRoute, params: Readonly<Record<string, string>>): Promise<IndexerAnswer> {
    return this.consistent((ledgerIndex) => queryOutputs(this.store, route, params, ledgerIndex, this.hrp()));
  }

  /** The unspent output of a chain, as a one-item answer with page size 0 (inx-indexer's); NOT_FOUND without one. */
  chainOutput(kind: ChainKind, id: Uint8Array): Promise<IndexerAnswer> {
    return this.consistent(async (ledgerIndex) => {
      const outputId = await LOOKUP[kind](this.store, id);
      if (outputId === undefined) throw new NodeError('NOT_FOUND', `no unspent output of ${kind} ${toHex0x(id)}`);
      return { ledgerIndex, pageSize: 0, items: [toHex0x(outputId)] };
    });
  }

  private async consistent(read: (ledgerIndex: number) => Promise<IndexerAnswer>): Promise<IndexerAnswer> {
    let answer: IndexerAnswer | undefined;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = await this.ledger.ledgerIndex();
      if (before === undefined) throw new NodeError('UNAVAILABLE', 'the indexer has no ledger yet: the node was started without one');
      answer = await read(before);
      if ((await this.ledger.ledgerIndex()) === before) return answer;
    }
    return answer!; // milestones kept committing: the last page, named after the index it started from
  }
}
