/**
 * What the replay of the real Shimmer milestones 17339-17341 needs, derived once from the vector file
 * (test/vectors/stardust/shimmer_mainnet_milestones_17339_17341.json): the cones in
 * White-Flag order, the milestone payloads and blocks (17339's and 17340's are real blocks inside the next
 * cone; 17341's is rebuilt from its payload with nonce 0), the blocks the cones point to outside every cone (solid
 * entry points), milestone 17338's block (the ledger's last milestone), Shimmer's parameters and milestone keys, and
 * the consumed outputs that exist before 17339 (4 of the 27 are created by the replay itself). Used by the core
 * ledger replay and by the replay through the whole node.
 */
import { fromHex0x, toHex } from '../../src/core/bytes.ts';
import { decodeBlock, decodeCommonOutput, encodeBlock } from '../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../src/core/ids/index.ts';
import { payloadFromJson } from '../../src/core/json/index.ts';
import type { Block, CommonOutput, MilestonePayload, ProtocolParameters } from '../../src/core/model/index.ts';
import { loadVectors } from '../../harness/vectors.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ReplayBlock {
  id: Uint8Array;
  bytes: Uint8Array;
  block: Block;
}

export interface ShimmerReplay {
  file: Json;
  milestones: Json[];
  cones: ReplayBlock[][];
  payloads: MilestonePayload[];
  /** The milestone blocks of 17339..17341; `real` is false for the rebuilt one. */
  milestoneBlocks: (ReplayBlock & { real: boolean })[];
  /** Milestone 17338's block (in the first cone): the last milestone before the replay. */
  previous: ReplayBlock;
  solidEntryPoints: Uint8Array[];
  protocol: ProtocolParameters;
  keyRanges: { publicKey: Uint8Array; start: number; end: number }[];
  threshold: number;
  /** All 27 consumed outputs (output ID hex, vector entry). */
  consumed: [string, Json][];
  /** The consumed outputs that exist before 17339: the starting unspent set. */
  startingOutputs: { outputId: Uint8Array; output: CommonOutput }[];
}

let cached: ShimmerReplay | undefined;

export function shimmerReplay(): ShimmerReplay {
  if (cached) return cached;
  const file: Json = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
  const milestones: Json[] = file.milestones;
  const cones: ReplayBlock[][] = milestones.map((m) =>
    m.coneInWhiteFlagOrder.map((b: Json) => {
      const bytes = fromHex0x('0x' + b.bytes);
      return { id: fromHex0x(b.blockId), bytes, block: decodeBlock(bytes) };
    }),
  );
  const inCones = new Set(cones.flat().map((c) => toHex(c.id)));
  const payloads = milestones.map((m) => payloadFromJson(m.milestonePayloadJson) as MilestonePayload);
  const seps = new Map<string, Uint8Array>();
  for (const parents of [...cones.flat().map((c) => c.block.parents), ...payloads.map((p) => p.parents)]) {
    for (const p of parents) if (!inCones.has(toHex(p))) seps.set(toHex(p), p);
  }
  const milestoneIn = (index: number) =>
    cones.flat().find((c) => c.block.payload?.type === 7 && c.block.payload.index === index);
  const milestoneBlocks = payloads.map((p) => {
    const found = milestoneIn(p.index);
    if (found) return { ...found, real: true };
    const block: Block = { protocolVersion: 2, parents: p.parents, payload: p, nonce: 0n };
    const bytes = encodeBlock(block);
    return { id: blockIdOf(bytes), bytes, block, real: false };
  });
  const createdTx = new Set(milestones.flatMap((m) => m.createdOutputTransactionIdsInSource as string[]));
  const consumed: [string, Json][] = milestones.flatMap((m) => Object.entries(m.derived.referencedInputOutputs));
  const p = file.protocolParametersInSource;
  cached = {
    file,
    milestones,
    cones,
    payloads,
    milestoneBlocks,
    previous: milestoneIn(milestones[0].index - 1)!,
    solidEntryPoints: [...seps.values()],
    protocol: {
      version: p.version,
      networkName: p.network_name,
      bech32Hrp: p.bech32_hrp,
      minPowScore: p.min_pow_score,
      belowMaxDepth: p.below_max_depth,
      rentStructure: {
        vByteCost: p.rent_structure.v_byte_cost,
        vByteFactorData: p.rent_structure.v_byte_factor_data,
        vByteFactorKey: p.rent_structure.v_byte_factor_key,
      },
      tokenSupply: BigInt(p.token_supply),
    },
    keyRanges: file.nodeConfigInSource.keyRanges.map((k: Json) => ({
      publicKey: fromHex0x(k.public_key),
      start: k.start,
      end: k.end,
    })),
    threshold: file.nodeConfigInSource.milestonePublicKeyCount,
    consumed,
    startingOutputs: consumed
      .filter(([id]) => !createdTx.has(id.slice(0, 66)))
      .map(([id, o]) => ({ outputId: fromHex0x(id), output: decodeCommonOutput(fromHex0x('0x' + o.outputBytes)) })),
  };
  return cached;
}
