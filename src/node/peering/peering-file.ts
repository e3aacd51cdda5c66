/**
 * The peers added at run time (`POST /api/core/v2/peers`), kept in `DATA_DIR/peering.json` so that a restart dials
 * them again, as Hornet does since it lost them too (hornet#888, #893). `DELETE` removes a peer from the file for good.
 * Each entry keeps the peer's identity key: the one it was added with (`0xPUBKEY@HOST:PORT`), else the one it proved
 * at its first handshake; after a restart only that key is accepted from the address (re-add a peer whose key
 * changed). The `--peer` flags and the config file's `peers` are not written here: they are dialed at every start
 * from the configuration, and the file adds its peers to them (an address in both is dialed once, as the flag says,
 * with the file's alias).
 *
 * The file is `{"peers": [{"address": "HOST:PORT", "alias"?: "...", "identity"?: "0x<32-byte key>"}]}`, written
 * whole to a temporary file, synced and renamed over the old one, so a crash leaves the old or the new list. A file
 * that does not parse stops the start with its path and the reason: a list the operator built is not dropped silently.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { toHex0x } from '../../core/bytes.ts';
import { peerTarget } from './addresses.ts';

export const PEERING_FILE = 'peering.json';

export interface SavedPeer {
  /** The dial address (`HOST:PORT`, as peerTarget normalizes it). */
  address: string;
  alias?: string;
  /** The identity public key, 0x-hex. */
  identity?: string;
}

const KEY = /^0x[0-9a-f]{64}$/;

/** The entries of a peering.json text; throws with the reason when it is not one. */
export function parsePeeringFile(text: string): SavedPeer[] {
  const doc = JSON.parse(text) as unknown;
  if (typeof doc !== 'object' || doc === null || !Array.isArray((doc as { peers?: unknown }).peers))
    throw new Error('expected {"peers": [...]}');
  return (doc as { peers: unknown[] }).peers.map((raw, i) => {
    const e = raw as Record<string, unknown>;
    if (typeof e !== 'object' || e === null || typeof e.address !== 'string')
      throw new Error(`peers[${i}]: expected an object with an address`);
    let target: ReturnType<typeof peerTarget>;
    try {
      target = peerTarget(e.address);
    } catch (err) {
      throw new Error(`peers[${i}].address: ${(err as Error).message}`);
    }
    const out: SavedPeer = { address: target.address };
    if (target.publicKey) out.identity = toHex0x(target.publicKey);
    if (e.alias !== undefined) {
      if (typeof e.alias !== 'string') throw new Error(`peers[${i}].alias: expected a string`);
      out.alias = e.alias;
    }
    if (e.identity !== undefined) {
      if (typeof e.identity !== 'string' || !KEY.test(e.identity.toLowerCase()))
        throw new Error(`peers[${i}].identity: expected a 0x-prefixed 32-byte hex key`);
      out.identity = e.identity.toLowerCase();
    }
    return out;
  });
}

export class PeeringFile {
  private entries: SavedPeer[];

  private constructor(
    readonly path: string,
    entries: SavedPeer[],
  ) {
    this.entries = entries;
  }

  /** The file of `dataDir` (no file yet: an empty list). Throws, naming the file, when it cannot be read as one. */
  static open(dataDir: string): PeeringFile {
    const path = join(dataDir, PEERING_FILE);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new PeeringFile(path, []);
      throw new Error(`cannot read ${path}: ${(e as Error).message}`);
    }
    try {
      return new PeeringFile(path, parsePeeringFile(text));
    } catch (e) {
      throw new Error(`${path} is not a peering file: ${(e as Error).message} (fix or remove it)`);
    }
  }

  /** The saved peers, as `--peer` values (`0xKEY@HOST:PORT` with an identity) and their aliases. */
  peers(): readonly SavedPeer[] {
    return this.entries;
  }

  /** Adds or updates a peer (a new alias or identity replaces the saved one) and writes the file. */
  save(peer: SavedPeer): void {
    const i = this.entries.findIndex((e) => e.address === peer.address);
    const merged = i < 0 ? peer : { ...this.entries[i], ...peer };
    this.entries = i < 0 ? [...this.entries, merged] : this.entries.map((e, j) => (j === i ? merged : e));
    this.write();
  }

  /** Records the identity a saved peer proved, unless it has one already; writes only on a change. */
  learned(address: string, identity: string): void {
    const e = this.entries.find((x) => x.address === address);
    if (e === undefined || e.identity !== undefined) return;
    this.save({ address, identity: identity.toLowerCase() });
  }

  /** Removes the peers of `address` or `identity`; writes the file when one was there. True when one was. */
  remove(match: { address?: string; identity?: string }): boolean {
    const kept = this.entries.filter(
      (e) => !(e.address === match.address || (match.identity !== undefined && e.identity === match.identity)),
    );
    if (kept.length === this.entries.length) return false;
    this.entries = kept;
    this.write();
    return true;
  }

  private write(): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify({ peers: this.entries }, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    const dir = openSync(dirname(this.path), 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
}
