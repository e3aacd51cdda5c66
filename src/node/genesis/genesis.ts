/**
 * The genesis (snapshot) a network starts from: protocol parameters, the milestone the ledger starts at, the
 * milestone keys, solid entry points, the initial outputs and treasury. This issue needs the protocol parameters,
 * the solid entry points and the base token; the rest is parsed into typed fields for the ledger issue.
 *
 * JSON keys: `protocol` (the TIP-25 info `protocol` object), `milestone` {index, timestamp, milestoneId},
 * `milestonePublicKeyCount`, `milestoneKeyRanges` [{publicKey, start, end}], `solidEntryPoints` [blockId],
 * `outputs` [...], `treasury` {milestoneId, amount}, `coordinator` (kept as given), and optionally `baseToken`
 * (the TIP-25 info `baseToken` object; the dev token when absent). A snapshot (snapshot/) adds `milestone.blockId`,
 * `protocolParametersChanges` [{targetMilestoneIndex, protocolVersion, params, announcedAt}] (pending at its milestone)
 * and `receipts` [{milestoneIndex, receipt}] (the receipt milestone option's JSON, as GET /receipts lists them).
 */
import { milestoneOptionToJson, protocolParametersToJson } from '../../core/json/index.ts';
import { parseMilestoneOption } from '../../core/json/milestone-option.ts';
import type { ProtocolParametersChange } from '../../core/ledger/index.ts';
import { parseProtocolParameters } from '../../core/json/protocol.ts';
import { JsonPath } from '../../core/json/path.ts';
import {
  optional,
  readBoolean,
  readBytes,
  readFixed,
  readList,
  readObject,
  readString,
  readU32,
  readU64,
  readU8,
  required,
  assertNoForbiddenKeys,
} from '../../core/json/read.ts';
import { bytesToJson, u64ToJson } from '../../core/json/write.ts';
import {
  LIMITS,
  MILESTONE_OPTION_RECEIPT,
  SHIMMER_PROTOCOL,
  type ProtocolParameters,
  type ReceiptMilestoneOption,
} from '../../core/model/index.ts';
import { compareBytes, toHex0x } from '../../core/bytes.ts';
import { genesisV3FromJson, genesisV3ToJson, type GenesisV3 } from '../v3/genesis-v3.ts';

export const ZERO_BLOCK_ID = new Uint8Array(32);

export interface BaseTokenInfo {
  name: string;
  tickerSymbol: string;
  unit: string;
  subunit?: string;
  decimals: number;
  useMetricPrefix: boolean;
}

export interface GenesisMilestone {
  index: number;
  /** Unix seconds. */
  timestamp: number;
  /** 32 bytes. */
  milestoneId: Uint8Array;
  /** The block that carried it (a snapshot names it; a genesis has none). */
  blockId?: Uint8Array;
}

export interface MilestoneKeyRangeInfo {
  /** Ed25519 public key, 32 bytes. */
  publicKey: Uint8Array;
  start: number;
  /** 0 = open-ended. */
  end: number;
}

export interface Genesis {
  protocol: ProtocolParameters;
  milestone: GenesisMilestone;
  milestonePublicKeyCount: number;
  milestoneKeyRanges: MilestoneKeyRangeInfo[];
  /** Block IDs that count as solid without being stored; sorted, unique, at least one. */
  solidEntryPoints: Uint8Array[];
  /** The initial outputs, as given (their shape is the ledger issue's to check). */
  outputs: unknown[];
  treasury?: { milestoneId: Uint8Array; amount: bigint };
  /** Coordinator settings, as given (read by genesis-ledger.ts). */
  coordinator?: unknown;
  /** A funded dev wallet, as given (dev networks only). */
  devWallet?: unknown;
  baseToken: BaseTokenInfo;
  /** The IOTA 2.0 part (v3/genesis-v3.ts): parameters, committee accounts, outputs. Absent = no v3. */
  v3?: GenesisV3;
  /** A snapshot's announced protocol parameter changes not in force at its milestone yet. */
  protocolParametersChanges?: ProtocolParametersChange[];
  /** A snapshot's receipts (the milestone that carried each). */
  receipts?: { milestoneIndex: number; receipt: ReceiptMilestoneOption }[];
}

/** The dev network's token: Shimmer-like denominations under a name that cannot be mistaken for a real network. */
export const DEV_BASE_TOKEN: BaseTokenInfo = {
  name: 'Ledger Dev Token',
  tickerSymbol: 'LDT',
  unit: 'LDT',
  subunit: 'glow',
  decimals: 6,
  useMetricPrefix: false,
};

export const DEV_NETWORK_NAME = 'ledger-dev';

/**
 * A fresh dev network: Shimmer's parameters (version 2, rent structure, supply, below-max-depth 15) under the
 * name `ledger-dev` and the testnet HRP `rms`, the given min PoW score, milestone index 0 and the all-zero block ID as
 * the one solid entry point (so the first submitted block has a parent to select).
 */
export function devGenesis(options: { minPowScore: number; timestamp?: number }): Genesis {
  return {
    protocol: {
      ...SHIMMER_PROTOCOL,
      networkName: DEV_NETWORK_NAME,
      bech32Hrp: 'rms',
      minPowScore: options.minPowScore,
      rentStructure: { ...SHIMMER_PROTOCOL.rentStructure },
    },
    milestone: {
      index: 0,
      timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
      milestoneId: new Uint8Array(32),
    },
    milestonePublicKeyCount: 0,
    milestoneKeyRanges: [],
    solidEntryPoints: [ZERO_BLOCK_ID.slice()],
    outputs: [],
    baseToken: { ...DEV_BASE_TOKEN },
  };
}

const KNOWN_KEYS = [
  'protocol',
  'milestone',
  'milestonePublicKeyCount',
  'milestoneKeyRanges',
  'solidEntryPoints',
  'outputs',
  'treasury',
  'coordinator',
  'devWallet',
  'baseToken',
  'v3',
  'protocolParametersChanges',
  'receipts',
];

function parseBaseToken(v: unknown, p: JsonPath): BaseTokenInfo {
  const o = readObject(v, p);
  const str = (key: string): string => readString(required(o, key, p), p.key(key));
  const t: BaseTokenInfo = {
    name: str('name'),
    tickerSymbol: str('tickerSymbol'),
    unit: str('unit'),
    decimals: readU8(required(o, 'decimals', p), p.key('decimals')),
    useMetricPrefix: readBoolean(required(o, 'useMetricPrefix', p), p.key('useMetricPrefix')),
  };
  const subunit = optional(o, 'subunit');
  if (subunit !== undefined) t.subunit = readString(subunit, p.key('subunit'));
  return t;
}

function parseMilestone(v: unknown, p: JsonPath): GenesisMilestone {
  const o = readObject(v, p);
  const m: GenesisMilestone = {
    index: readU32(required(o, 'index', p), p.key('index')),
    timestamp: readU32(required(o, 'timestamp', p), p.key('timestamp')),
    milestoneId: readFixed(required(o, 'milestoneId', p), p.key('milestoneId'), 32),
  };
  if (optional(o, 'blockId') !== undefined) m.blockId = readFixed(o['blockId'], p.key('blockId'), 32);
  return m;
}

function parseChange(v: unknown, p: JsonPath): ProtocolParametersChange {
  const o = readObject(v, p);
  return {
    targetMilestoneIndex: readU32(required(o, 'targetMilestoneIndex', p), p.key('targetMilestoneIndex')),
    protocolVersion: readU8(required(o, 'protocolVersion', p), p.key('protocolVersion')),
    params: readBytes(required(o, 'params', p), p.key('params'), 0, LIMITS.protocolParamsBytes.max),
    announcedAt: readU32(required(o, 'announcedAt', p), p.key('announcedAt')),
  };
}

function parseReceipt(v: unknown, p: JsonPath): { milestoneIndex: number; receipt: ReceiptMilestoneOption } {
  const o = readObject(v, p);
  const receipt = parseMilestoneOption(required(o, 'receipt', p), p.key('receipt'));
  if (receipt.type !== MILESTONE_OPTION_RECEIPT)
    return p
      .key('receipt.type')
      .fail('TYPE_NOT_ALLOWED', `expected a receipt (type ${MILESTONE_OPTION_RECEIPT})`, receipt.type);
  return { milestoneIndex: readU32(required(o, 'milestoneIndex', p), p.key('milestoneIndex')), receipt };
}

function parseKeyRange(v: unknown, p: JsonPath): MilestoneKeyRangeInfo {
  const o = readObject(v, p);
  const r = {
    publicKey: readFixed(required(o, 'publicKey', p), p.key('publicKey'), 32),
    start: readU32(required(o, 'start', p), p.key('start')),
    end: readU32(required(o, 'end', p), p.key('end')),
  };
  if (r.end !== 0 && r.end < r.start) p.fail('VALUE_OUT_OF_RANGE', `end ${r.end} is before start ${r.start}`, r.end);
  return r;
}

/**
 * Parses and checks a genesis JSON value; errors are ProtocolErrors naming the JSON path ("invalid genesis JSON at
 * ...").
 */
export function genesisFromJson(json: unknown): Genesis {
  const p = new JsonPath('genesis');
  assertNoForbiddenKeys(json, p);
  const o = readObject(json, p);
  for (const key of Object.keys(o))
    if (!KNOWN_KEYS.includes(key)) p.key(key).fail('INVALID_FIELD', `unknown key (known: ${KNOWN_KEYS.join(', ')})`);
  const protocol = parseProtocolParameters(required(o, 'protocol', p), p.key('protocol'));
  if (protocol.version !== 2)
    p.key('protocol.version').fail(
      'VALUE_OUT_OF_RANGE',
      `protocol version ${protocol.version} is not supported (this node speaks 2)`,
      protocol.version,
    );
  const seps = readList(required(o, 'solidEntryPoints', p), p.key('solidEntryPoints'), 1_000_000, (e, ep) =>
    readFixed(e, ep, 32),
  );
  if (seps.length === 0)
    p.key('solidEntryPoints').fail('COUNT_OUT_OF_RANGE', 'at least one solid entry point is needed', seps.length);
  const sorted = seps.slice().sort(compareBytes);
  for (let i = 1; i < sorted.length; i++) {
    if (compareBytes(sorted[i - 1]!, sorted[i]!) === 0)
      p.key('solidEntryPoints').fail(
        'DUPLICATE',
        `duplicate solid entry point ${toHex0x(sorted[i]!)}`,
        toHex0x(sorted[i]!),
      );
  }
  const ranges = readList(optional(o, 'milestoneKeyRanges') ?? [], p.key('milestoneKeyRanges'), 10_000, parseKeyRange);
  const keyCount = readU8(optional(o, 'milestonePublicKeyCount') ?? 0, p.key('milestonePublicKeyCount'));
  const distinctKeys = new Set(ranges.map((r) => toHex0x(r.publicKey))).size;
  if (keyCount > distinctKeys) {
    p.key('milestonePublicKeyCount').fail(
      'VALUE_OUT_OF_RANGE',
      `threshold ${keyCount} exceeds the ${distinctKeys} distinct keys of milestoneKeyRanges`,
      keyCount,
    );
  }
  const outputs: unknown = optional(o, 'outputs') ?? [];
  if (!Array.isArray(outputs)) return p.key('outputs').expected('an array', outputs);
  const g: Genesis = {
    protocol,
    milestone:
      optional(o, 'milestone') === undefined
        ? { index: 0, timestamp: 0, milestoneId: new Uint8Array(32) }
        : parseMilestone(o['milestone'], p.key('milestone')),
    milestonePublicKeyCount: keyCount,
    milestoneKeyRanges: ranges,
    solidEntryPoints: sorted,
    outputs,
    baseToken:
      optional(o, 'baseToken') === undefined
        ? { ...DEV_BASE_TOKEN }
        : parseBaseToken(o['baseToken'], p.key('baseToken')),
  };
  const treasury = optional(o, 'treasury');
  if (treasury !== undefined) {
    const tp = p.key('treasury');
    const t = readObject(treasury, tp);
    g.treasury = {
      milestoneId: readFixed(required(t, 'milestoneId', tp), tp.key('milestoneId'), 32),
      amount: readU64(required(t, 'amount', tp), tp.key('amount')),
    };
  }
  const coordinator = optional(o, 'coordinator');
  if (coordinator !== undefined) g.coordinator = coordinator;
  const devWallet = optional(o, 'devWallet');
  if (devWallet !== undefined) g.devWallet = devWallet;
  if (optional(o, 'v3') !== undefined) g.v3 = genesisV3FromJson(o['v3'], p.key('v3'));
  if (optional(o, 'protocolParametersChanges') !== undefined)
    g.protocolParametersChanges = readList(
      o['protocolParametersChanges'],
      p.key('protocolParametersChanges'),
      1000,
      parseChange,
    );
  if (optional(o, 'receipts') !== undefined)
    g.receipts = readList(o['receipts'], p.key('receipts'), 1_000_000, parseReceipt);
  return g;
}

/** The genesis as JSON (the format genesisFromJson reads), e.g. for `<data-dir>/genesis.json`. */
export function genesisToJson(g: Genesis): Record<string, unknown> {
  const out: Record<string, unknown> = {
    protocol: protocolParametersToJson(g.protocol),
    milestone: {
      index: g.milestone.index,
      timestamp: g.milestone.timestamp,
      milestoneId: bytesToJson(g.milestone.milestoneId),
      ...(g.milestone.blockId ? { blockId: bytesToJson(g.milestone.blockId) } : {}),
    },
    milestonePublicKeyCount: g.milestonePublicKeyCount,
    milestoneKeyRanges: g.milestoneKeyRanges.map((r) => ({
      publicKey: bytesToJson(r.publicKey),
      start: r.start,
      end: r.end,
    })),
    solidEntryPoints: g.solidEntryPoints.map(bytesToJson),
    outputs: g.outputs,
  };
  if (g.treasury)
    out['treasury'] = { milestoneId: bytesToJson(g.treasury.milestoneId), amount: u64ToJson(g.treasury.amount) };
  if (g.coordinator !== undefined) out['coordinator'] = g.coordinator;
  if (g.devWallet !== undefined) out['devWallet'] = g.devWallet;
  if (g.v3 !== undefined) out['v3'] = genesisV3ToJson(g.v3);
  if (g.protocolParametersChanges !== undefined) {
    out['protocolParametersChanges'] = g.protocolParametersChanges.map((c) => ({
      targetMilestoneIndex: c.targetMilestoneIndex,
      protocolVersion: c.protocolVersion,
      params: bytesToJson(c.params),
      announcedAt: c.announcedAt,
    }));
  }
  if (g.receipts !== undefined)
    out['receipts'] = g.receipts.map((r) => ({
      milestoneIndex: r.milestoneIndex,
      receipt: milestoneOptionToJson(r.receipt),
    }));
  out['baseToken'] = { ...g.baseToken };
  return out;
}
