/**
 * Proto <-> model mapping, written once (tables in ./mapping/stardust.ts) and shared by the node's service and
 * every other gRPC user. u64 = uint64 (bigint both sides); u256 = 32 bytes big-endian; IDs = raw bytes.
 * Conversions check integer widths, fixed byte lengths, required messages and allowed kinds, and reject with a
 * ProtocolError naming the field path (`block.payload.essence.outputs[1].amount`) and the value.
 */
import type { Block, ProtocolParameters, ProtocolParamsMilestoneOption } from '../core/model/index.ts';
import type * as pb from './gen/stardust.ts';
import * as codecs from './mapping/stardust.ts';

export { codecs };
export { u256ToBytes, u256FromBytes, type Codec } from './mapping/codec.ts';

export function blockToProto(block: Block, path = 'block'): pb.Block {
  return codecs.block.toProto(block, path);
}

export function blockFromProto(msg: pb.Block | undefined, path = 'block'): Block {
  return codecs.block.fromProto(msg, path);
}

export function protocolParametersToProto(params: ProtocolParameters, path = 'protocol'): pb.ProtocolParameters {
  return codecs.protocolParameters.toProto(params, path);
}

export function protocolParametersFromProto(
  msg: pb.ProtocolParameters | undefined,
  path = 'protocol',
): ProtocolParameters {
  return codecs.protocolParameters.fromProto(msg, path);
}

/** Pending protocol parameters of the info answer are Protocol Parameters milestone options. */
export function protocolParamsOptionToProto(
  option: ProtocolParamsMilestoneOption,
  path = 'option',
): pb.ProtocolParamsMilestoneOption {
  return codecs.protocolParamsMilestoneOption.toProto(option, path);
}

export function protocolParamsOptionFromProto(
  msg: pb.ProtocolParamsMilestoneOption | undefined,
  path = 'option',
): ProtocolParamsMilestoneOption {
  return codecs.protocolParamsMilestoneOption.fromProto(msg, path);
}
