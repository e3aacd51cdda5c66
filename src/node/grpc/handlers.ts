/**
 * Puts NodeServiceImpl on the wire: each unary handler awaits the method and answers through the callback.
 * Every rejection crosses the wire through `toServiceError` (status code + ErrorInfo details trailer).
 * Anything that is not a NodeError / ProtocolError is unexpected: its stack is logged and the call answers
 * INTERNAL; nothing escapes to crash the process. SubmitBlock aborts its PoW job when the call is cancelled.
 */
import type { handleUnaryCall, ServerUnaryCall, sendUnaryData } from '@grpc/grpc-js';
import type { NodeServiceServer } from '../../grpc/gen/node.ts';
import { NodeError } from '../errors.ts';
import { toServiceError } from './errors.ts';
import type { Logger } from '../logger.ts';
import type { NodeServiceImpl } from './service.ts';

function isExpected(e: unknown): boolean {
  return e instanceof NodeError || (e instanceof Error && e.name === 'ProtocolError');
}

function unary<Req, Res>(name: string, logger: Logger, run: (req: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => {
    let p: Promise<Res>;
    try {
      p = run(call.request, call);
    } catch (e) {
      p = Promise.reject(e);
    }
    p.then(
      (res) => callback(null, res),
      (e: unknown) => {
        if (!isExpected(e)) {
          logger.error(`${name} failed unexpectedly`, e);
          const text = e instanceof Error ? e.message : String(e);
          callback(toServiceError(new NodeError('INTERNAL', `${name} failed: ${text}`)));
          return;
        }
        callback(toServiceError(e));
      },
    );
  };
}

export function nodeServiceHandlers(service: NodeServiceImpl, logger: Logger): NodeServiceServer {
  return {
    getBlock: unary('GetBlock', logger, (req) => service.getBlock(req)),
    getBlockMetadata: unary('GetBlockMetadata', logger, (req) => service.getBlockMetadata(req)),
    submitBlock: unary('SubmitBlock', logger, (req, call) => {
      const cancelled = new AbortController();
      call.once('cancelled', () => cancelled.abort(new Error('the client cancelled the call')));
      return service.submitBlock(req, cancelled.signal);
    }),
    getIncludedBlock: unary('GetIncludedBlock', logger, (req) => service.getIncludedBlock(req)),
    getIncludedBlockMetadata: unary('GetIncludedBlockMetadata', logger, (req) => service.getIncludedBlockMetadata(req)),
    getIncludedBlockV3: unary('GetIncludedBlockV3', logger, (req) => service.getIncludedBlockV3(req)),
    submitBlockV3: unary('SubmitBlockV3', logger, async (req) => service.submitBlockV3(req)),
    getBlockV3: unary('GetBlockV3', logger, async (req) => service.getBlockV3(req)),
    getBlockMetadataV3: unary('GetBlockMetadataV3', logger, async (req) => service.getBlockMetadataV3(req)),
    getInfoV3: unary('GetInfoV3', logger, async () => service.getInfoV3()),
    getIssuanceV3: unary('GetIssuanceV3', logger, async () => service.getIssuanceV3()),
    getInfo: unary('GetInfo', logger, () => service.getInfo()),
    getTips: unary('GetTips', logger, (req) => service.getTips(req)),
    getOutput: unary('GetOutput', logger, (req) => service.getOutput(req)),
    getOutputMetadata: unary('GetOutputMetadata', logger, (req) => service.getOutputMetadata(req)),
    getMilestone: unary('GetMilestone', logger, (req) => service.getMilestone(req)),
    getMilestoneUtxoChanges: unary('GetMilestoneUtxoChanges', logger, (req) => service.getMilestoneUtxoChanges(req)),
    getReceipts: unary('GetReceipts', logger, (req) => service.getReceipts(req)),
    getTreasury: unary('GetTreasury', logger, () => service.getTreasury()),
    queryOutputs: unary('QueryOutputs', logger, (req) => service.queryOutputs(req)),
    getChainOutput: unary('GetChainOutput', logger, (req) => service.getChainOutput(req)),
  };
}
