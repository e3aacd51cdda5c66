/**
 * The v3 network and account RPCs of the NodeService (committee, validators, a validator, an account's congestion, an
 * output's Mana rewards, the network metrics) over v3/reads-network.ts; service.ts delegates here through the
 * V3Service's `network`. Each answers TIP-48 JSON or, for the RAW view, the serix bytes of v3/network-answers.ts.
 * Account addresses arrive as the client's bech32 text: this side reads them against the network's HRP.
 */
import type {
  GetAccountCongestionV3Request,
  GetCommitteeV3Request,
  GetNetworkMetricsV3Request,
  GetOutputManaRewardsV3Request,
  GetValidatorsV3Request,
  GetValidatorV3Request,
  RawOrJsonV3Response,
} from '../../grpc/gen/node.ts';
import { accountIdFromBech32V3 } from '../../core/v3/ids/account-address.ts';
import { NodeError } from '../support/errors.ts';
import type { V3Engine } from '../v3/engine.ts';
import {
  committeeBytesV3,
  committeeJsonV3,
  congestionBytesV3,
  congestionJsonV3,
  manaRewardsBytesV3,
  manaRewardsJsonV3,
  networkMetricsBytesV3,
  networkMetricsJsonV3,
  validatorBytesV3,
  validatorJsonV3,
  validatorsBytesV3,
  validatorsJsonV3,
} from '../v3/network-answers.ts';
import { V3NetworkReads } from '../v3/reads-network.ts';
import { rawAndJson, requireId, V3_ID_LENGTH } from './answers.ts';

/** v3 output IDs: transaction ID (36 bytes) + output index (u16 LE). */
const V3_OUTPUT_ID_LENGTH = 38;

export class V3NetworkService {
  readonly reads: V3NetworkReads;

  constructor(private readonly engine: V3Engine) {
    this.reads = new V3NetworkReads(engine);
  }

  private get hrp(): string {
    return this.engine.params.bech32Hrp;
  }

  /** The account ID of a bech32 account address of this network (INVALID_ARGUMENT otherwise). */
  private accountId(address: string): Uint8Array {
    if (address === '') throw new NodeError('INVALID_REQUEST', 'a bech32 account address is required');
    return accountIdFromBech32V3(address, this.hrp);
  }

  async getCommittee(req: GetCommitteeV3Request): Promise<RawOrJsonV3Response> {
    const c = await this.reads.committee(req.epoch);
    return rawAndJson(req.view, 'v3 committee answers', {
      raw: () => committeeBytesV3(c, this.hrp),
      json: () => JSON.stringify(committeeJsonV3(c, this.hrp)),
    });
  }

  async getValidators(req: GetValidatorsV3Request): Promise<RawOrJsonV3Response> {
    const page = await this.reads.validators(req.pageSize, req.cursor);
    return rawAndJson(req.view, 'v3 validators answers', {
      raw: () => validatorsBytesV3(page, this.hrp),
      json: () => JSON.stringify(validatorsJsonV3(page, this.hrp)),
    });
  }

  async getValidator(req: GetValidatorV3Request): Promise<RawOrJsonV3Response> {
    const v = await this.reads.validator(this.accountId(req.bech32Address));
    return rawAndJson(req.view, 'v3 validator answers', {
      raw: () => validatorBytesV3(v, this.hrp),
      json: () => JSON.stringify(validatorJsonV3(v, this.hrp)),
    });
  }

  async getAccountCongestion(req: GetAccountCongestionV3Request): Promise<RawOrJsonV3Response> {
    const accountId = this.accountId(req.bech32Address);
    const commitmentId =
      req.commitmentId.length === 0 ? undefined : requireId(req.commitmentId, V3_ID_LENGTH, 'commitment ID');
    const c = await this.reads.congestion(accountId, commitmentId);
    return rawAndJson(req.view, 'v3 congestion answers', {
      raw: () => congestionBytesV3(c),
      json: () => JSON.stringify(congestionJsonV3(c)),
    });
  }

  async getOutputManaRewards(req: GetOutputManaRewardsV3Request): Promise<RawOrJsonV3Response> {
    const outputId = requireId(req.outputId, V3_OUTPUT_ID_LENGTH, 'output ID');
    const r = await this.reads.rewards(outputId, req.slot);
    return rawAndJson(req.view, 'v3 rewards answers', {
      raw: () => manaRewardsBytesV3(r),
      json: () => JSON.stringify(manaRewardsJsonV3(r)),
    });
  }

  async getNetworkMetrics(req: GetNetworkMetricsV3Request): Promise<RawOrJsonV3Response> {
    const m = await this.reads.metrics();
    return rawAndJson(req.view, 'v3 network metrics', {
      raw: () => networkMetricsBytesV3(m),
      json: () => JSON.stringify(networkMetricsJsonV3(m)),
    });
  }
}
