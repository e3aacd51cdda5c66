/**
 * Puts NodeServiceImpl on the wire: each unary handler awaits the method and answers through the callback.
 * Every rejection crosses the wire through `toServiceError` (status code + ErrorInfo details trailer).
 * Anything that is not a NodeError / ProtocolError is unexpected: its stack is logged and the call answers
 * INTERNAL; nothing escapes to crash the process. SubmitBlock aborts its PoW job when the call is cancelled, and
 * QueryOutputs its index scan.
 */
import { status, type handleUnaryCall, type ServerUnaryCall, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import type { NodeServiceServer } from '../../grpc/gen/node.ts';
import { NodeError } from '../errors.ts';
import { toServiceError } from './errors.ts';
import type { Logger } from '../logger.ts';
import type { NodeServiceImpl } from './service.ts';

function isExpected(e: unknown): boolean {
  return e instanceof NodeError || (e instanceof Error && e.name === 'ProtocolError');
}

/** Told about every answered call: the method, its gRPC status name (OK, NOT_FOUND, ...) and its seconds. */
export type CallObserver = (method: string, code: string, seconds: number) => void;

function unaryHandler<Req, Res>(name: string, logger: Logger, run: (req: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>, observe?: CallObserver): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, rawCallback: sendUnaryData<Res>) => {
    const t0 = observe ? performance.now() : 0;
    const callback: sendUnaryData<Res> = observe
      ? (err, res) => {
          observe(name, status[err?.code ?? status.OK] ?? String(err?.code), (performance.now() - t0) / 1000);
          rawCallback(err, res);
        }
      : rawCallback;
    let p: Promise<Res>;
    try {
      p = run(call.request, call);
    } catch (e) {
      p = Promise.reject(e);
    }
    // grpc-js may throw while it writes an answer (a message it cannot serialize, a status it cannot carry): that
    // fails this call with INTERNAL, never the process (a throw here would be an unhandled rejection).
    const answer = (err: ServiceError | null, res?: Res): void => {
      try {
        callback(err, res);
      } catch (e) {
        logger.error(`${name}: the answer could not be sent`, e);
        try {
          callback(toServiceError(new NodeError('INTERNAL', `${name} failed: the answer could not be sent`)));
        } catch {
          // the call is beyond answering (grpc-js closed it); nothing else depends on it
        }
      }
    };
    p.then(
      (res) => answer(null, res),
      (e: unknown) => {
        if (!isExpected(e)) {
          logger.error(`${name} failed unexpectedly`, e);
          // The first line only: what follows in a host error is often a stack or a path, the log has it whole.
          const text = (e instanceof Error ? e.message : String(e)).split('\n', 1)[0]!.trim();
          answer(toServiceError(new NodeError('INTERNAL', `${name} failed: ${text}`)));
          return;
        }
        answer(toServiceError(e));
      },
    );
  };
}

export function nodeServiceHandlers(service: NodeServiceImpl, logger: Logger, observe?: CallObserver): NodeServiceServer {
  const unary = <Req, Res>(name: string, l: Logger, run: (req: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>) => unaryHandler(name, l, run, observe);
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
    queryOutputs: unary('QueryOutputs', logger, (req, call) => {
      const cancelled = new AbortController();
      call.once('cancelled', () => cancelled.abort(new Error('the client cancelled the call')));
      return service.queryOutputs(req, cancelled.signal);
    }),
    getChainOutput: unary('GetChainOutput', logger, (req) => service.getChainOutput(req)),
    faucetInfo: unary('FaucetInfo', logger, () => service.faucetInfo()),
    faucetEnqueue: unary('FaucetEnqueue', logger, (req) => service.faucetEnqueue(req)),
    getPeers: unary('GetPeers', logger, () => service.getPeers()),
    getPeer: unary('GetPeer', logger, (req) => service.getPeer(req)),
    addPeer: unary('AddPeer', logger, (req) => service.addPeer(req)),
    removePeer: unary('RemovePeer', logger, (req) => service.removePeer(req)),
    getDashboard: unary('GetDashboard', logger, () => service.getDashboard()),
    pruneDatabase: unary('PruneDatabase', logger, (req) => service.pruneDatabase(req)),
    createSnapshot: unary('CreateSnapshot', logger, (req) => service.createSnapshot(req)),
  };
}
