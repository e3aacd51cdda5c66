/**
 * What an address holds, as inx-faucet asks the indexer: its basic outputs without expiration, timelock or storage
 * deposit return (TIP-26
 * `/outputs/basic?address=...&hasExpiration=false&hasTimelock=false&hasStorageDepositReturn=false`), read from the
 * node's own output index and ledger. The whole read runs in the attacher's exclusive queue, so no milestone commits in
 * the middle: the list and the outputs are of one ledger index.
 */
import { fromHex0x } from '../../core/bytes.ts';
import { bech32EncodeAddress } from '../../core/ids/index.ts';
import { LEDGER_TABLES, LedgerState, queryOutputs } from '../../core/ledger/index.ts';
import type { Address, BasicOutput } from '../../core/model/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import type { FaucetInput } from './transaction.ts';

type Exclusive = <T>(fn: () => Promise<T>) => Promise<T>;

/** The filters of inx-faucet's query (components/faucet/component.go, collectOutputs). */
const UNCONDITIONED = { hasExpiration: 'false', hasTimelock: 'false', hasStorageDepositReturn: 'false' } as const;

export interface AddressFunds {
  /** Every listed basic output (inx-faucet's balance of an address sums them all). */
  outputs: FaucetInput[];
  balance: bigint;
  /**
   * The outputs a transaction can spend without more than one signature: no native tokens, the address condition alone.
   */
  spendable: FaucetInput[];
  spendableBalance: bigint;
}

export class FaucetLedger {
  private readonly ledger: LedgerState;

  constructor(
    private readonly store: NodeStore,
    private readonly exclusive: Exclusive,
    private readonly hrp: () => string,
  ) {
    this.ledger = new LedgerState(store);
  }

  /** The basic outputs of `address` in one snapshot of the ledger (all pages of the index). */
  funds(address: Address): Promise<AddressFunds> {
    return this.exclusive(async () => {
      const hrp = this.hrp();
      const ledgerIndex = (await this.ledger.ledgerIndex()) ?? 0;
      const params: Record<string, string> = { address: bech32EncodeAddress(hrp, address), ...UNCONDITIONED };
      const ids: Uint8Array[] = [];
      for (let cursor: string | undefined; ; ) {
        const page = await queryOutputs(
          this.store,
          'basic',
          cursor === undefined ? params : { ...params, cursor },
          ledgerIndex,
          hrp,
        );
        ids.push(...page.items.map((id) => fromHex0x(id, 'outputId')));
        if (page.cursor === undefined) break;
        cursor = page.cursor;
      }
      const records = await this.store.getMany(LEDGER_TABLES.outputs, ids);
      const funds: AddressFunds = { outputs: [], balance: 0n, spendable: [], spendableBalance: 0n };
      records.forEach((r, i) => {
        if (r === undefined || r.output.type !== 3) return;
        const input = { outputId: ids[i]!, output: r.output as BasicOutput };
        funds.outputs.push(input);
        funds.balance += r.output.amount;
        if (r.output.nativeTokens.length === 0 && r.output.unlockConditions.length === 1) {
          funds.spendable.push(input);
          funds.spendableBalance += r.output.amount;
        }
      });
      return funds;
    });
  }
}
