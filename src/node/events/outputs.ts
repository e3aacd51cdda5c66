/**
 * Ledger outputs as events: the TIP-25 output JSON (what GET /api/core/v2/outputs/{outputId} answers), the addresses
 * of its unlock conditions in bech32 with the network's HRP under their TIP-28 names, and the chain ID of alias, NFT
 * and foundry outputs (inx-mqtt's topics: docs/decisions.md §21).
 */
import { toHex0x } from '../../core/bytes.ts';
import {
  aliasIdFromOutputId,
  bech32EncodeAddress,
  foundryId,
  nftIdFromOutputId,
  parseOutputId,
} from '../../core/ids/index.ts';
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
  type CommonOutput,
} from '../../core/model/index.ts';
import type { OutputEvent, UnlockConditionName } from './bus.ts';

const ZERO_ID = new Uint8Array(32);

function isZero(id: Uint8Array): boolean {
  return id.length === ZERO_ID.length && id.every((b) => b === 0);
}

/** The unlock conditions that name an address, in the output's order. */
export function unlockAddresses(output: CommonOutput, hrp: string): OutputEvent['unlocks'] {
  const out: OutputEvent['unlocks'] = [];
  const add = (condition: UnlockConditionName, address: Parameters<typeof bech32EncodeAddress>[1]): void => {
    out.push({ condition, address: bech32EncodeAddress(hrp, address) });
  };
  for (const uc of output.unlockConditions) {
    switch (uc.type) {
      case UC_ADDRESS:
        add('address', uc.address);
        break;
      case UC_STORAGE_DEPOSIT_RETURN:
        add('storage-return', uc.returnAddress);
        break;
      case UC_EXPIRATION:
        add('expiration', uc.returnAddress);
        break;
      case UC_STATE_CONTROLLER:
        add('state-controller', uc.address);
        break;
      case UC_GOVERNOR:
        add('governor', uc.address);
        break;
      case UC_IMMUTABLE_ALIAS:
        add('immutable-alias', uc.address);
        break;
      default:
        break; // timelock names no address
    }
  }
  return out;
}

/** The chain an alias, NFT or foundry output belongs to (a zero alias/NFT ID is the ID derived from the output ID). */
export function chainOf(outputId: Uint8Array, output: CommonOutput): OutputEvent['chain'] {
  switch (output.type) {
    case OUTPUT_ALIAS:
      return { kind: 'alias', id: isZero(output.aliasId) ? aliasIdFromOutputId(outputId) : output.aliasId };
    case OUTPUT_NFT:
      return { kind: 'nft', id: isZero(output.nftId) ? nftIdFromOutputId(outputId) : output.nftId };
    case OUTPUT_FOUNDRY: {
      const alias = output.unlockConditions.find((uc) => uc.type === UC_IMMUTABLE_ALIAS);
      return alias
        ? { kind: 'foundry', id: foundryId(alias.address.aliasId, output.serialNumber, output.tokenScheme.type) }
        : undefined;
    }
    default:
      return undefined;
  }
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
