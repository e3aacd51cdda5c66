/**
 * Builders for indexer tests: outputs of every kind with any unlock condition and feature, a memory store whose ledger
 * tables and index are written in one batch as confirm.ts writes them, and a pager that follows cursors.
 */
import { expect } from 'chai';
import { compareBytes, toHex0x } from '../../../../src/core/bytes.ts';
import { blake2b256 } from '../../../../src/core/crypto/index.ts';
import { bech32EncodeAddress, outputId } from '../../../../src/core/ids/index.ts';
import {
  indexLedgerChanges,
  LEDGER_TABLES,
  positionOf,
  queryOutputs,
  type IndexableOutput,
  type IndexerAnswer,
  type IndexerRoute,
} from '../../../../src/core/ledger/index.ts';
import type {
  Address,
  AliasOutput,
  BasicOutput,
  CommonOutput,
  Feature,
  FoundryOutput,
  NativeToken,
  NftOutput,
  UnlockCondition,
} from '../../../../src/core/model/index.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../../src/core/store/index.ts';

export const HRP = 'smr';

export const bytes32 = (label: string): Uint8Array => blake2b256(new TextEncoder().encode(label));
export const ed = (label: string): Address => ({ type: 0, pubKeyHash: bytes32(`ed ${label}`) });
export const aliasAddress = (aliasId: Uint8Array): Address => ({ type: 8, aliasId });
export const nftAddress = (nftId: Uint8Array): Address => ({ type: 16, nftId });
export const bech = (a: Address): string => bech32EncodeAddress(HRP, a);
export const oid = (label: string, index = 0): Uint8Array => outputId(bytes32(`tx ${label}`), index);
export const tagHex = (text: string): string => toHex0x(new TextEncoder().encode(text));

function tokens(n: number, label: string): NativeToken[] {
  return Array.from({ length: n }, (_, i) => ({
    id: Uint8Array.from({ length: 38 }, (_, j) => (j === 0 ? i : label.length + j)),
    amount: 10n,
  }));
}

export interface Conditions {
  address: Address;
  sdruc?: Address;
  timelock?: number;
  expiration?: { address: Address; time: number };
}

export interface Extras {
  sender?: Address;
  issuer?: Address;
  tag?: string;
  nativeTokens?: number;
}

function unlocks(c: Conditions): UnlockCondition[] {
  const out: UnlockCondition[] = [{ type: 0, address: c.address }];
  if (c.sdruc) out.push({ type: 1, returnAddress: c.sdruc, amount: 50_000n });
  if (c.timelock !== undefined) out.push({ type: 2, unixTime: c.timelock });
  if (c.expiration) out.push({ type: 3, returnAddress: c.expiration.address, unixTime: c.expiration.time });
  return out;
}

function features(x: Extras, withTag: boolean): Feature[] {
  const out: Feature[] = [];
  if (x.sender) out.push({ type: 0, address: x.sender });
  out.push({ type: 2, data: Uint8Array.of(1, 2, 3) });
  if (withTag && x.tag !== undefined) out.push({ type: 3, tag: new TextEncoder().encode(x.tag) });
  return out;
}

const immutable = (x: Extras): Feature[] => (x.issuer ? [{ type: 1, address: x.issuer }] : []);

export function basic(c: Conditions, x: Extras = {}): BasicOutput {
  return {
    type: 3,
    amount: 1_000_000n,
    nativeTokens: tokens(x.nativeTokens ?? 0, 'b'),
    unlockConditions: unlocks(c),
    features: features(x, true),
  };
}

export function nft(c: Conditions, x: Extras = {}, nftId: Uint8Array = new Uint8Array(32)): NftOutput {
  return {
    type: 6,
    amount: 1_000_000n,
    nativeTokens: tokens(x.nativeTokens ?? 0, 'n'),
    nftId,
    unlockConditions: unlocks(c),
    features: features(x, true),
    immutableFeatures: immutable(x),
  };
}

export function alias(
  stateController: Address,
  governor: Address,
  x: Extras = {},
  aliasId: Uint8Array = new Uint8Array(32),
): AliasOutput {
  return {
    type: 4,
    amount: 1_000_000n,
    nativeTokens: tokens(x.nativeTokens ?? 0, 'a'),
    aliasId,
    stateIndex: 0,
    stateMetadata: new Uint8Array(0),
    foundryCounter: 1,
    unlockConditions: [
      { type: 4, address: stateController },
      { type: 5, address: governor },
    ],
    features: features(x, false),
    immutableFeatures: immutable(x),
  };
}

export function foundry(aliasId: Uint8Array, serialNumber: number, x: Extras = {}): FoundryOutput {
  return {
    type: 5,
    amount: 1_000_000n,
    nativeTokens: tokens(x.nativeTokens ?? 0, 'f'),
    serialNumber,
    tokenScheme: { type: 0, mintedTokens: 10n, meltedTokens: 0n, maximumSupply: 100n },
    unlockConditions: [{ type: 6, address: { type: 8, aliasId } }],
    features: [],
    immutableFeatures: [],
  };
}

export function booked(label: string, createdAt: number, output: CommonOutput, index = 0): IndexableOutput {
  return { outputId: oid(label, index), milestoneTimestampBooked: createdAt, output };
}

/** The output IDs of `os` in the order a list query answers them: createdAt, then output ID. */
export const inIndexOrder = (os: readonly IndexableOutput[]): string[] =>
  [...os]
    .sort((a, b) =>
      compareBytes(
        positionOf(a.milestoneTimestampBooked, a.outputId),
        positionOf(b.milestoneTimestampBooked, b.outputId),
      ),
    )
    .map((o) => toHex0x(o.outputId));

export async function newStore(): Promise<NodeStore> {
  return NodeStore.open(new MemoryKeyValueStore());
}

/** Books `created` and spends `consumed` with their index writes in one batch, as confirm.ts does. */
export async function book(
  store: NodeStore,
  created: readonly IndexableOutput[],
  consumed: readonly IndexableOutput[] = [],
): Promise<void> {
  const batch = store.batch();
  for (const o of created) {
    batch.put(LEDGER_TABLES.outputs, o.outputId, {
      blockId: new Uint8Array(32),
      milestoneIndexBooked: 1,
      milestoneTimestampBooked: o.milestoneTimestampBooked,
      output: o.output,
    });
    batch.put(LEDGER_TABLES.unspent, o.outputId, null);
  }
  for (const o of consumed) {
    batch.put(LEDGER_TABLES.spent, o.outputId, {
      transactionIdSpent: bytes32('spender'),
      milestoneIndexSpent: 2,
      milestoneTimestampSpent: 2,
    });
    batch.del(LEDGER_TABLES.unspent, o.outputId);
  }
  indexLedgerChanges(batch, created, consumed);
  await batch.commit();
}

/**
 * Every page of a query (following cursors); checks each page's size and, without a scan `budget`, that a cursor
 * comes only with a full page (a budget that runs out gives short pages with a cursor).
 */
export async function allPages(
  store: NodeStore,
  route: IndexerRoute,
  params: Record<string, string>,
  pageSize: number,
  options: { budget?: number } = {},
): Promise<{ items: string[]; pages: IndexerAnswer[] }> {
  const pages: IndexerAnswer[] = [];
  let cursor: string | undefined;
  do {
    const page = await queryOutputs(
      store,
      route,
      { ...params, pageSize: String(pageSize), ...(cursor ? { cursor } : {}) },
      7,
      HRP,
      options,
    );
    expect(page.pageSize).to.equal(pageSize);
    expect(page.items.length).to.be.at.most(pageSize);
    if (page.cursor !== undefined && options.budget === undefined) expect(page.items.length).to.equal(pageSize);
    pages.push(page);
    cursor = page.cursor;
    if (pages.length > 10_000) throw new Error('too many pages');
  } while (cursor !== undefined);
  return { items: pages.flatMap((p) => p.items), pages };
}
