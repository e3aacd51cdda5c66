/**
 * `ledger-node tool snapshot --data-dir DIR --out FILE [--index N] [--genesis FILE]`: writes the snapshot of a
 * STOPPED node's ledger at its confirmed milestone (or milestone N, between the pruning index and the confirmed one) as
 * the genesis/snapshot JSON `ledger-node run --genesis FILE` starts a new data folder from (src/node/snapshot). The
 * dev-only entries (coordinator keys, dev wallet, v3 part) come from the network's genesis file, `DIR/genesis.json` or
 * `--genesis`. A running node holds its store's lock: snapshot it with `POST /api/core/v2/control/snapshots/create`.
 * Exit 0 and a summary line; 1 when the snapshot cannot be made (e.g. an index out of range); 2 on bad arguments or a
 * store that cannot be opened. Progress on standard error when it is a terminal.
 */
import { NodeStore } from '../core/store/index.ts';
import { engineOfDataDir, openDataDirStore } from '../storage/open.ts';
import { NodeError } from '../node/support/errors.ts';
import { loadNetwork } from '../node/genesis/network.ts';
import { writeSnapshot } from '../node/snapshots/snapshot.ts';
import { networkGenesis } from '../node/snapshots/snapshots.ts';
import { parseToolFlags } from './args.ts';
import { terminalProgress } from './progress.ts';

const USAGE = 'usage: ledger-node tool snapshot --data-dir DIR --out FILE [--index N] [--genesis FILE]';

export async function toolSnapshot(argv: readonly string[]): Promise<number> {
  const opts = parseToolFlags(argv, ['--data-dir', '--out', '--index', '--genesis'], USAGE);
  if (typeof opts === 'number') return opts;
  const dataDir = opts.get('--data-dir');
  const out = opts.get('--out');
  if (dataDir === undefined || out === undefined) {
    console.error(`--data-dir and --out are required\n${USAGE}`);
    return 2;
  }
  const indexText = opts.get('--index');
  const index = indexText === undefined ? undefined : Number(indexText);
  if (index !== undefined && !(Number.isInteger(index) && index >= 0 && index <= 0xffffffff)) {
    console.error(`--index: expected a milestone index, got ${indexText}\n${USAGE}`);
    return 2;
  }
  const engine = engineOfDataDir(dataDir);
  if (engine === undefined) {
    console.error(`no node store in ${dataDir}`);
    return 2;
  }
  let kv: Awaited<ReturnType<typeof openDataDirStore>>;
  try {
    kv = await openDataDirStore(dataDir, { engine, createIfMissing: false });
  } catch (e) {
    console.error(`cannot open the store of ${dataDir}: ${(e as Error).message}`);
    return 2;
  }
  const progress = terminalProgress();
  try {
    const store = new NodeStore(kv);
    const network = await loadNetwork(store);
    if (!network) {
      console.error(`the store in ${dataDir} holds no network`);
      return 2;
    }
    let genesis: ReturnType<typeof networkGenesis>;
    try {
      genesis = networkGenesis(dataDir, network.networkName, opts.get('--genesis'));
    } catch (e) {
      console.error(`cannot read the network's genesis file: ${(e as Error).message}`);
      return 2;
    }
    progress.update('snapshot: reading the ledger');
    const r = await writeSnapshot({ store, network, ...(genesis ? { genesis } : {}), hold: (fn) => fn() }, out, {
      ...(index !== undefined ? { index } : {}),
      progress: (n) => progress.update(`snapshot: ${n} outputs written`),
    });
    progress.done();
    console.log(
      `snapshot of milestone ${r.index} written to ${r.file}: ${r.outputs} outputs, ${r.solidEntryPoints} solid ` +
        `entry points, ${r.bytes} bytes${genesis?.coordinator !== undefined ? ' (with the dev coordinator keys)' : ''}`,
    );
    return 0;
  } catch (e) {
    progress.done();
    console.error(`snapshot failed: ${(e as Error).message}`);
    return e instanceof NodeError ? 1 : 2;
  } finally {
    await kv.close();
  }
}
