/**
 * Solid entry points of a milestone index T (Hornet `pkg/dag/solid_entry_points.go`, docs/decisions.md §27): the
 * blocks referenced at or below T that a kept block names as a parent, i.e. that have a stored child which is not
 * itself referenced at or below T (referenced later, or not yet). Cone walks, solidification and cone root indexes stop
 * at them once everything at or below T is gone.
 *
 * The candidates are the blocks of the cones above the last pruning index up to T and the current solid entry points
 * (below the last pruning index nothing else is stored). Pruning walks exactly the cones it deletes, so its set is
 * exact; a snapshot of an unpruned store walks the cones of the last `belowMaxDepth + 5` milestones below T, as
 * Hornet's snapshots do (older blocks have no children a coordinator's tip selection can still reach).
 */
import { compareBytes, toHex } from '../bytes.ts';
import type { NodeStore } from '../store/node-store.ts';
import { TABLES } from '../store/tables.ts';

const CONCURRENT_SCANS = 32;

export async function solidEntryPointsOf(
  store: NodeStore,
  target: number,
  candidates: Iterable<Uint8Array>,
  /** Blocks known to be referenced at or below `target` (block ID hex): no store read for them as children. */
  below: ReadonlySet<string> = new Set(),
): Promise<Uint8Array[]> {
  const seps = new Map<string, Uint8Array>();
  const unique = new Map<string, Uint8Array>();
  for (const id of candidates) unique.set(toHex(id), id);
  const ids = [...unique.values()];
  // Children scans are separate store reads: a few at a time, so the store works on them together.
  for (let i = 0; i < ids.length; i += CONCURRENT_SCANS) {
    const chunk = ids.slice(i, i + CONCURRENT_SCANS);
    const outside = await Promise.all(
      chunk.map(async (id) => (await store.children(id)).filter((c) => !below.has(toHex(c)))),
    );
    const metas = await store.getMany(TABLES.blockMetadata, outside.flat());
    let at = 0;
    chunk.forEach((id, j) => {
      const from = at;
      at += outside[j]!.length;
      const mine = metas.slice(from, at);
      if (mine.some((md) => md !== undefined && !(md.referenced && md.referenced.milestoneIndex <= target)))
        seps.set(toHex(id), id);
    });
  }
  return [...seps.values()].sort(compareBytes);
}
