/** `ledger-node` command line: `run`, `gateway`, `tool ...`. */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const USAGE = `ledger-node ${pkg.version}
usage:
  ledger-node run [flags]        start the node (gRPC + REST; "ledger-node run --help" lists the flags)
  ledger-node tool block         decode/encode blocks read from standard input, one per line
  ledger-node tool pow --score N mine a nonce for a block read from standard input
  ledger-node tool genesis --out FILE   write the genesis file of a new dev network
  ledger-node tool check --data-dir DIR check a stopped node's store against a recomputation
  ledger-node tool snapshot --data-dir DIR --out FILE   write the snapshot (genesis JSON) of a stopped node's ledger
  ledger-node tool fill --blocks N [run flags]   store N valid blocks through the node's own intake (scale runs)
  ledger-node tool jwt --subject NAME [--expires 12h] [--scope node|rest]   a token signed with LEDGER_NODE_JWT_SECRET
  ledger-node tool identity --data-dir DIR   the node's identity public key (what --peer 0xPUBKEY@HOST:PORT names)
  ledger-node gateway --node HOST:PORT [--rest-port N] [--host H]   a REST gateway alone against a running node
  ledger-node --version
`;

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case '--version':
    case 'version':
      console.log(pkg.version);
      return 0;
    case 'run':
      return (await import('../node/run.ts')).runCommand(rest);
    case 'gateway':
      return (await import('../../gateway/cli.ts')).gatewayCommand(rest);
    case 'tool':
      return (await import('./tool.ts')).tool(rest);
    case undefined:
    case 'help':
    case '--help':
      console.log(USAGE);
      return 0;
    default:
      console.error(`unknown command "${cmd}"\n${USAGE}`);
      return 2;
  }
}
