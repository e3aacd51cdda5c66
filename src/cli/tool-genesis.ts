/**
 * `ledger-node tool genesis [--out FILE] [--network-name N] [--min-pow-score N] [--milestone-interval S]
 * [--funds ADDRESS_OR_SEED...]`: writes the genesis file of a new dev network (coordinator keys and a funded dev
 * wallet included, both marked dev-only) to FILE, or to standard output. Start it with `ledger-node run --genesis FILE`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { DEV_MIN_POW_SCORE } from '../node/config.ts';
import { genesisToJson } from '../node/genesis.ts';
import { devNetworkGenesis, type DevNetworkOptions } from '../node/ledger/dev-genesis.ts';

const USAGE =
  'usage: ledger-node tool genesis [--out FILE] [--network-name N] [--min-pow-score N] [--milestone-interval S] [--funds ADDRESS_OR_SEED...] [--force]';

export interface GenesisToolArgs {
  out?: string;
  force: boolean;
  options: DevNetworkOptions;
}

export function parseGenesisArgs(argv: readonly string[]): GenesisToolArgs | string {
  const options: DevNetworkOptions = { minPowScore: DEV_MIN_POW_SCORE };
  const funds: string[] = [];
  let out: string | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--force') {
      force = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const take = (): string | undefined => (eq >= 0 ? arg.slice(eq + 1) : argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--') ? argv[++i] : undefined);
    if (flag === '--funds') {
      // One or more values after --funds (or repeated --funds).
      if (eq >= 0) funds.push(arg.slice(eq + 1));
      else while (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) funds.push(argv[++i]!);
      continue;
    }
    const value = take();
    if (value === undefined || value === '') return `option ${flag} needs a value`;
    switch (flag) {
      case '--out':
        out = value;
        break;
      case '--network-name':
        options.networkName = value;
        break;
      case '--min-pow-score': {
        const n = Number(value);
        if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n > 0xffffffff) return `--min-pow-score ${value} is not an integer 0..4294967295`;
        options.minPowScore = n;
        break;
      }
      case '--milestone-interval': {
        const s = Number(value);
        if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(s > 0) || s > 3600) return `--milestone-interval ${value} is not a number of seconds in (0, 3600]`;
        options.milestoneInterval = s;
        break;
      }
      default:
        return `unknown option "${arg}"`;
    }
  }
  if (funds.length > 0) options.funds = funds;
  return out === undefined ? { force, options } : { out, force, options };
}

export async function toolGenesis(argv: string[]): Promise<number> {
  const args = parseGenesisArgs(argv);
  if (typeof args === 'string') {
    console.error(`${args}\n${USAGE}`);
    return 2;
  }
  let text: string;
  try {
    text = JSON.stringify(genesisToJson(devNetworkGenesis(args.options)), null, 2) + '\n';
  } catch (e) {
    console.error(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (args.out === undefined) {
    process.stdout.write(text);
    return 0;
  }
  if (existsSync(args.out) && !args.force) {
    console.error(`${args.out} exists; pass --force to overwrite it`);
    return 2;
  }
  writeFileSync(args.out, text, { mode: 0o600 });
  console.error(`wrote the genesis of dev network "${args.options.networkName ?? 'ledger-dev'}" to ${args.out} (contains DEV-ONLY private keys); start it with: ledger-node run --genesis ${args.out}`);
  return 0;
}
