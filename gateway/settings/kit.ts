/**
 * Settings declared once. A setting is one object: its name (the camelCase config-file key and value name, and the
 * kebab-case flag), its type (the parser and validator of its value), its default, a one-line description, whether it
 * is a secret read from the environment, and the commands that take it. Everything else is derived from the lists of
 * settings by the functions here: the flags of a command line (tokenized by `util.parseArgs`), the values of a JSON
 * config file, `--help`, and the reference table of docs/settings.md.
 *
 * Where the declarations live, and why this kit is in gateway/: the dependency rules (test/arch) let gateway/ import
 * only gateway/ and src/grpc, and let src/node import gateway/ only in src/node/rest.ts. So the settings the REST
 * gateway reads are declared by the gateway (gateway/settings/gateway.ts), with the kit beside them; the settings
 * shared with `ledger-node run` (REST port, rate limit, JSON depth, event API limits, metrics listener) are declared
 * there once, marked with both commands. The node declares its own in src/node/settings.ts, which reaches this folder
 * through src/node/rest.ts (the node's one door to gateway/), and `run` composes both lists.
 */
import { parseArgs } from 'node:util';

export type Command = 'run' | 'gateway';

/** How a value is read and checked, and how it is named in `--help`, errors and the reference table. */
export interface ValueType<T> {
  /** The type's name in the reference table: `uint`, `seconds`, `size`, `bool`, ... */
  readonly name: string;
  /** The placeholder after the flag in `--help`: `N`, `S`, `SIZE`, `HOST`, ... */
  readonly arg: string;
  /** What a valid value is, for "expected ..." in error messages. */
  readonly expected: string;
  /** `--flag` alone means true; `--flag true|false|on|off` and `--flag=...` set it. */
  readonly bool?: boolean;
  /** Repeatable on the command line (values add up); a JSON array in the config file. `parse` reads one item. */
  readonly list?: boolean;
  /** The value of a command-line text or a config-file JSON value; undefined when it is not valid. */
  parse(raw: unknown): T | undefined;
}

export interface Setting<K extends string = string, T = unknown> {
  /** The value's name: the config-file key (of `run`) and the field of the parsed values. */
  readonly key: K;
  /** The flag without `--`; the key in kebab-case when absent. */
  readonly flag?: string;
  /** Overrides the type's placeholder in `--help` (`DIR`, `FILE`, `MS`). */
  readonly arg?: string;
  readonly type: ValueType<T>;
  /** Filled in when the setting is not given (a function for a default of the machine, like the number of cores). */
  readonly default?: T | (() => T);
  /** The default as documented, when it is applied elsewhere (by the gateway, from the genesis) or computed. */
  readonly defaultText?: string;
  /** One line: what the setting does. */
  readonly description: string;
  /** Read from this environment variable only: never a flag or a config-file key (flags show up in process lists). */
  readonly env?: string;
  /** A secret: never printed, never logged. */
  readonly secret?: boolean;
  readonly commands: readonly Command[];
}

export type Settings = readonly Setting<string, unknown>[];

/** How a command words its errors (each command keeps the texts it has always had), and the error it throws. */
export interface Dialect {
  readonly error: new (message: string) => Error;
  unknown(flag: string, known: readonly string[]): string;
  missing(flag: string): string;
  invalid(flag: string, raw: unknown, expected: string): string;
  positional(arg: string): string;
}

export function flagOf(s: Setting): string {
  return `--${s.flag ?? s.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Value types

function numberOf(raw: unknown, decimals: boolean): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw !== 'string') return NaN;
  return (decimals ? /^[0-9]+(\.[0-9]+)?$/ : /^[0-9]+$/).test(raw) ? Number(raw) : NaN;
}

/** Whole numbers in [min, max]. */
export function int(name: string, min: number, max: number, expected: string, arg = 'N'): ValueType<number> {
  return {
    name,
    arg,
    expected,
    parse: (raw) => {
      const n = numberOf(raw, false);
      return Number.isSafeInteger(n) && n >= min && n <= max ? n : undefined;
    },
  };
}

/** Decimal numbers in (0, max]. */
export function positiveDecimal(name: string, max: number, expected: string, arg: string): ValueType<number> {
  return {
    name,
    arg,
    expected,
    parse: (raw) => {
      const n = numberOf(raw, true);
      return n > 0 && n <= max ? n : undefined;
    },
  };
}

export const uint = int('uint', 0, 0xffffffff, 'an integer >= 0');
export const positive = int('uint >= 1', 1, 0xffffffff, 'an integer >= 1');
export const port = int('port', 0, 65535, 'a port number 0..65535');
export const seconds = positiveDecimal('seconds', 3600, 'seconds in (0, 3600]', 'S');
/**
 * Requests per second of a token bucket (gateway/rate-limit.ts): a decimal, so `0.5` is one request every 2 seconds
 * (with a burst of 1), as the rate limiter refills fractions of a token.
 */
export const rate = positiveDecimal('rate', 1e9, 'requests per second > 0, like 20 or 0.5', 'RPS');

export const bool: ValueType<boolean> = {
  name: 'bool',
  arg: 'BOOL',
  expected: 'true or false',
  bool: true,
  parse: (raw) =>
    raw === true || raw === 'true' || raw === 'on'
      ? true
      : raw === false || raw === 'false' || raw === 'off'
        ? false
        : undefined,
};

export const text: ValueType<string> = {
  name: 'string',
  arg: 'TEXT',
  expected: 'a non-empty string',
  parse: (raw) => (typeof raw === 'string' && raw !== '' ? raw : undefined),
};

/** A file path (non-empty). */
export const file: ValueType<string> = { ...text, name: 'file', arg: 'FILE' };

/** A host name or address to listen on (non-empty, no spaces or slashes). */
export const host: ValueType<string> = {
  name: 'host',
  arg: 'HOST',
  expected: 'a host name or address',
  parse: (raw) => (typeof raw === 'string' && /^[^\s/]+$/.test(raw) ? raw : undefined),
};

export function oneOf<const V extends string>(values: readonly V[]): ValueType<V> {
  return {
    name: 'enum',
    arg: values.join('|'),
    expected: values.join(' or '),
    parse: (raw) => (values.includes(raw as V) ? (raw as V) : undefined),
  };
}

/** A repeatable setting of items of `item`. */
export function listOf<T>(item: ValueType<T>, arg = item.arg): ValueType<T[]> {
  return {
    name: `list of ${item.name}`,
    arg,
    expected: item.expected,
    list: true,
    parse: (raw) => {
      const one = item.parse(raw);
      return one === undefined ? undefined : [one];
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading values

/** Reads one value of `s` (a command-line text or a JSON value); throws `dialect.error` with `message` when invalid. */
function readOne(s: Setting, raw: unknown, message: (raw: unknown) => string, dialect: Dialect): unknown {
  const value = s.type.parse(raw);
  if (value === undefined) throw new dialect.error(message(raw));
  return value;
}

export interface CommandLine<X extends string = never> {
  /** The values given as flags, by key (a list setting: all its values, in order). No defaults. */
  readonly values: Record<string, unknown>;
  /** The command's own options that are not settings (`--config FILE`, `--help`). */
  readonly extras: Partial<Record<X, string | true>>;
}

/**
 * Parses a command line of `--flag value` / `--flag=value` options, each a setting of `settings` (environment
 * settings excepted) or one of `extras` (`'string'`: takes a value; `'boolean'`: alone, with `short` as `-h`).
 * `util.parseArgs` tokenizes, in its non-strict mode so that each error names the flag in the command's words; the
 * checks here are strict: an unknown flag, a positional argument, a flag without a value and a bad value are refused.
 * A later value of a flag replaces an earlier one, except for list settings, whose values add up.
 */
export function parseCommandLine<X extends string = never>(
  argv: readonly string[],
  settings: Settings,
  dialect: Dialect,
  extras: Record<X, { type: 'string' | 'boolean'; short?: string }> = {} as Record<X, never>,
): CommandLine<X> {
  const byFlag = new Map<string, Setting>();
  for (const s of settings) if (s.env === undefined) byFlag.set(flagOf(s).slice(2), s);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = { ...extras };
  for (const [name, s] of byFlag) options[name] = { type: 'string', ...(s.type.list ? { multiple: true } : {}) };
  // A bool flag alone (last, or followed by another flag) means true.
  const args = argv.map((arg, i) => {
    const s = arg.startsWith('--') ? byFlag.get(arg.slice(2)) : undefined;
    const next = argv[i + 1];
    return s?.type.bool && (next === undefined || next.startsWith('-')) ? `${arg}=true` : arg;
  });
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  const known = [...Object.keys(extras).map((x) => `--${x}`), ...[...byFlag.keys()].map((f) => `--${f}`)];
  const values: Record<string, unknown> = {};
  const given: Partial<Record<X, string | true>> = {};
  for (const token of tokens) {
    if (token.kind === 'positional') throw new dialect.error(dialect.positional(token.value));
    if (token.kind === 'option-terminator') throw new dialect.error(dialect.positional('--'));
    const extra = extras[token.name as X];
    const s = byFlag.get(token.name);
    if (!extra && !s) throw new dialect.error(dialect.unknown(token.rawName, known));
    if (extra?.type === 'boolean') {
      given[token.name as X] = true;
      continue;
    }
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.startsWith('--')))
      throw new dialect.error(dialect.missing(token.rawName));
    if (extra) {
      given[token.name as X] = value;
      continue;
    }
    const flag = flagOf(s!);
    const read = readOne(s!, value, (raw) => dialect.invalid(flag, raw, s!.type.expected), dialect);
    values[s!.key] = s!.type.list
      ? [...((values[s!.key] as unknown[] | undefined) ?? []), ...(read as unknown[])]
      : read;
  }
  return { values, extras: given };
}

/**
 * Reads a config file's JSON object: its keys are the keys of `settings` (environment settings excepted), its values
 * JSON values of their types (a list: an array). Errors are `<where>: <key>: expected ..., got ...`.
 */
export function readConfigObject(
  json: unknown,
  settings: Settings,
  where: string,
  dialect: Dialect,
): Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new dialect.error(`${where}: expected a JSON object`);
  const fileSettings = settings.filter((s) => s.env === undefined);
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(json)) {
    const s = fileSettings.find((f) => f.key === key);
    if (!s)
      throw new dialect.error(`${where}: unknown key "${key}" (known: ${fileSettings.map((f) => f.key).join(', ')})`);
    const got = (at: string) => (r: unknown) =>
      `${where}: ${at}: expected ${s.type.expected}, got ${JSON.stringify(r)}`;
    if (s.type.list) {
      const items = Array.isArray(raw) ? raw : [raw];
      out[key] = items.flatMap(
        (item, i) => readOne(s, item, got(Array.isArray(raw) ? `${key}[${i}]` : key), dialect) as unknown[],
      );
    } else out[key] = readOne(s, raw, got(key), dialect);
  }
  return out;
}

/** The settings' defaults that are filled in (not those only documented). */
export function defaultsOf(settings: Settings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of settings)
    if (s.default !== undefined)
      out[s.key] = typeof s.default === 'function' ? (s.default as () => unknown)() : s.default;
  return out;
}

/** The environment settings' values found in `env`, by key (empty values are absent). */
export function readEnvironment(settings: Settings, env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of settings) {
    const value = s.env === undefined ? undefined : env[s.env];
    if (value) out[s.key] = value;
  }
  return out;
}

/** The settings that `command` takes, in order. */
export function settingsOf(command: Command, ...lists: Settings[]): Setting[] {
  return lists.flat().filter((s) => s.commands.includes(command));
}

// ---------------------------------------------------------------------------------------------------------------
// Help and reference

function defaultOf(s: Setting): string | undefined {
  if (s.defaultText !== undefined) return s.defaultText;
  if (s.default === undefined || typeof s.default === 'function') return undefined;
  return String(s.default);
}

function wrap(words: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of words.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines.map((l, i) => (i === 0 ? l : indent + l));
}

/**
 * `--help` of a command: `usage`, then a line per flag (`--flag ARG  description (default X)`) under each heading of
 * `sections`, then the environment settings.
 */
export function helpText(usage: string, sections: readonly { heading: string; settings: Settings }[]): string {
  const out = [usage];
  const column = 34;
  const env: Setting[] = [];
  for (const section of sections) {
    out.push('', `${section.heading}:`);
    for (const s of section.settings) {
      if (s.env !== undefined) {
        env.push(s);
        continue;
      }
      const name = `  ${flagOf(s)} ${s.arg ?? s.type.arg}`;
      const d = defaultOf(s);
      const body = `${s.description}${d === undefined ? '' : ` (default: ${d})`}`;
      const head = name.length + 2 > column ? [name, ' '.repeat(column)] : [name.padEnd(column)];
      const lines = wrap(body, 118 - column, ' '.repeat(column));
      out.push(head.length === 2 ? `${head[0]}\n${head[1]}${lines.join('\n')}` : `${head[0]}${lines.join('\n')}`);
    }
  }
  if (env.length > 0) {
    out.push('', 'environment (never a flag: flags show up in process lists):');
    for (const s of env)
      out.push(`  ${s.env!.padEnd(column - 2)}${wrap(s.description, 118 - column, ' '.repeat(column)).join('\n')}`);
  }
  return out.join('\n');
}

const cell = (t: string): string => t.replace(/\|/g, '\\|');

/**
 * A markdown table of `settings`: flag (or environment variable), config-file key, type, default, commands, meaning.
 */
export function referenceTable(settings: Settings): string {
  const rows = ['| flag | config-file key | type | default | commands | description |', '|---|---|---|---|---|---|'];
  for (const s of settings) {
    const name =
      s.env !== undefined
        ? `\`${s.env}\` (environment${s.secret ? ', secret' : ''})`
        : `\`${flagOf(s)} ${s.arg ?? s.type.arg}\``;
    const key = s.env === undefined && s.commands.includes('run') ? `\`${s.key}\`` : '';
    const d = defaultOf(s);
    rows.push(
      `| ${cell(name)} | ${key} | ${cell(s.type.name)} | ` +
        `${d === undefined ? '' : cell(d)} | ${s.commands.join(', ')} | ${cell(s.description)} |`,
    );
  }
  return rows.join('\n');
}

/** Declares one setting, keeping its key, its value type and whether it has a default, for `ValuesOf`. */
export function setting<const S extends Setting<string, unknown>>(s: S & Setting<S['key'], ValueOf<S>>): S {
  return s;
}

type ValueOf<S> = S extends { type: ValueType<infer T> } ? T : never;
type Filled<S> = S extends { default: unknown } ? true : false;

/** The values a list of settings reads, by key: optional, except those with a default that is filled in. */
export type ValuesOf<L extends readonly Setting<string, unknown>[]> = {
  [X in L[number] as Filled<X> extends true ? X['key'] : never]: ValueOf<X>;
} & {
  [X in L[number] as Filled<X> extends true ? never : X['key']]?: ValueOf<X>;
};
