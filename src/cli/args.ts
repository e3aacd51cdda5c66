/**
 * The arguments of a `ledger-node tool` command that takes only `--flag value` / `--flag=value` options (and `--help`).
 */

/**
 * Reads `argv` as `--flag value` or `--flag=value` options, each of `flags`; a later value of a flag replaces an
 * earlier one. Returns the values by flag, or the exit status when the command should stop: 0 after `--help` (`usage`
 * on standard output), 2 for an unknown option or an option without a value (the reason and `usage` on standard error).
 * An unknown option is reported as such even without a value, unless `missingValueFirst` (what `tool jwt` has always
 * said: `option --x needs a value` for an unknown `--x` given last or as `--x=`).
 */
export function parseToolFlags(argv: readonly string[], flags: readonly string[], usage: string, options: { missingValueFirst?: boolean } = {}): Map<string, string> | number {
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help') {
      console.log(usage);
      return 0;
    }
    const eq = arg.indexOf('=');
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    const missing = value === undefined || value === '';
    if (!flags.includes(flag) && !(missing && options.missingValueFirst)) {
      console.error(`unknown option ${flag}\n${usage}`);
      return 2;
    }
    if (missing) {
      console.error(`option ${flag} needs a value\n${usage}`);
      return 2;
    }
    values.set(flag, value);
  }
  return values;
}
