/**
 * Ledger outputs as events: the TIP-25 output JSON (what GET /api/core/v2/outputs/{outputId} answers), the addresses
 * of its unlock conditions in bech32 with the network's HRP under their TIP-28 names, and the chain ID of alias, NFT
 * and foundry outputs (inx-mqtt's topics: docs/decisions.md §21).
 */
import { toHex0x } from '../../core/bytes.ts';
import { bech32EncodeAddress, chainIdOf, parseOutputId } from '../../core/ids/index.ts';
import { outputToJson } from '../../core/json/index.ts';
import type { ConsumedOutput, CreatedOutput } from '../../core/ledger/index.ts';
import {
  OUTPUT_ALIAS,
  OUTPUT_FOUNDRY,
  OUTPUT_NFT,
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
  unlockConditionAddress,
  type AddressNamingUnlockCondition,
  type CommonOutput,
} from '../../core/model/index.ts';
import type { OutputEvent, UnlockConditionName } from './bus.ts';

/** TIP-28's name of each kind of unlock condition that names an address. */
const CONDITION_NAMES: Readonly<Record<AddressNamingUnlockCondition['type'], UnlockConditionName>> = {
  [UC_ADDRESS]: 'address',
  [UC_STORAGE_DEPOSIT_RETURN]: 'storage-return',
  [UC_EXPIRATION]: 'expiration',
  [UC_STATE_CONTROLLER]: 'state-controller',
  [UC_GOVERNOR]: 'governor',
  [UC_IMMUTABLE_ALIAS]: 'immutable-alias',
};

/** The chain kind of each output type that has a chain ID. */
const CHAIN_KINDS: Readonly<Record<number, NonNullable<OutputEvent['chain']>['kind']>> = {
  [OUTPUT_ALIAS]: 'alias',
  [OUTPUT_NFT]: 'nft',
  [OUTPUT_FOUNDRY]: 'foundry',
};

/** The unlock conditions that name an address, in the output's order. */
export function unlockAddresses(output: CommonOutput, hrp: string): OutputEvent['unlocks'] {
  const out: OutputEvent['unlocks'] = [];
  for (const uc of output.unlockConditions) {
    if (uc.type === UC_TIMELOCK) continue; // names no address
    out.push({ condition: CONDITION_NAMES[uc.type], address: bech32EncodeAddress(hrp, unlockConditionAddress(uc)) });
  }
  return out;
}

/** The chain an alias, NFT or foundry output belongs to (a zero alias/NFT ID is the ID derived from the output ID). */
export function chainOf(outputId: Uint8Array, output: CommonOutput): OutputEvent['chain'] {
  const id = chainIdOf(outputId, output);
  const kind = CHAIN_KINDS[output.type];
  return id && kind ? { kind, id } : undefined;
}

/** TIP-25 output metadata in the key order of GET outputs/{outputId}; the spent fields only for a spent output. */
function metadataJson(o: CreatedOutput | ConsumedOutput, ledgerIndex: number): Record<string, unknown> {
  const { transactionId, index } = parseOutputId(o.outputId);
  const spent = 'spent' in o ? o.spent : undefined;
  return {
    blockId: toHex0x(o.blockId),
    transactionId: toHex0x(transactionId),
    outputIndex: index,
    isSpent: spent !== undefined,
    ...(spent !== undefined
      ? {
          milestoneIndexSpent: spent.milestoneIndexSpent,
          milestoneTimestampSpent: spent.milestoneTimestampSpent,
          transactionIdSpent: toHex0x(spent.transactionIdSpent),
        }
      : {}),
    milestoneIndexBooked: o.milestoneIndexBooked,
    milestoneTimestampBooked: o.milestoneTimestampBooked,
    ledgerIndex,
  };
}

/** The event of an output a confirmation at `ledgerIndex` booked (`created`) or spent. */
export function outputEvent(
  kind: 'created' | 'spent',
  o: CreatedOutput | ConsumedOutput,
  ledgerIndex: number,
  hrp: string,
): OutputEvent {
  const event: OutputEvent = {
    kind,
    outputId: o.outputId,
    json: JSON.stringify({ metadata: metadataJson(o, ledgerIndex), output: outputToJson(o.output) }),
    unlocks: unlockAddresses(o.output, hrp),
  };
  if (kind === 'created') {
    const chain = chainOf(o.outputId, o.output);
    if (chain) event.chain = chain;
  }
  return event;
}
