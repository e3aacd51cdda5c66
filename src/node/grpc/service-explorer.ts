/**
 * The explorer RPCs of the NodeService (inx-chronicle 1.0's `/api/explorer/v2`, docs/explorer.md, and this node's
 * search) over the ExplorerReader: each checks that the request names what its route needs (an address, a milestone,
 * a block, a text; else INVALID_REQUEST), passes the query parameters on (a name given twice is INVALID_REQUEST; the
 * balance reads none, as chronicle's) and answers the JSON text.
 */
import { ID_LENGTH } from '../../core/model/index.ts';
import type { ExplorerRequest, LedgerJsonResponse } from '../../grpc/gen/node.ts';
import type { ExplorerReader, MilestoneRef, Params } from '../ledger/explorer-reads.ts';
import { NodeError } from '../support/errors.ts';
import { parametersByName, requireId } from './answers.ts';

type Rpc = (req: ExplorerRequest) => Promise<LedgerJsonResponse>;

/** The query parameters by name (a name given twice is refused). */
function paramsOf(req: ExplorerRequest): Params {
  return parametersByName(req.parameters);
}

function wrong(route: string, wanted: string): never {
  throw new NodeError('INVALID_REQUEST', `invalid explorer request: ${route} needs ${wanted} as its subject`);
}

function addressOf(req: ExplorerRequest, route: string): string {
  return req.subject?.$case === 'address' ? req.subject.value : wrong(route, 'an address');
}

function milestoneOf(req: ExplorerRequest, route: string): MilestoneRef {
  const s = req.subject;
  if (s?.$case === 'milestoneId') return { milestoneId: requireId(s.value, ID_LENGTH, 'milestone ID') };
  if (s?.$case === 'milestoneIndex') return { index: s.value };
  return wrong(route, 'a milestone ID or index');
}

function blockOf(req: ExplorerRequest, route: string): Uint8Array {
  const s = req.subject;
  return s?.$case === 'blockId' ? requireId(s.value, ID_LENGTH, 'block ID') : wrong(route, 'a block ID');
}

function textOf(req: ExplorerRequest, route: string): string {
  return req.subject?.$case === 'text' ? req.subject.value : wrong(route, 'a text');
}

function none(req: ExplorerRequest, route: string): void {
  if (req.subject !== undefined) wrong(route, 'nothing');
}

/**
 * Each RPC is an async function, so a request refused while it is read (no subject, a parameter twice) rejects its
 * promise like any other answer.
 */
export class ExplorerService {
  constructor(private readonly reader: ExplorerReader) {}

  balance: Rpc = async (req) => answer(await this.reader.balance(addressOf(req, 'balance')));
  updatesByAddress: Rpc = async (req) =>
    answer(await this.reader.updatesByAddress(addressOf(req, 'ledger updates by address'), paramsOf(req)));
  updatesByMilestone: Rpc = async (req) =>
    answer(await this.reader.updatesByMilestone(milestoneOf(req, 'ledger updates by milestone'), paramsOf(req)));
  milestones: Rpc = async (req) => {
    none(req, 'milestones');
    return answer(await this.reader.milestones(paramsOf(req)));
  };
  milestoneBlocks: Rpc = async (req) =>
    answer(await this.reader.milestoneBlocks(milestoneOf(req, 'blocks of a milestone'), paramsOf(req)));
  children: Rpc = async (req) => answer(await this.reader.children(blockOf(req, 'children'), paramsOf(req)));
  richest: Rpc = async (req) => {
    none(req, 'richest addresses');
    return answer(await this.reader.richest(paramsOf(req)));
  };
  distribution: Rpc = async (req) => {
    none(req, 'token distribution');
    return answer(await this.reader.distribution(paramsOf(req)));
  };
  search: Rpc = async (req) => answer(await this.reader.search(textOf(req, 'search'), paramsOf(req)));
}

function answer(json: unknown): LedgerJsonResponse {
  return { json: JSON.stringify(json) };
}
