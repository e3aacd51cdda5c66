/**
 * What the tests of the v3 network and account reads share: an engine harness over the staked genesis (three seats,
 * seat 1 staking with a delegation to it) with 128-slot epochs, so the test slots (about 1000) lie in epoch 7, and the
 * V3Service over it.
 */
import { protocolParametersFromJsonV3, type ProtocolParametersV3 } from '../../../src/core/v3/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { V3Service } from '../../../src/node/grpc/service-v3.ts';
import type { V3NetworkService } from '../../../src/node/grpc/service-v3-network.ts';
import { DEV_PROTOCOL_PARAMETERS_V3_JSON } from '../../../src/node/v3/dev-parameters.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { GENESIS_TIME } from '../../../harness/fixtures/v3.ts';
import { stakedGenesisV3 } from '../../../harness/fixtures/v3-stake.ts';
import { EngineHarness } from './support.ts';

export const JSON_VIEW = BlockView.BLOCK_VIEW_JSON;
export const RAW_VIEW = BlockView.BLOCK_VIEW_RAW;
export const BOTH_VIEWS = BlockView.BLOCK_VIEW_UNSPECIFIED;

/** The dev parameters with 2^7 = 128 slots an epoch. */
export const EPOCH128_PARAMS: ProtocolParametersV3 = protocolParametersFromJsonV3({
  ...DEV_PROTOCOL_PARAMETERS_V3_JSON,
  genesisUnixTimestamp: String(GENESIS_TIME),
  slotsPerEpochExponent: 7,
});

export class StakedHarness extends EngineHarness {
  override readonly g: GenesisV3 = stakedGenesisV3({ params: EPOCH128_PARAMS });
}

/** The harness opened with the clock in slot `slot`, and the network RPCs of a V3Service over its engine. */
export async function stakedService(slot = 1001): Promise<{ h: StakedHarness; svc: V3NetworkService }> {
  const h = await new StakedHarness().open();
  h.at(slot);
  const svc = new V3Service(h.engine, { name: 'n', version: 'v', baseToken: {} }).network;
  return { h, svc };
}

/** The JSON of an answer. */
export const json = async (p: Promise<{ json: string }>): Promise<Record<string, unknown>> =>
  JSON.parse((await p).json) as Record<string, unknown>;
