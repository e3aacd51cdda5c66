/**
 * The balance of an address at the ledger's milestone, as inx-chronicle 1.0 (`OutputCollection::get_address_balance`)
 * sums it over the unspent outputs, with T the milestone's timestamp and an output's amount less its storage deposit
 * return:
 *   - an output the address owns (owner.ts) counts in `total` unless it expired (expiration time <= T), and in
 *     `available` when it also has no timelock, or one that ended (timelock time <= T);
 *   - an output of another owner that names the address as its expiration return address counts in both once expired.
 * The address's balance record (balances.ts) holds the plain sum of what it owns: when none of those outputs has a
 * storage deposit return, expiration or timelock and no output names it for an expiration return, that sum is the
 * answer, without reading any output. Otherwise its TIP-26 index entries (indexer/tables.ts: roles and flags) name the
 * outputs whose conditions matter, and only those are read.
 */
import { LEDGER_TABLES } from '../tables.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { prefixRange } from '../../store/range.ts';
import { decodeTableKey } from '../../store/table.ts';
import { OUTPUT_ALIAS, OUTPUT_FOUNDRY } from '../../model/output.ts';
import { FLAG, INDEXER_TABLES, positionOutputId, ROLE, type IndexedOutputType } from '../indexer/tables.ts';
import { storeKey } from './keys.ts';
import { holdingOf } from './owner.ts';
import { AGGREGATE_TABLES } from './tables.ts';

export interface Balance {
  total: bigint;
  available: bigint;
}

/** The role an owner has in the TIP-26 index, by output type. */
function ownerRole(t: IndexedOutputType): number {
  return t === OUTPUT_ALIAS ? ROLE.stateController : t === OUTPUT_FOUNDRY ? ROLE.immutableAlias : ROLE.address;
}

const CONDITIONS = FLAG.storageDepositReturn | FLAG.expiration | FLAG.timelock;
const CHUNK = 500;

/** The balance of the serialized `address` at a ledger whose milestone has timestamp `at`. */
export async function addressBalance(store: NodeStore, address: Uint8Array, at: number): Promise<Balance> {
  const record = await store.get(AGGREGATE_TABLES.balances, address);
  if (record === undefined) return { total: 0n, available: 0n };
  if (record.special === 0 && record.returns === 0) return { total: record.amount, available: record.amount };
  let total = record.amount;
  let available = record.amount;
  // Outputs whose conditions matter: owned ones with conditions (their plain amount is in the record), and returns.
  let chunk: { outputId: Uint8Array; owned: boolean }[] = [];
  const read = async (): Promise<void> => {
    const records = await store.getMany(
      LEDGER_TABLES.outputs,
      chunk.map((c) => c.outputId),
    );
    chunk.forEach(({ owned }, i) => {
      const r = records[i];
      if (r === undefined) throw new Error('the TIP-26 index names an output the ledger does not hold');
      const h = holdingOf(r.output);
      const amount = h.amount - h.returnAmount;
      const expired = h.expiration !== undefined && h.expiration.unixTime <= at;
      if (owned) {
        total -= h.amount;
        available -= h.amount;
        if (!expired) total += amount;
        if (!expired && (h.timelock === undefined || h.timelock <= at)) available += amount;
      } else if (expired) {
        total += amount;
        available += amount;
      }
    });
    chunk = [];
  };
  const P = INDEXER_TABLES.byAddress.prefix;
  for await (const [key, value] of store.kv.entries(prefixRange(storeKey(P, address)))) {
    const k = decodeTableKey(INDEXER_TABLES.byAddress, key);
    const v = INDEXER_TABLES.byAddress.value.decode(value, 'indexByAddress value');
    const [roles, flags] = [v & 0xff, v >> 8];
    const owned = (roles & ownerRole(k.outputType)) !== 0;
    if (owned ? (flags & CONDITIONS) === 0 : (roles & ROLE.expirationReturn) === 0) continue;
    chunk.push({ outputId: positionOutputId(k.position), owned });
    if (chunk.length >= CHUNK) await read();
  }
  if (chunk.length > 0) await read();
  return { total, available };
}
