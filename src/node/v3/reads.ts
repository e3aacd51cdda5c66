/**
 * The v3 reads of TIP-48 beyond a block and its metadata (issue 24), answered from the engine's own data: a block
 * with its metadata, a transaction's metadata, the included block's metadata. Every read runs in the engine's queue
 * (`engine.read`), so it sees whole changes and the committable slots.
 */
import { toHex0x } from '../../core/bytes.ts';
import type { V3Engine } from './engine.ts';
import { key } from './network.ts';
import { blockMetadataJsonV3, transactionMetadataJsonV3, transactionMetadataV3 } from './states.ts';

export class V3Reads {
  constructor(private readonly engine: V3Engine) {}

  /** `/blocks/{id}/full`: `{block, metadata}` as JSON text. */
  blockWithMetadata(id: Uint8Array): Promise<string> {
    const e = this.engine;
    return e.read(async () => {
      const md = blockMetadataJsonV3(await e.blockMetadata(id));
      return `{"block":${e.blockJson(await e.blockBytes(id))},"metadata":${JSON.stringify(md)}}`;
    });
  }

  /** `/transactions/{id}/metadata`: NOT_FOUND for a transaction no stored block carries. */
  transactionMetadata(txId: Uint8Array): Promise<Record<string, unknown>> {
    const e = this.engine;
    return e.read(async () => {
      const r = e.ledger.transaction(key(txId));
      if (r === undefined) throw e.notFound(`transaction not found: ${toHex0x(txId)}`, txId);
      return transactionMetadataJsonV3(await transactionMetadataV3(key(txId), r, e.store, e.view));
    });
  }

  /** `/transactions/{id}/included-block/metadata`: NOT_FOUND as the included-block route. */
  includedBlockMetadata(txId: Uint8Array): Promise<Record<string, unknown>> {
    const e = this.engine;
    return e.read(async () => blockMetadataJsonV3(await e.blockMetadata(e.includedBlockId(txId))));
  }
}
