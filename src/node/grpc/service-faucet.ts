/**
 * The faucet RPCs of the NodeService (service.ts delegates here): FaucetInfo and FaucetEnqueue over the dev network's
 * faucet (src/node/faucet). A node without a faucet (no dev wallet in its network's genesis) answers UNAVAILABLE.
 */
import type { FaucetEnqueueRequest, FaucetEnqueueResponse, FaucetInfoResponse } from '../../grpc/gen/node.ts';
import { NodeError } from '../support/errors.ts';
import type { Faucet } from '../faucet/faucet.ts';

export const FAUCET_OFF_MESSAGE =
  'the faucet is off: it pays from the dev wallet of a dev ' +
  'network, and this node has none (no devWallet in the genesis)';

export class FaucetService {
  constructor(private readonly faucet: Faucet | undefined) {}

  async info(): Promise<FaucetInfoResponse> {
    const info = await this.on().info();
    return {
      isHealthy: info.isHealthy,
      address: info.address,
      balance: info.balance,
      tokenName: info.tokenName,
      bech32Hrp: info.bech32Hrp,
    };
  }

  async enqueue(req: FaucetEnqueueRequest): Promise<FaucetEnqueueResponse> {
    const faucet = this.on();
    const answer = await faucet.enqueue(req.address, req.client);
    return { address: answer.address, waitingRequests: answer.waitingRequests };
  }

  private on(): Faucet {
    if (this.faucet === undefined) throw new NodeError('UNAVAILABLE', FAUCET_OFF_MESSAGE);
    return this.faucet;
  }
}
