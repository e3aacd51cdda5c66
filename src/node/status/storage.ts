/**
 * What runs out first (issue 27, hornet#523): the size of the data folder, the free space of its file system, and how
 * long that space lasts at the store's recent growth. `/info` (`storage`), the dashboard and the metrics show them.
 *
 * The folder is measured at most every `cacheMs` (a walk over the engine's files) and sampled every `sampleEveryMs`
 * into a window of `windowMs`; the growth rate is the store's change from the oldest sample of the window to the
 * newest, per hour, once the samples span `minSpanMs` (before that: not known yet). The time left is the free space
 * over that rate, when the store grows. A store that pruning holds steady shows no time left: it does not run out.
 */
import { readdir, stat, statfs } from 'node:fs/promises';
import { join } from 'node:path';

export interface DiskFigures {
  /** Bytes of the regular files below the data folder. */
  databaseBytes: number;
  /** Bytes an unprivileged writer may still use on its file system (`statfs` bavail; 0: unknown). */
  diskFreeBytes: number;
  /** Bytes of that file system (0: unknown). */
  diskSizeBytes: number;
}

export interface StorageFigures extends DiskFigures {
  /** The store's growth over the window, bytes per hour (undefined until the samples span `minSpanMs`). */
  growthBytesPerHour?: number;
  /** Seconds until the free space is gone at that growth (undefined when the store does not grow). */
  secondsUntilFull?: number;
}

export interface StorageWatchOptions {
  sampleEveryMs?: number;
  windowMs?: number;
  minSpanMs?: number;
  cacheMs?: number;
  now?: () => number;
  /** The measurement (tests give their own); the data folder's by default. */
  measure?: () => Promise<DiskFigures>;
}

export const STORAGE_WATCH_DEFAULTS = {
  sampleEveryMs: 60_000,
  windowMs: 6 * 3600_000,
  minSpanMs: 10 * 60_000,
  cacheMs: 10_000,
};

/** Bytes of the regular files below `dir`. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    try {
      if (e.isDirectory()) total += await folderBytes(p);
      else if (e.isFile()) total += (await stat(p)).size;
    } catch {
      // a file the engine removed meanwhile (compaction)
    }
  }
  return total;
}

/** The data folder's size and its file system's free and whole size (zeros for what cannot be read). */
export async function measureDataDir(dir: string): Promise<DiskFigures> {
  const fs = await statfs(dir).catch(() => undefined);
  return {
    databaseBytes: await folderBytes(dir).catch(() => 0),
    diskFreeBytes: fs ? fs.bavail * fs.bsize : 0,
    diskSizeBytes: fs ? fs.blocks * fs.bsize : 0,
  };
}

export class StorageWatch {
  private readonly o: typeof STORAGE_WATCH_DEFAULTS;
  private readonly now: () => number;
  private readonly measureNow: () => Promise<DiskFigures>;
  private cached: { at: number; figures: Promise<DiskFigures> } | undefined;
  private readonly samples: { at: number; bytes: number }[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(dir: string, options: StorageWatchOptions = {}) {
    const { now, measure, ...rest } = options;
    this.o = { ...STORAGE_WATCH_DEFAULTS, ...rest };
    this.now = now ?? Date.now;
    this.measureNow = measure ?? (() => measureDataDir(dir));
  }

  /** Takes a first sample now and one every `sampleEveryMs` until `stop`. */
  start(): void {
    if (this.timer) return;
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.o.sampleEveryMs);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The figures now (measured at most every `cacheMs`). */
  measure(): Promise<DiskFigures> {
    const at = this.now();
    if (!this.cached || at - this.cached.at >= this.o.cacheMs) this.cached = { at, figures: this.measureNow() };
    return this.cached.figures;
  }

  /** The figures now with the growth over the window and the time left at it. */
  async figures(): Promise<StorageFigures> {
    const now = await this.measure();
    const out: StorageFigures = { ...now };
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (first && last && last.at - first.at >= this.o.minSpanMs) {
      const perHour = ((last.bytes - first.bytes) / (last.at - first.at)) * 3600_000;
      out.growthBytesPerHour = Math.round(perHour);
      if (perHour > 0 && now.diskFreeBytes > 0) out.secondsUntilFull = Math.round((now.diskFreeBytes / perHour) * 3600);
    }
    return out;
  }

  /** Records one sample (the timer calls it; tests too). */
  async sample(): Promise<void> {
    const at = this.now();
    this.cached = { at, figures: this.measureNow() };
    const { databaseBytes } = await this.cached.figures;
    this.samples.push({ at, bytes: databaseBytes });
    while (this.samples.length > 2 && at - this.samples[0]!.at > this.o.windowMs) this.samples.shift();
  }
}
