/**
 * The arguments of a `ledger-node tool` command that takes only `--flag value` / `--flag=value` options, boolean
 * `--flag`s and `--help`, tokenized by `util.parseArgs`.
 */
import { parseArgs } from 'node:util';

/**
 * Reads `argv` as `--flag value` or `--flag=value` options, each of `flags`, and the boolean flags of `booleans` (read
 * as "true"); a later value of a flag replaces an earlier one. Returns the values by flag, or the exit status when the
 * command should stop: 0 after `--help` (`usage` on standard output), 2 for an unknown option or an option without a
 * value (the reason and `usage` on standard error). An unknown option is reported as such even without a value,
 * unless `missingValueFirst` (what `tool jwt` has always said: `option --x needs a value` for an unknown `--x` given
 * last or as `--x=`).
 */
export function parseToolFlags(
  argv: readonly string[],
  flags: readonly string[],
  usage: string,
  options: { missingValueFirst?: boolean; booleans?: readonly string[] } = {},
): Map<string, string> | number {
  const booleans = options.booleans ?? [];
  const spec: Record<string, { type: 'string' | 'boolean' }> = { help: { type: 'boolean' } };
  for (const f of flags) spec[f.slice(2)] = { type: 'string' };
  for (const f of booleans) spec[f.slice(2)] = { type: 'boolean' };
  const { tokens } = parseArgs({ args: [...argv], options: spec, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<string, string>();
  const fail = (message: string): number => {
    console.error(`${message}\n${usage}`);
    return 2;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'option' && t.rawName === '--help') {
      console.log(usage);
      return 0;
    }
    if (t.kind !== 'option') return fail(`unknown option ${t.kind === 'positional' ? t.value : '--'}`);
    const flag = t.rawName;
    if (booleans.includes(flag) && !t.inlineValue) {
      values.set(flag, 'true');
      continue;
    }
    let value = t.value;
    // An unknown option takes the next argument as its value, as a known one does.
    const next = tokens[i + 1];
    if (!flags.includes(flag) && value === undefined && next?.kind === 'positional') {
      value = next.value;
      i++;
    }
    const missing = value === undefined || value === '';
    if (!flags.includes(flag) && !(missing && options.missingValueFirst)) return fail(`unknown option ${flag}`);
    if (missing) return fail(`option ${flag} needs a value`);
    values.set(flag, value!);
  }
  return values;
}
