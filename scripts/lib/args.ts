/**
 * The flags of a script or benchmark (`--name value` or `--name=value`, `--switch`), read from `process.argv` with
 * `util.parseArgs`. Lenient as these command lines have always been: flags a script does not read are ignored, so a
 * runner may pass the same flags to several scripts.
 */
import { parseArgs } from 'node:util';

function tokens(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** The last value of `--name` (the argument after it, or after `=`), or `dflt`. */
export function scriptArg(name: string, dflt: string, argv: readonly string[] = process.argv.slice(2)): string {
  let value: string | undefined;
  const all = tokens(argv);
  all.forEach((t, i) => {
    if (t.kind !== 'option' || t.name !== name) return;
    const next = all[i + 1];
    value = t.value ?? (next?.kind === 'positional' ? next.value : value);
  });
  return value ?? dflt;
}

/** Whether the switch `--name` is given. */
export function scriptSwitch(name: string, argv: readonly string[] = process.argv.slice(2)): boolean {
  return tokens(argv).some((t) => t.kind === 'option' && t.name === name);
}

/** The value of `--name`, or undefined when it is not given (or empty). */
export function scriptOption(name: string, argv: readonly string[] = process.argv.slice(2)): string | undefined {
  const value = scriptArg(name, '', argv);
  return value === '' ? undefined : value;
}

/**
 * The number `--name` gives, or `dflt`; a value that is not a finite number at least `min` (or above it, with
 * `positive`) ends the script with exit code 2 and says why.
 */
export function scriptNumber(
  name: string,
  dflt: number,
  { positive = false }: { positive?: boolean } = {},
  argv: readonly string[] = process.argv.slice(2),
): number {
  const v = scriptOption(name, argv);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || (positive && n === 0)) {
    console.error(`--${name} ${v}: expected a ${positive ? 'positive' : 'non-negative'} number`);
    process.exit(2);
  }
  return n;
}
