/**
 * Deterministic input mutators for the fuzz tests and `scripts/fuzz.ts`: a seeded PRNG, byte-level mutations
 * (random bytes, truncation, bit flips, insert/delete, interesting values, length-prefix overwrites, splices) and
 * JSON field mutations (wrong types, huge / negative numbers, long strings, nested junk, deleted and extra keys,
 * `__proto__` / `constructor` / `prototype`). Everything depends on the seed only, so a failure is replayed from it.
 * Runtime-neutral (Node and Deno).
 */

/** mulberry32: small, fast, good enough to pick mutations. */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  bool(p = 0.5): boolean {
    return this.next() < p;
  }
}

const INTERESTING_BYTES = [0x00, 0x01, 0x02, 0x03, 0x06, 0x07, 0x7f, 0x80, 0xfe, 0xff];
const INTERESTING_U16 = [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff];
const INTERESTING_U32 = [0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 32768, 32769, 65536];

function randomBytes(rng: Rng, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = rng.int(256);
  return out;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export const BYTE_MUTATIONS = [
  'random',
  'truncate',
  'bitflip',
  'insert',
  'delete',
  'interesting',
  'u16',
  'u32',
  'splice',
  'duplicate',
  'stack',
] as const;
export type ByteMutation = (typeof BYTE_MUTATIONS)[number];

/** One mutation of `base` (never modified); `others` feed splices. */
export function mutateBytes(
  rng: Rng,
  base: Uint8Array,
  others: readonly Uint8Array[] = [],
  kind: ByteMutation = rng.pick(BYTE_MUTATIONS),
): Uint8Array {
  const b = base.slice();
  const at = (extra = 0): number => rng.int(b.length + extra);
  switch (kind) {
    case 'random':
      return randomBytes(rng, rng.bool(0.2) ? rng.int(8) : rng.int(400));
    case 'truncate':
      return b.slice(0, at());
    case 'bitflip': {
      if (b.length === 0) return new Uint8Array([rng.int(256)]);
      for (let k = 1 + rng.int(4); k > 0; k--) {
        const i = at();
        b[i] = b[i]! ^ (1 << rng.int(8));
      }
      return b;
    }
    case 'insert': {
      const i = at(1);
      return concat(b.subarray(0, i), randomBytes(rng, 1 + rng.int(rng.bool(0.8) ? 4 : 64)), b.subarray(i));
    }
    case 'delete': {
      if (b.length === 0) return b;
      const i = at();
      return concat(b.subarray(0, i), b.subarray(Math.min(b.length, i + 1 + rng.int(rng.bool(0.8) ? 4 : 64))));
    }
    case 'interesting': {
      if (b.length === 0) return new Uint8Array([rng.pick(INTERESTING_BYTES)]);
      b[at()] = rng.pick(INTERESTING_BYTES);
      return b;
    }
    case 'u16':
    case 'u32': {
      // Overwrites a little-endian length prefix / count / amount somewhere.
      const width = kind === 'u16' ? 2 : 4;
      if (b.length < width) return b;
      const i = rng.int(b.length - width + 1);
      const v = kind === 'u16' ? rng.pick(INTERESTING_U16) : rng.pick(INTERESTING_U32);
      for (let k = 0; k < width; k++) b[i + k] = (v >>> (8 * k)) & 0xff;
      return b;
    }
    case 'splice': {
      const other = others.length > 0 ? rng.pick(others) : b;
      return concat(b.subarray(0, at(1)), other.subarray(rng.int(other.length + 1)));
    }
    case 'duplicate': {
      if (b.length === 0) return b;
      const i = at();
      const j = Math.min(b.length, i + 1 + rng.int(64));
      return concat(b.subarray(0, j), b.subarray(i, j), b.subarray(j));
    }
    case 'stack': {
      let out: Uint8Array = b;
      for (let k = 2 + rng.int(3); k > 0; k--)
        out = mutateBytes(rng, out, others, rng.pick(BYTE_MUTATIONS.filter((m) => m !== 'stack' && m !== 'random')));
      return out;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// JSON

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any;

/** Every path (keys / indices) to a value inside `v`, the root included as []. */
function paths(v: J, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v))
    v.forEach((x, i) => {
      paths(x, [...at, i], out);
    });
  else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) paths(v[k], [...at, k], out);
  return out;
}

function nested(depth: number, leaf: J): J {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? [v] : { a: v };
  return v;
}

/** Sets an own enumerable property, also for `__proto__` (plain assignment would change the prototype). */
function setOwn(obj: J, key: string, value: J): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const FORBIDDEN = ['__proto__', 'constructor', 'prototype'];

/** A junk JSON value: wrong types, extreme numbers, long / malformed strings, nested junk. */
export function junkValue(rng: Rng, like?: J): J {
  const choices: (() => J)[] = [
    () => null,
    () => true,
    () => false,
    () => 0,
    () => -1,
    () => 1.5,
    () => -0.5,
    () => 2 ** 53 + 2,
    () => 1e308,
    () => -(2 ** 31),
    () => 4294967296,
    () => '',
    () => '-1',
    () => '0',
    () => '1e3',
    () => ' 1',
    () => '18446744073709551615',
    () => '18446744073709551616',
    () => '340282366920938463463374607431768211456',
    () => '0x',
    () => '0x0',
    () => '0xzz',
    () => '0x' + 'ff'.repeat(rng.int(300)),
    () => 'x'.repeat(rng.bool(0.5) ? 1000 : 70_000),
    () => 'smr1qqqqqqqqqq',
    () => '\u0000\ud800',
    () => [],
    () => {
      const o = {};
      return o;
    },
    () => [null, 1, 'a', {}],
    () => nested(rng.bool(0.5) ? 80 : 2000, 1),
    () => Array.from({ length: rng.bool(0.5) ? 200 : 5000 }, () => 0),
  ];
  if (typeof like === 'string' && like.startsWith('0x')) {
    choices.push(() => like.slice(0, Math.max(2, like.length - 1 - rng.int(4))));
    choices.push(() => like + 'f');
    choices.push(() => like.toUpperCase());
    choices.push(() => like.slice(2));
  }
  if (typeof like === 'string' && /^\d+$/.test(like)) {
    choices.push(() => `${like}0000000000000000000000`);
    choices.push(() => `-${like}`);
    choices.push(() => Number(like));
  }
  if (typeof like === 'number') {
    choices.push(
      () => like + 1,
      () => like - 1,
      () => -like,
      () => String(like),
      () => like * 256 + 255,
    );
  }
  return rng.pick(choices)();
}

export const JSON_MUTATIONS = [
  'replace',
  'delete',
  'extraKey',
  'forbiddenKey',
  'arrayGrow',
  'arrayShrink',
  'typeTag',
  'wholeJunk',
  'stack',
] as const;
export type JsonMutation = (typeof JSON_MUTATIONS)[number];

/** One field mutation of a deep copy of `base` (never modified). */
export function mutateJson(rng: Rng, base: J, kind: JsonMutation = rng.pick(JSON_MUTATIONS)): J {
  const root = JSON.parse(JSON.stringify(base));
  if (kind === 'wholeJunk') return junkValue(rng);
  if (kind === 'stack') {
    let v = root;
    for (let k = 2 + rng.int(3); k > 0; k--)
      v = mutateJson(rng, v, rng.pick(JSON_MUTATIONS.filter((m) => m !== 'stack' && m !== 'wholeJunk')));
    return v;
  }
  const all = paths(root);
  const containers = all.filter((p) => {
    const v = get(root, p);
    return v !== null && typeof v === 'object';
  });
  switch (kind) {
    case 'replace': {
      const p = rng.pick(all);
      if (p.length === 0) return junkValue(rng, root);
      set(root, p, junkValue(rng, get(root, p)));
      return root;
    }
    case 'delete': {
      const p = all.length > 1 ? rng.pick(all.slice(1)) : undefined;
      if (!p) return root;
      const parent = get(root, p.slice(0, -1));
      const last = p[p.length - 1]!;
      if (Array.isArray(parent)) parent.splice(last as number, 1);
      else delete parent[last];
      return root;
    }
    case 'extraKey':
    case 'forbiddenKey': {
      const objects = containers.filter((p) => !Array.isArray(get(root, p)));
      if (objects.length === 0) return root;
      const obj = get(root, rng.pick(objects));
      const key =
        kind === 'forbiddenKey'
          ? rng.pick(FORBIDDEN)
          : rng.pick(['extra', 'type', 'Type', 'amount ', '', 'toString', 'hasOwnProperty', 'k'.repeat(300)]);
      setOwn(obj, key, kind === 'forbiddenKey' && rng.bool(0.5) ? { polluted: true } : junkValue(rng));
      return root;
    }
    case 'arrayGrow':
    case 'arrayShrink': {
      const arrays = containers.filter((p) => Array.isArray(get(root, p)));
      if (arrays.length === 0) return root;
      const arr: J[] = get(root, rng.pick(arrays));
      if (kind === 'arrayShrink') arr.splice(rng.int(arr.length + 1), arr.length === 0 ? 0 : 1 + rng.int(arr.length));
      else if (arr.length > 0) {
        const item = arr[rng.int(arr.length)];
        // up to 300 copies, but never more than ~256 KB of new text (stacked mutations would grow exponentially)
        const size = JSON.stringify(item)?.length ?? 4;
        const copies = Math.min(rng.bool(0.7) ? 1 : 1 + rng.int(300), Math.max(1, Math.floor(256_000 / size)));
        for (let i = 0; i < copies; i++) arr.splice(rng.int(arr.length + 1), 0, JSON.parse(JSON.stringify(item)));
      } else arr.push(junkValue(rng));
      return root;
    }
    case 'typeTag': {
      const typed = containers.filter((p) => typeof get(root, p)?.type === 'number');
      if (typed.length === 0) return root;
      get(root, rng.pick(typed)).type = rng.pick([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 32, 255, 256, -1]);
      return root;
    }
  }
}

function get(root: J, p: (string | number)[]): J {
  let v = root;
  for (const k of p) v = v[k];
  return v;
}

function set(root: J, p: (string | number)[], value: J): void {
  const parent = get(root, p.slice(0, -1));
  const key = p[p.length - 1]!;
  if (typeof key === 'string') setOwn(parent, key, value);
  else parent[key] = value;
}
