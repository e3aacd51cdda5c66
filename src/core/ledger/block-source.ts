/**
 * The cone block source over the node store: raw bytes from the `blocks` table (decoded strictly), "referenced" from
 * the block metadata or the ledger's solid entry points.
 */
import { toHex } from '../bytes.ts';
import { decodeBlock } from '../codec/block.ts';
import type { Block } from '../model/block.ts';
import type { NodeStore } from '../store/node-store.ts';
import type { ConeBlockSource } from './cone.ts';
import { LEDGER_META } from './ledger-meta.ts';

export class StoreBlockSource implements ConeBlockSource {
  private readonly store: NodeStore;
  private readonly entryPoints: Set<string>;

  private constructor(store: NodeStore, entryPoints: Set<string>) {
    this.store = store;
    this.entryPoints = entryPoints;
  }

  /** Reads the solid entry points once; they only change with a new snapshot. */
  static async open(store: NodeStore): Promise<StoreBlockSource> {
    const seps = (await store.getMeta(LEDGER_META.solidEntryPoints)) ?? [];
    return new StoreBlockSource(store, new Set(seps.map(toHex)));
  }

  async block(blockId: Uint8Array): Promise<Block | undefined> {
    const bytes = await this.store.getBlock(blockId);
    return bytes === undefined ? undefined : decodeBlock(bytes);
  }

  async isReferenced(blockId: Uint8Array): Promise<boolean> {
    if (this.entryPoints.has(toHex(blockId))) return true;
    const meta = await this.store.getBlockMetadata(blockId);
    return meta?.referenced !== undefined;
  }
}
