/**
 * `ledger-node tool genesis [--out FILE] [--network-name N] [--min-pow-score N] [--milestone-interval S]
 * [--funds ADDRESS_OR_SEED...]`: writes the genesis file of a new dev network (coordinator keys and a funded dev
 * wallet included, both marked dev-only) to FILE, or to standard output. Start it with `ledger-node run --genesis
 * FILE`.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DEV_MIN_POW_SCORE } from '../node/config.ts';
import { genesisToJson } from '../node/genesis/genesis.ts';
import { devNetworkGenesis, type DevNetworkOptions } from '../node/genesis/dev-genesis.ts';

const USAGE =
  'usage: ledger-node tool genesis [--out FILE] [--network-name N] ' +
  '[--min-pow-score N] [--milestone-interval S] [--funds ADDRESS_OR_SEED...] [--force]';

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
  const string = { type: 'string' } as const;
  // --funds and --force take no value of their own in the tokens: the arguments after --funds are its values.
  const { tokens } = parseArgs({
    args: [...argv],
    options: {
      out: string,
      'network-name': string,
      'min-pow-score': string,
      'milestone-interval': string,
      funds: { type: 'boolean' },
      force: { type: 'boolean' },
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let inFunds = false;
  for (const t of tokens) {
    if (t.kind === 'positional' && inFunds) {
      funds.push(t.value);
      continue;
    }
    inFunds = false;
    if (t.kind !== 'option') return `unknown option "${t.kind === 'positional' ? t.value : '--'}"`;
    if (t.name === 'force') {
      force = true;
      continue;
    }
    if (t.name === 'funds') {
      if (t.value !== undefined) funds.push(t.value);
      else inFunds = true;
      continue;
    }
    const value = t.value;
    if (value === undefined || value === '' || (!t.inlineValue && value.startsWith('--')))
      return `option ${t.rawName} needs a value`;
    switch (t.rawName) {
      case '--out':
        out = value;
        break;
      case '--network-name':
        options.networkName = value;
        break;
      case '--min-pow-score': {
        const n = Number(value);
        if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n > 0xffffffff)
          return `--min-pow-score ${value} is not an integer 0..4294967295`;
        options.minPowScore = n;
        break;
      }
      case '--milestone-interval': {
        const s = Number(value);
        if (!/^[0-9]+(\.[0-9]+)?$/.test(value) || !(s > 0) || s > 3600)
          return `--milestone-interval ${value} is not a number of seconds in (0, 3600]`;
        options.milestoneInterval = s;
        break;
      }
      default:
        return `unknown option "${t.rawName}"`;
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
  console.error(
    `wrote the genesis of dev network "${args.options.networkName ?? 'ledger-dev'}" to ` +
      `${args.out} (contains DEV-ONLY private keys); start it with: ledger-node run --genesis ${args.out}`,
  );
  return 0;
}
