/**
 * What a bootstrapping node checks before it trusts a peer's snapshot (docs/decisions.md §30), against the network it
 * was told about: the genesis file given with `--genesis-keys` (network name, token supply, HRP and the milestone keys
 * with their ranges and threshold, as Hornet takes its key ranges from its own configuration).
 *
 *  1. The offer's milestone block, before a byte of the file is fetched: strictly decoded, nonce 0, a milestone payload
 *     of the offered index (syntactic rules of its payload), above the genesis milestone, signed by enough applicable
 *     keys of the trusted ranges.
 *  2. The file: its size and BLAKE2b-256 are the offered ones (client.ts), then format.ts reads it: the layout, every
 *     output as a genesis output, ascending unique output IDs, nothing booked after the snapshot's milestone.
 *  3. The head names that milestone (index, timestamp, milestone ID, block ID), the trusted network, token supply and
 *     HRP, and exactly the trusted milestone keys; outputs plus treasury hold exactly the token supply (Hornet's
 *     CheckLedgerState); the ledger state hash computed here is the offered one.
 *
 * What stays trusted: that the unspent outputs are the network's at that milestone. No milestone commits to a whole
 * ledger (TIP-29's appliedMerkleRoot covers one milestone's mutations), so a peer could hand over a ledger with, e.g.,
 * one output's address changed. Such a lie surfaces as soon as a later milestone spends or creates around it (its
 * recomputed appliedMerkleRoot differs and the node stops confirming) and, before that, when another peer's ledger
 * state hash for the same milestone differs (src/node/bootstrap.ts asks the other configured peers).
 */
import { equalBytes, toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { blockId as blockIdOf, milestoneIdOf, verifyMilestoneSignatures } from '../../core/ids/index.ts';
import { milestonePayloadOf } from '../../core/ledger/index.ts';
import { checkMilestone } from '../../core/validation/milestone.ts';
import type { Genesis } from '../genesis/genesis.ts';
import type { SnapshotReading } from './format.ts';

/** A peer's snapshot or its bytes were refused (the reason is what the log says); the node tries the next peer. */
export class BootstrapRefusal extends Error {}

export function refuse(reason: string): never {
  throw new BootstrapRefusal(reason);
}

/** The milestone an offer's block carries, once verified. */
export interface VerifiedMilestone {
  index: number;
  timestamp: number;
  milestoneId: Uint8Array;
  blockId: Uint8Array;
}

/** Step 1: the offer's milestone block against the trusted keys (throws a BootstrapRefusal naming the problem). */
export function verifyMilestoneBlock(bytes: Uint8Array, index: number, trusted: Genesis): VerifiedMilestone {
  if (bytes.length === 0) refuse('the offer carries no milestone block');
  let ms: ReturnType<typeof milestonePayloadOf>;
  try {
    const block = decodeBlock(bytes);
    ms = milestonePayloadOf(block);
    if (block.nonce !== 0n) refuse(`the milestone block has nonce ${block.nonce}, not 0`);
    checkMilestone(ms, block.parents, 'payload');
  } catch (e) {
    refuse(`the offered milestone block is invalid: ${(e as Error).message}`);
  }
  if (ms.index !== index) refuse(`the offered milestone block carries milestone ${ms.index}, not the offered ${index}`);
  if (ms.index <= trusted.milestone.index)
    refuse(`milestone ${ms.index} is not after the genesis milestone ${trusted.milestone.index}`);
  try {
    verifyMilestoneSignatures(ms, trusted.milestoneKeyRanges, trusted.milestonePublicKeyCount);
  } catch (e) {
    refuse(`milestone ${ms.index} is not signed by the network's milestone keys: ${(e as Error).message}`);
  }
  return { index: ms.index, timestamp: ms.timestamp, milestoneId: milestoneIdOf(ms), blockId: blockIdOf(bytes) };
}

/** Step 3, on the head alone (before the outputs are read). */
export function verifyHead(head: Genesis, milestone: VerifiedMilestone, trusted: Genesis): void {
  const m = head.milestone;
  if (m.index !== milestone.index)
    refuse(`the file is the snapshot of milestone ${m.index}, the offer said ${milestone.index}`);
  if (m.timestamp !== milestone.timestamp)
    refuse(
      `the file says milestone ${m.index} has timestamp ${m.timestamp}, its signed payload ${milestone.timestamp}`,
    );
  if (!equalBytes(m.milestoneId, milestone.milestoneId))
    refuse(
      `the file's milestone ID ${toHex0x(m.milestoneId)} is ` +
        `not the signed milestone's ${toHex0x(milestone.milestoneId)}`,
    );
  if (!m.blockId || !equalBytes(m.blockId, milestone.blockId))
    refuse(`the file's milestone block ID is not the offered block's ${toHex0x(milestone.blockId)}`);
  const p = head.protocol;
  const t = trusted.protocol;
  if (p.networkName !== t.networkName) refuse(`the file is of network "${p.networkName}", not "${t.networkName}"`);
  if (p.bech32Hrp !== t.bech32Hrp || p.tokenSupply !== t.tokenSupply)
    refuse("the file's HRP or token supply differs from the network's genesis");
  const keys = (g: Genesis): string =>
    JSON.stringify([
      g.milestonePublicKeyCount,
      g.milestoneKeyRanges.map((r) => [toHex0x(r.publicKey), r.start, r.end]),
    ]);
  if (keys(head) !== keys(trusted)) refuse("the file names other milestone keys than the network's genesis");
}

/** Step 3, once the whole file was read: the supply and the ledger state hash. */
export function verifyLedger(reading: SnapshotReading, offeredLedgerHash: Uint8Array): void {
  const supply = reading.head.protocol.tokenSupply;
  if (reading.total !== supply)
    refuse(`its outputs and treasury hold ${reading.total}, not the token supply ${supply}`);
  if (!equalBytes(reading.ledgerHash, offeredLedgerHash))
    refuse(`its ledger state hash ${toHex0x(reading.ledgerHash)} is not the offered ${toHex0x(offeredLedgerHash)}`);
}
