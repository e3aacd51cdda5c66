/**
 * `ledger-node tool check --data-dir DIR [--genesis FILE] [--json]`: checks a STOPPED node's store against a fresh
 * recomputation (src/node/check): blocks, children, tips, solidity, a White-Flag replay of every confirmed
 * milestone from the genesis ledger (on a pruned store: from the ledger at its pruning index), the TIP-26 output
 * index against the unspent outputs, and the explorer history and its aggregates. Exit 0 and a summary when
 * everything agrees; exit 1 with every difference; exit 2 on bad arguments or a store that cannot be opened.
 * Progress on standard error when it is a terminal.
 */
import { CheckSetupError, checkDataDir } from '../node/check/data-dir.ts';
import { terminalProgress } from './progress.ts';
import { parseToolFlags } from './args.ts';

const USAGE = 'usage: ledger-node tool check --data-dir DIR [--genesis FILE] [--json]';

export async function toolCheck(argv: readonly string[]): Promise<number> {
  const flags = parseToolFlags(argv, ['--data-dir', '--genesis'], USAGE, { booleans: ['--json'] });
  if (typeof flags === 'number') return flags;
  const dataDir = flags.get('--data-dir');
  const genesisFile = flags.get('--genesis');
  const json = flags.has('--json');
  if (dataDir === undefined) {
    console.error(`--data-dir is required\n${USAGE}`);
    return 2;
  }
  let report: Awaited<ReturnType<typeof checkDataDir>>;
  const progress = terminalProgress();
  try {
    report = await checkDataDir(dataDir, {
      ...(genesisFile !== undefined ? { genesisFile } : {}),
      progress: (text) => progress.update(text),
    });
    progress.done();
  } catch (e) {
    progress.done();
    const message = e instanceof CheckSetupError ? e.message : `cannot check ${dataDir}: ${(e as Error).message}`;
    console.error(message);
    return 2;
  }
  if (json) {
    console.log(JSON.stringify(report, null, 2));
    return report.ok ? 0 : 1;
  }
  const s = report.summary;
  const pending = s.pendingPruning > 0 ? ` (${s.pendingPruning} entries left to prune)` : '';
  const prunedParents = s.prunedParents > 0 ? `, ${s.prunedParents} unreferenced blocks with a pruned parent` : '';
  const pruned = s.pruningIndex !== undefined ? `, pruned at ${s.pruningIndex}${pending}${prunedParents}` : '';
  const line =
    `${s.blocks} v2 blocks (${s.solid} solid, ${s.unsolid} unsolid, ${s.referenced} referenced), ` +
    `${s.v3Blocks} v3 blocks not checked, ${s.childEdges} child edges, ` +
    `${s.tips} tips (${s.tipUndetermined} undetermined), ledger at ${s.ledgerIndex ?? '-'}${pruned}: ` +
    `${s.milestonesReplayed} milestones replayed (${s.ledgerReplay}), ${s.unspentOutputs} unspent outputs, ` +
    `${s.indexEntries} index entries, history of ${s.historyUpdates} ledger updates and ${s.historyBlocks} blocks` +
    `${s.historyPending > 0 ? ` (${s.historyPending} entries left to prune)` : ''}; ${s.ms} ms`;
  if (report.ok) {
    console.log(`check passed: ${line}`);
    return 0;
  }
  for (const d of report.differences) console.log(d);
  console.log(`check FAILED: ${report.differences.length} difference(s); ${line}`);
  return 1;
}
