/**
 * The node's indexer reads (src/node/ledger/indexer-reads.ts) while milestones commit: a cheap read runs again until
 * the ledger index holds still, an expensive one is not repeated and names the index read after it; a cancelled call
 * stops the scan (UNAVAILABLE), and and QueryOutputs through the gateway's port aborts its scan at the call's deadline.
 */
import { expect } from 'chai';
import { INDEXER_TABLES } from '../../../src/core/ledger/index.ts';
import { META, MemoryKeyValueStore, NodeStore, type Entry, type RangeOptions } from '../../../src/core/store/index.ts';
import type { LedgerJsonResponse, QueryOutputsRequest } from '../../../src/grpc/gen/node.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import type { NodeCallError } from '../../../src/grpc/port.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import { servicePort } from '../../../src/node/grpc/port.ts';
import type { NodeServiceImpl } from '../../../src/node/grpc/service.ts';
import { IndexerReader, RERUN_MAX_ENTRIES } from '../../../src/node/ledger/indexer-reads.ts';
import { basic, book, booked, ed, HRP, tagHex } from '../../core/ledger/indexer/support.ts';
import { CollectingLogger } from '../../../harness/node.ts';

const A = ed('reads A');

/** A memory store that counts the range reads of the index by type and runs a hook before each. */
class HookedStore extends MemoryKeyValueStore {
  typeScans = 0;
  hook: (() => Promise<void>) | undefined;
  override async *entries(range?: RangeOptions): AsyncIterableIterator<Entry> {
    const from = range?.gte ?? range?.gt;
    if (from?.[0] === INDEXER_TABLES.byType.prefix) {
      this.typeScans++;
      await this.hook?.();
    }
    yield* super.entries(range);
  }
}

async function setLedgerIndex(store: NodeStore, index: number): Promise<void> {
  await store.batch().putMeta(META.ledgerIndex, index).commit();
}

describe('indexer reads of the node: consistency while milestones commit, cancellation', function () {
  this.timeout(30000);
  let kv: HookedStore;
  let store: NodeStore;
  let reader: IndexerReader;
  before(async () => {
    kv = new HookedStore();
    store = await NodeStore.open(kv);
    // Enough outputs that the scan reads several chunks and examines more than a rerun may cost.
    await book(
      store,
      Array.from({ length: RERUN_MAX_ENTRIES + 1000 }, (_, i) => booked(`r${i}`, 100 + (i % 3), basic({ address: A }))),
    );
    // No time bound here (a loaded test machine may take longer than it for a cheap read): entries alone decide.
    reader = new IndexerReader(store, () => HRP, { maxEntries: RERUN_MAX_ENTRIES, maxMs: Number.POSITIVE_INFINITY });
  });
  beforeEach(async () => {
    await setLedgerIndex(store, 10);
    kv.typeScans = 0;
    kv.hook = undefined;
  });

  it('a cheap read during which a milestone commits runs again and names the index it read', async () => {
    let bumps = 0;
    kv.hook = async () => {
      if (bumps++ === 0) await setLedgerIndex(store, 11);
    };
    const page = await reader.query('basic', { pageSize: '5' });
    expect(page.items).to.have.length(5);
    expect(kv.typeScans).to.equal(2);
    expect(page.ledgerIndex).to.equal(11);
  });

  it('an expensive read is not repeated: the page names the index read after it', async () => {
    let index = 10;
    kv.hook = () => setLedgerIndex(store, ++index); // a milestone during every chunk
    const page = await reader.query('basic', { tag: tagHex('none') });
    expect(page.items).to.deep.equal([]);
    expect(page.cursor).to.equal(undefined);
    const scans = kv.typeScans;
    expect(scans).to.be.greaterThan(1); // several chunks of one scan, not a second scan from the start
    expect(page.ledgerIndex).to.equal(index);
    // A smaller budget cuts the scan short: a cursor, no rerun either (the budget is above the rerun bound).
    kv.typeScans = 0;
    const short = await reader.query('basic', { tag: tagHex('none') }, { budget: RERUN_MAX_ENTRIES + 1 });
    expect(short.cursor).to.be.a('string');
    expect(short.ledgerIndex).to.equal(index);
  });

  it('a read that took longer than the time bound is not repeated either', async () => {
    const slow = new IndexerReader(store, () => HRP, { maxEntries: RERUN_MAX_ENTRIES, maxMs: -1 });
    kv.hook = () => setLedgerIndex(store, 12);
    const page = await slow.query('basic', { pageSize: '5' });
    expect([kv.typeScans, page.ledgerIndex, page.items.length]).to.deep.equal([1, 12, 5]);
  });

  it('cheap reads that milestones keep moving: three attempts, then the index read after the last', async () => {
    let index = 10;
    kv.hook = () => setLedgerIndex(store, ++index);
    const page = await reader.query('basic', { pageSize: '1' });
    expect(kv.typeScans).to.equal(3);
    expect(page.ledgerIndex).to.equal(13);
  });

  it('an aborted signal stops the scan: UNAVAILABLE, no further store read', async () => {
    const ac = new AbortController();
    kv.hook = async () => {
      if (kv.typeScans === 1) ac.abort(new Error('the client cancelled the call'));
    };
    const e: unknown = await reader.query('basic', { tag: tagHex('none') }, { signal: ac.signal }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).to.be.instanceOf(NodeError);
    expect([(e as NodeError).code, (e as NodeError).message]).to.deep.equal([
      'UNAVAILABLE',
      'the indexer query was stopped: the client cancelled the call',
    ]);
    expect(kv.typeScans).to.equal(1);
  });

  it('QueryOutputs through the port aborts its signal when the call ends (deadline passed)', async () => {
    let seen: AbortSignal | undefined;
    const stub = {
      queryOutputs: (_req: QueryOutputsRequest, signal?: AbortSignal) =>
        new Promise<LedgerJsonResponse>((resolve) => {
          seen = signal;
          signal?.addEventListener('abort', () => resolve({ json: '{}' }));
        }),
    } as unknown as NodeServiceImpl;
    const port = servicePort(stub, { logger: new CollectingLogger() });
    const code = await port.queryOutputs({ route: 'basic', parameters: [] }, { deadline: Date.now() + 50 }).then(
      () => undefined,
      (err: NodeCallError) => err.grpcCode,
    );
    expect(code).to.equal(GrpcStatus.DEADLINE_EXCEEDED);
    await new Promise((r) => setTimeout(r, 10));
    expect(seen?.aborted).to.equal(true);
  });
});
