/** Block decoding with the checks that need the protocol parameters (docs/protocol.md §V3.6, §V5.7). */
import { reject } from '../errors.ts';
import { MAX_BLOCK_SIZE_V3 } from './model/codes.ts';
import type { BlockV3 } from './model/block.ts';
import type { ProtocolParametersV3 } from './model/params.ts';
import { decodeKind } from './codec/binary.ts';
import { kinds } from './codec/layouts.ts';
import { networkIdFromName } from './ids/network-id.ts';
import { checkTransactionParamsV3, type TransactionCheckParamsV3 } from './transaction-rules.ts';

/** The parameters block decoding checks against (a full ProtocolParametersV3 fits). */
export type BlockCheckParamsV3 = Pick<ProtocolParametersV3, 'version' | 'networkName'> & TransactionCheckParamsV3;

/**
 * Decodes a serialized block and checks it against the protocol parameters, as iota-core does for POST /blocks:
 * size ≤ 32768, header protocol version and network ID equal to the parameters', and for a signed transaction the
 * parameter-dependent transaction rules (`checkTransactionParamsV3`: network, storage deposits, supply, Mana
 * bounds). Time / commitment-age rules need the node's view of time: see `checkBlockTimingV3`.
 * Structural rules (bounds, allowed types, order, uniqueness, no trailing bytes) are the codec's.
 */
export function decodeBlockV3(bytes: Uint8Array, params: BlockCheckParamsV3): BlockV3 {
  if (bytes instanceof Uint8Array && bytes.length > MAX_BLOCK_SIZE_V3) {
    reject('BLOCK_TOO_LARGE', `Cannot decode block: ${bytes.length} bytes exceed the maximum of ${MAX_BLOCK_SIZE_V3}`, {
      value: String(bytes.length),
    });
  }
  const block = decodeKind(bytes, kinds.block, 'block') as BlockV3;
  checkBlockParamsV3(block, params);
  return block;
}

/** Header version and network ID must match the parameters; a signed transaction must pass checkTransactionParamsV3. */
export function checkBlockParamsV3(block: BlockV3, params: BlockCheckParamsV3): void {
  const h = block.header;
  if (h.protocolVersion !== params.version) {
    reject(
      'PROTOCOL_VERSION_MISMATCH',
      `Cannot accept block: protocolVersion ${h.protocolVersion} at offset 0, expected ${params.version}`,
      {
        field: 'header.protocolVersion',
        offset: 0,
        value: String(h.protocolVersion),
      },
    );
  }
  const networkId = networkIdFromName(params.networkName);
  if (h.networkId !== networkId) {
    reject(
      'NETWORK_ID_MISMATCH',
      `Cannot accept block: networkId ${h.networkId} at offset 1, expected ${networkId} (${params.networkName})`,
      {
        field: 'header.networkId',
        offset: 1,
        value: String(h.networkId),
      },
    );
  }
  const body = block.body;
  if (body.type === 0 && body.payload?.type === 1)
    checkTransactionParamsV3(body.payload.transaction, params, 'body.payload.transaction');
}
