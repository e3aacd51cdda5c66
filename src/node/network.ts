/**
 * The network a store belongs to, kept in the store's meta table so a restart needs no genesis file:
 *   * `networkName` (NodeStore's own meta field),
 *   * `protocolParameters`: the protocol parameters in their binary form (spec §11 codec),
 *   * `networkInfo`: JSON text of what else the node serves from the genesis (base token, solid entry points, the
 *     genesis milestone),
 * plus, on creation, the latest/confirmed milestone index = the genesis milestone index and one tip per solid
 * entry point (so the first block has parents to select).
 */
import { decodeProtocolParameters, encodeProtocolParameters } from '../core/codec/index.ts';
import { networkIdFromName } from '../core/ids/index.ts';
import type { ProtocolParameters } from '../core/model/index.ts';
import { compareBytes, fromHex0x, toHex0x } from '../core/bytes.ts';
import { META, StoreError, utf8Codec, type Codec, type MetaField, type NodeStore } from '../core/store/index.ts';
import type { BaseTokenInfo, Genesis, GenesisMilestone } from './genesis.ts';

export interface NetworkState {
  protocol: ProtocolParameters;
  /** First 8 bytes (LE) of BLAKE2b-256 of the network name (DECISIONS.md). */
  networkId: bigint;
  baseToken: BaseTokenInfo;
  /** Sorted. */
  solidEntryPoints: Uint8Array[];
  genesisMilestone: GenesisMilestone;
}

const protocolCodec: Codec<ProtocolParameters> = {
  encode: encodeProtocolParameters,
  decode: (bytes) => decodeProtocolParameters(bytes),
};

export const NODE_META = Object.freeze({
  protocolParameters: Object.freeze({ name: 'protocolParameters', codec: protocolCodec }) as MetaField<ProtocolParameters>,
  networkInfo: Object.freeze({ name: 'networkInfo', codec: utf8Codec }) as MetaField<string>,
});

interface NetworkInfoJson {
  baseToken: BaseTokenInfo;
  solidEntryPoints: string[];
  genesisMilestone: { index: number; timestamp: number; milestoneId: string };
}

function stateOf(protocol: ProtocolParameters, info: NetworkInfoJson): NetworkState {
  return {
    protocol,
    networkId: networkIdFromName(protocol.networkName),
    baseToken: info.baseToken,
    solidEntryPoints: info.solidEntryPoints.map((h, i) => fromHex0x(h, `networkInfo.solidEntryPoints[${i}]`)).sort(compareBytes),
    genesisMilestone: {
      index: info.genesisMilestone.index,
      timestamp: info.genesisMilestone.timestamp,
      milestoneId: fromHex0x(info.genesisMilestone.milestoneId, 'networkInfo.genesisMilestone.milestoneId'),
    },
  };
}

/** The network recorded in the store, or undefined for a store no network was created in yet. */
export async function loadNetwork(store: NodeStore): Promise<NetworkState | undefined> {
  const protocol = await store.getMeta(NODE_META.protocolParameters);
  if (protocol === undefined) return undefined;
  const text = await store.getMeta(NODE_META.networkInfo);
  if (text === undefined) throw new StoreError('SCHEMA_MISMATCH', 'Cannot open store: it has protocol parameters but no networkInfo meta field');
  return stateOf(protocol, JSON.parse(text) as NetworkInfoJson);
}

/** Records a new network from its genesis in one atomic write; the store must not hold a network yet. */
export async function createNetwork(store: NodeStore, genesis: Genesis): Promise<NetworkState> {
  const existing = await store.getMeta(META.networkName);
  if (existing !== undefined && existing !== genesis.protocol.networkName) {
    throw new StoreError('NETWORK_MISMATCH', `Cannot create network "${genesis.protocol.networkName}": the store belongs to network "${existing}"`);
  }
  const info: NetworkInfoJson = {
    baseToken: genesis.baseToken,
    solidEntryPoints: genesis.solidEntryPoints.map(toHex0x),
    genesisMilestone: { index: genesis.milestone.index, timestamp: genesis.milestone.timestamp, milestoneId: toHex0x(genesis.milestone.milestoneId) },
  };
  const batch = store.batch();
  batch.putMeta(META.networkName, genesis.protocol.networkName);
  batch.putMeta(NODE_META.protocolParameters, genesis.protocol);
  batch.putMeta(NODE_META.networkInfo, JSON.stringify(info));
  batch.putMeta(META.latestMilestoneIndex, genesis.milestone.index);
  batch.putMeta(META.confirmedMilestoneIndex, genesis.milestone.index);
  for (const sep of genesis.solidEntryPoints) batch.addTip(sep);
  await batch.commit({ sync: true });
  return stateOf(genesis.protocol, info);
}

/** Whether `blockId` is one of the network's solid entry points. */
export function isSolidEntryPoint(network: NetworkState, blockId: Uint8Array): boolean {
  return network.solidEntryPoints.some((sep) => compareBytes(sep, blockId) === 0);
}
