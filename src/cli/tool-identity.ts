/**
 * `ledger-node tool identity --data-dir DIR`: prints the node's identity public key (`0x` hex, one line), what other
 * nodes name in `--peer 0xPUBKEY@HOST:PORT`. It only reads `DIR/identity.key` (src/node/peering/identity.ts), so it
 * works while the node runs. Exit 0; 1 when the folder has no identity yet (the node creates it on its first start) or
 * the file is not an Ed25519 key; 2 for bad arguments.
 */
import { readIdentity } from '../node/peering/identity.ts';
import { parseToolFlags } from './args.ts';

const USAGE = 'usage: ledger-node tool identity --data-dir DIR';

export function toolIdentity(argv: readonly string[]): number {
  const values = parseToolFlags(argv, ['--data-dir'], USAGE);
  if (typeof values === 'number') return values;
  const dataDir = values.get('--data-dir');
  if (dataDir === undefined) {
    console.error(`--data-dir is required\n${USAGE}`);
    return 2;
  }
  try {
    const identity = readIdentity(dataDir);
    if (!identity) {
      console.error(`${dataDir} has no identity key yet: the node creates it on its first start`);
      return 1;
    }
    console.log(`0x${Buffer.from(identity.publicKey).toString('hex')}`);
    return 0;
  } catch (e) {
    console.error((e as Error).message);
    return 1;
  }
}
