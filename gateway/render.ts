/**
 * The gateway's TIP-25 JSON bodies of the answers that are not blocks (metadata, info, tips, submit), rendered from the
 * gRPC messages. Blocks travel as node-rendered JSON text (see node.proto); these answers are flat records, so the
 * gateway renders them from the messages with these helpers. No src/core import: the gateway may use this file.
 * Key order follows what Hornet emits (docs/protocol.md §18); u64 values are decimal strings, bytes `0x` hex.
 */
import {
  LedgerInclusionState,
  type BlockMetadata,
  type InfoResponse,
  type StorageStatus,
  type MilestoneInfo,
  type SubmitBlockResponse,
  type TipsResponse,
} from '../src/grpc/gen/node.ts';
import type { ProtocolParamsMilestoneOption } from '../src/grpc/gen/stardust.ts';
import { hex0x } from './ids.ts';

export const LEDGER_INCLUSION_STATE_NAMES: Record<LedgerInclusionState, string | undefined> = {
  [LedgerInclusionState.LEDGER_INCLUSION_STATE_UNSPECIFIED]: undefined,
  [LedgerInclusionState.LEDGER_INCLUSION_STATE_NO_TRANSACTION]: 'noTransaction',
  [LedgerInclusionState.LEDGER_INCLUSION_STATE_INCLUDED]: 'included',
  [LedgerInclusionState.LEDGER_INCLUSION_STATE_CONFLICTING]: 'conflicting',
  [LedgerInclusionState.UNRECOGNIZED]: undefined,
};

type Json = Record<string, unknown>;

function put(out: Json, key: string, value: unknown): void {
  if (value !== undefined) out[key] = value;
}

/**
 * GET blocks/{id}/metadata and transactions/{id}/included-block/metadata. Absent optionals stay absent. The event API's
 * block-metadata payload is the same object with the parents under `parentBlockIds` (inx-mqtt's name).
 */
export function blockMetadataToJson(md: BlockMetadata, parentsKey: 'parents' | 'parentBlockIds' = 'parents'): Json {
  const out: Json = { blockId: hex0x(md.blockId), [parentsKey]: md.parents.map(hex0x), isSolid: md.isSolid };
  put(out, 'referencedByMilestoneIndex', md.referencedByMilestoneIndex);
  put(out, 'milestoneIndex', md.milestoneIndex);
  put(out, 'ledgerInclusionState', LEDGER_INCLUSION_STATE_NAMES[md.ledgerInclusionState]);
  put(out, 'conflictReason', md.conflictReason);
  put(out, 'shouldPromote', md.shouldPromote);
  put(out, 'shouldReattach', md.shouldReattach);
  put(out, 'whiteFlagIndex', md.whiteFlagIndex);
  return out;
}

function milestoneInfoToJson(mi: MilestoneInfo | undefined): Json {
  const out: Json = { index: mi?.index ?? 0 };
  put(out, 'timestamp', mi?.timestamp);
  put(out, 'milestoneId', mi?.milestoneId === undefined ? undefined : hex0x(mi.milestoneId));
  return out;
}

function protocolParamsOptionToJson(o: ProtocolParamsMilestoneOption): Json {
  return {
    type: 1,
    targetMilestoneIndex: o.targetMilestoneIndex,
    protocolVersion: o.protocolVersion,
    params: hex0x(o.params),
  };
}

/** GET info: every TIP-25 InfoResponse field (missing sub-messages render as their zero values). */
export function infoToJson(info: InfoResponse): Json {
  const p = info.protocol;
  const r = p?.rentStructure;
  const t = info.baseToken;
  const baseToken: Json = { name: t?.name ?? '', tickerSymbol: t?.tickerSymbol ?? '', unit: t?.unit ?? '' };
  put(baseToken, 'subunit', t?.subunit);
  baseToken.decimals = t?.decimals ?? 0;
  baseToken.useMetricPrefix = t?.useMetricPrefix ?? false;
  return {
    name: info.name,
    version: info.version,
    status: {
      isHealthy: info.status?.isHealthy ?? false,
      latestMilestone: milestoneInfoToJson(info.status?.latestMilestone),
      confirmedMilestone: milestoneInfoToJson(info.status?.confirmedMilestone),
      pruningIndex: info.status?.pruningIndex ?? 0,
      // Not in TIP-25: why the node is not healthy; present only then (clients ignore fields they do not know).
      ...(info.status?.healthReasons.length ? { healthReasons: info.status.healthReasons } : {}),
    },
    supportedProtocolVersions: info.supportedProtocolVersions,
    protocol: {
      version: p?.version ?? 0,
      networkName: p?.networkName ?? '',
      bech32Hrp: p?.bech32Hrp ?? '',
      minPowScore: p?.minPowScore ?? 0,
      belowMaxDepth: p?.belowMaxDepth ?? 0,
      rentStructure: {
        vByteCost: r?.vByteCost ?? 0,
        vByteFactorData: r?.vByteFactorData ?? 0,
        vByteFactorKey: r?.vByteFactorKey ?? 0,
      },
      tokenSupply: (p?.tokenSupply ?? 0n).toString(),
    },
    pendingProtocolParameters: info.pendingProtocolParameters.map(protocolParamsOptionToJson),
    baseToken,
    metrics: {
      blocksPerSecond: info.metrics?.blocksPerSecond ?? 0,
      referencedBlocksPerSecond: info.metrics?.referencedBlocksPerSecond ?? 0,
      referencedRate: info.metrics?.referencedRate ?? 0,
    },
    features: info.features,
    // Beyond Hornet's /info (docs/decisions.md §29): the node's peer identity,
    // as `--peer 0xPUBKEY@HOST:PORT` names it.
    ...(info.identity
      ? {
          identity: {
            publicKey: hex0x(info.identity.publicKey),
            nodeId: Buffer.from(info.identity.nodeId).toString('hex'),
          },
        }
      : {}),
    // Beyond Hornet's /info (docs/decisions.md §43): what runs out first; sizes as decimal strings (u64).
    ...(info.storage ? { storage: storageToJson(info.storage) } : {}),
  };
}

function storageToJson(s: StorageStatus): Json {
  const out: Json = {
    databaseSizeBytes: s.databaseSizeBytes.toString(),
    diskFreeBytes: s.diskFreeBytes.toString(),
    diskSizeBytes: s.diskSizeBytes.toString(),
  };
  put(out, 'growthBytesPerHour', s.growthBytesPerHour?.toString());
  put(out, 'secondsUntilFull', s.secondsUntilFull === undefined ? undefined : Number(s.secondsUntilFull));
  put(out, 'pruningIndexTimestamp', s.pruningIndexTimestamp);
  return out;
}

/** GET tips. */
export function tipsToJson(tips: TipsResponse): Json {
  return { tips: tips.tips.map(hex0x) };
}

/** POST blocks (201 body; the Location header carries the same hex). */
export function submitBlockToJson(res: SubmitBlockResponse): Json {
  return { blockId: hex0x(res.blockId) };
}
