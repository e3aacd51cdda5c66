/**
 * The network a store belongs to: what never changes for the life of a network, kept in the store's meta table so a
 * restart needs no genesis file:
 *   * `networkName` (NodeStore's own meta field) and the network ID derived from it,
 *   * `networkInfo`: JSON text of the base token and the genesis milestone.
 * What can change with the ledger (the protocol parameters in force, announced changes, the solid entry points) is
 * the ledger's: it lives in the ledger's meta fields (core LEDGER_META) and is read through ProtocolState
 * (ledger/protocol-state.ts). On creation the genesis parameters and solid entry points go there, the
 * latest/confirmed milestone index is the genesis milestone index, and each solid entry point is a tip (so the
 * first block has parents to select).
 */
import { networkIdFromName } from '../../core/ids/index.ts';
import { LEDGER_META } from '../../core/ledger/index.ts';
import { compareBytes, fromHex0x, toHex0x } from '../../core/bytes.ts';
import { decodeProtocolParameters, encodeProtocolParameters } from '../../core/codec/index.ts';
import type { ProtocolParameters } from '../../core/model/index.ts';
import { META, StoreError, utf8Codec, type Codec, type MetaField, type NodeStore } from '../../core/store/index.ts';
import type { BaseTokenInfo, Genesis, GenesisMilestone } from './genesis.ts';

export interface NetworkState {
  networkName: string;
  /** First 8 bytes (LE) of BLAKE2b-256 of the network name (docs/decisions.md). */
  networkId: bigint;
  baseToken: BaseTokenInfo;
  genesisMilestone: GenesisMilestone;
}

const networkInfoField: MetaField<string> = Object.freeze({ name: 'networkInfo', codec: utf8Codec });

/**
 * Stores written before the protocol parameters moved to the ledger's meta kept them here (and the solid entry
 * points in networkInfo); `loadNetwork` moves them over once.
 */
const legacyProtocolField: MetaField<ProtocolParameters> = Object.freeze({
  name: 'protocolParameters',
  codec: {
    encode: encodeProtocolParameters,
    decode: (bytes) => decodeProtocolParameters(bytes),
  } satisfies Codec<ProtocolParameters>,
});

interface NetworkInfoJson {
  baseToken: BaseTokenInfo;
  genesisMilestone: { index: number; timestamp: number; milestoneId: string };
  /** Only in stores of the earlier layout. */
  solidEntryPoints?: string[];
}

function stateOf(networkName: string, info: NetworkInfoJson): NetworkState {
  return {
    networkName,
    networkId: networkIdFromName(networkName),
    baseToken: info.baseToken,
    genesisMilestone: {
      index: info.genesisMilestone.index,
      timestamp: info.genesisMilestone.timestamp,
      milestoneId: fromHex0x(info.genesisMilestone.milestoneId, 'networkInfo.genesisMilestone.milestoneId'),
    },
  };
}

/** The network recorded in the store, or undefined for a store no network was created in yet. */
export async function loadNetwork(store: NodeStore): Promise<NetworkState | undefined> {
  const text = await store.getMeta(networkInfoField);
  if (text === undefined) {
    if ((await store.getMeta(legacyProtocolField)) !== undefined)
      throw new StoreError(
        'SCHEMA_MISMATCH',
        'Cannot open store: it has protocol parameters but no networkInfo meta field',
      );
    return undefined;
  }
  const info = JSON.parse(text) as NetworkInfoJson;
  const name = await store.getMeta(META.networkName);
  if (name === undefined)
    throw new StoreError('SCHEMA_MISMATCH', 'Cannot open store: it has a networkInfo meta field but no network name');
  if ((await store.getMeta(LEDGER_META.protocolParameters)) === undefined) await migrateLegacyLayout(store, info);
  return stateOf(name, info);
}

async function migrateLegacyLayout(store: NodeStore, info: NetworkInfoJson): Promise<void> {
  const protocol = await store.getMeta(legacyProtocolField);
  if (protocol === undefined)
    throw new StoreError('SCHEMA_MISMATCH', 'Cannot open store: it has a network but no protocol parameters');
  const seps = (info.solidEntryPoints ?? [])
    .map((h, i) => fromHex0x(h, `networkInfo.solidEntryPoints[${i}]`))
    .sort(compareBytes);
  await store
    .batch()
    .putMeta(LEDGER_META.protocolParameters, protocol)
    .putMeta(LEDGER_META.protocolParametersChanges, [])
    .putMeta(LEDGER_META.solidEntryPoints, seps)
    .commit({ sync: true });
}

/** Records a new network from its genesis in one atomic write; the store must not hold a network yet. */
export async function createNetwork(store: NodeStore, genesis: Genesis): Promise<NetworkState> {
  const existing = await store.getMeta(META.networkName);
  if (existing !== undefined && existing !== genesis.protocol.networkName) {
    throw new StoreError(
      'NETWORK_MISMATCH',
      `Cannot create network "${genesis.protocol.networkName}": the store belongs to network "${existing}"`,
    );
  }
  const info: NetworkInfoJson = {
    baseToken: genesis.baseToken,
    genesisMilestone: {
      index: genesis.milestone.index,
      timestamp: genesis.milestone.timestamp,
      milestoneId: toHex0x(genesis.milestone.milestoneId),
    },
  };
  const batch = store.batch();
  batch.putMeta(META.networkName, genesis.protocol.networkName);
  batch.putMeta(networkInfoField, JSON.stringify(info));
  // A network with a ledger got these from initLedger already (the same values); one without gets them here.
  if ((await store.getMeta(LEDGER_META.protocolParameters)) === undefined) {
    batch.putMeta(LEDGER_META.protocolParameters, genesis.protocol);
    batch.putMeta(LEDGER_META.protocolParametersChanges, []);
    batch.putMeta(LEDGER_META.solidEntryPoints, [...genesis.solidEntryPoints].sort(compareBytes));
  }
  batch.putMeta(META.latestMilestoneIndex, genesis.milestone.index);
  batch.putMeta(META.confirmedMilestoneIndex, genesis.milestone.index);
  for (const sep of genesis.solidEntryPoints) batch.addTip(sep);
  await batch.commit({ sync: true });
  return stateOf(genesis.protocol.networkName, info);
}
