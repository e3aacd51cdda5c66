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
