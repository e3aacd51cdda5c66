/** Milestone options (docs/protocol.md §3.3.1, §3.3.2): receipt (0) and protocol parameters (1). */
import {
  LIMITS,
  MILESTONE_OPTION_PROTOCOL_PARAMS,
  MILESTONE_OPTION_RECEIPT,
  type MilestoneOption,
} from '../model/index.ts';
import { fromJson } from './entry.ts';
import { migratedFundsEntryToJson, parseMigratedFundsEntry } from './migrated-funds.ts';
import type { JsonPath } from './path.ts';
import { PAYLOAD_IN_RECEIPT, PAYLOAD_TYPES } from './payload-type.ts';
import { readBoolean, readBytes, readList, readObject, readU32, readU8, required } from './read.ts';
import { parseTreasuryTransactionBody, treasuryTransactionToJson } from './treasury-transaction.ts';
import { readType, type TypeFamily } from './type.ts';
import type { MilestoneOptionJson } from './types.ts';
import { bytesToJson } from './write.ts';

export const MILESTONE_OPTION_TYPES: TypeFamily = {
  what: 'milestone option',
  names: { [MILESTONE_OPTION_RECEIPT]: 'receipt', [MILESTONE_OPTION_PROTOCOL_PARAMS]: 'protocol parameters' },
};

export function milestoneOptionToJson(m: MilestoneOption): MilestoneOptionJson {
  switch (m.type) {
    case MILESTONE_OPTION_RECEIPT:
      return {
        type: m.type,
        migratedAt: m.migratedAt,
        final: m.final,
        funds: m.funds.map(migratedFundsEntryToJson),
        transaction: treasuryTransactionToJson(m.transaction),
      };
    case MILESTONE_OPTION_PROTOCOL_PARAMS:
      return {
        type: m.type,
        targetMilestoneIndex: m.targetMilestoneIndex,
        protocolVersion: m.protocolVersion,
        params: bytesToJson(m.params),
      };
    default:
      throw new TypeError(
        `milestoneOptionToJson: unknown milestone option type ${String((m as { type: unknown }).type)}`,
      );
  }
}

export function parseMilestoneOption(v: unknown, p: JsonPath): MilestoneOption {
  const o = readObject(v, p);
  const type = readType(o, p, MILESTONE_OPTION_TYPES);
  if (type === MILESTONE_OPTION_RECEIPT) {
    const migratedAt = readU32(required(o, 'migratedAt', p), p.key('migratedAt'));
    const final = readBoolean(required(o, 'final', p), p.key('final'));
    const funds = readList(required(o, 'funds', p), p.key('funds'), LIMITS.receiptFunds.max, parseMigratedFundsEntry);
    const tp = p.key('transaction');
    const to = readObject(required(o, 'transaction', p), tp);
    readType(to, tp, PAYLOAD_TYPES, PAYLOAD_IN_RECEIPT);
    return { type, migratedAt, final, funds, transaction: parseTreasuryTransactionBody(to, tp) };
  }
  return {
    type: MILESTONE_OPTION_PROTOCOL_PARAMS,
    targetMilestoneIndex: readU32(required(o, 'targetMilestoneIndex', p), p.key('targetMilestoneIndex')),
    protocolVersion: readU8(required(o, 'protocolVersion', p), p.key('protocolVersion')),
    params: readBytes(required(o, 'params', p), p.key('params'), 0, LIMITS.protocolParamsBytes.max),
  };
}

/** Also the shape of `pendingProtocolParameters[]` in GET /info. */
export function milestoneOptionFromJson(json: unknown): MilestoneOption {
  return fromJson('milestone option', json, parseMilestoneOption);
}
