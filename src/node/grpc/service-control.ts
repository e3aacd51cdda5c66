/**
 * The control RPCs of the NodeService (service.ts delegates here): TIP-25's protected `POST /control/database/prune`
 * and `POST /control/snapshots/create`, over the node's pruner and snapshot writer (pruning/, snapshot/).
 */
import type {
  CreateSnapshotRequest,
  CreateSnapshotResponse,
  PruneDatabaseRequest,
  PruneDatabaseResponse,
} from '../../grpc/gen/node.ts';
import { NodeError } from '../support/errors.ts';
import type { Pruner } from '../pruning/pruner.ts';
import type { Snapshots } from '../snapshots/snapshots.ts';

export class ControlService {
  constructor(
    private readonly pruner: Pruner,
    private readonly snapshots: Snapshots | undefined,
  ) {}

  async pruneDatabase(req: PruneDatabaseRequest): Promise<PruneDatabaseResponse> {
    const t = req.target;
    if (t === undefined)
      throw new NodeError(
        'INVALID_REQUEST',
        'invalid prune request: either index, depth or targetDatabaseSize has to be specified',
      );
    const request =
      t.$case === 'index'
        ? { index: t.value }
        : t.$case === 'depth'
          ? { depth: t.value }
          : { targetDatabaseSize: t.value };
    return { index: await this.pruner.prune(request) };
  }

  async createSnapshot(req: CreateSnapshotRequest): Promise<CreateSnapshotResponse> {
    if (!this.snapshots) throw new NodeError('UNAVAILABLE', 'this node writes no snapshots (no data folder)');
    if (req.index === 0)
      throw new NodeError('INVALID_REQUEST', 'invalid snapshot request: index needs to be specified');
    const { index, file } = await this.snapshots.create(req.index);
    return { index, filePath: file };
  }
}
