/** `ledger-node` command line: `run`, `gateway`, `tool ...`. */
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const USAGE = `ledger-node ${pkg.version}
usage:
  ledger-node run [flags]        start the node (not available yet: prints the version)
  ledger-node tool block         decode/encode blocks read from standard input, one per line
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
      console.log(`ledger-node ${pkg.version}: the node itself arrives with issue 4; nothing to run yet.`);
      return 0;
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
