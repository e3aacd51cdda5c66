/**
 * The real Shimmer mainnet milestones 17339..17341 with every block of their cones: every identifier, hash, signature
 * and Merkle root recomputed from the raw bytes with the byte-level functions.
 */
import { expect } from 'chai';
import { equalBytes, fromHex, toHex, toHex0x } from '../../../src/core/bytes.ts';
import { blake2b256, ed25519Verify } from '../../../src/core/crypto/index.ts';
import {
  blockId,
  essenceHashFromBytes,
  inputsCommitment,
  merkleRoot,
  milestoneIdFromEssence,
  transactionId,
  verifyMilestoneSignaturesOverId,
  type MilestoneKeyRange,
} from '../../../src/core/ids/index.ts';
import { SIGNATURE_ED25519, type Ed25519Signature } from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { sliceBlock, sliceMilestone, sliceTransaction, type SlicedBlock } from './slice.ts';

const data = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');

interface ConeBlock {
  whiteFlagIndex: number;
  blockId: string;
  inclusionState: string;
  bytes: string;
}
interface Milestone {
  index: number;
  milestoneIdInSource: string;
  milestonePayloadJson: {
    index: number;
    previousMilestoneId: string;
    parents: string[];
    inclusionMerkleRoot: string;
    appliedMerkleRoot: string;
    signatures: { type: number; publicKey: string; signature: string }[];
  };
  coneInWhiteFlagOrder: ConeBlock[];
  createdOutputTransactionIdsInSource: string[];
  derived: {
    milestoneEssenceHex: string;
    referencedInputOutputs: Record<string, { outputBytes: string }>;
  };
}

const milestones: Milestone[] = data.milestones;
const keyRanges: MilestoneKeyRange[] = data.nodeConfigInSource.keyRanges.map(
  (r: { public_key: string; start: number; end: number }) => ({
    publicKey: fromHex(r.public_key),
    start: r.start,
    end: r.end,
  }),
);
const threshold: number = data.nodeConfigInSource.milestonePublicKeyCount;

/** All cone blocks, each with its bytes, computed ID and sliced payload. */
const cones = milestones.map((m) =>
  [...m.coneInWhiteFlagOrder]
    .sort((a, b) => a.whiteFlagIndex - b.whiteFlagIndex)
    .map((b) => {
      const bytes = fromHex(b.bytes);
      return { ...b, raw: bytes, id: blockId(bytes), sliced: sliceBlock(bytes) as SlicedBlock };
    }),
);

/** Every transaction of every cone: the payload bytes between the payload-length prefix and the nonce. */
const txs = cones.flatMap((cone, mi) =>
  cone
    .filter((b) => b.sliced.payloadType === 6)
    .map((b) => ({
      milestone: milestones[mi]!,
      block: b,
      payload: b.sliced.payload!,
      tx: sliceTransaction(b.sliced.payload!),
    })),
);

/** All referenced (consumed) outputs by output ID hex. */
const referenced = new Map<string, Uint8Array>();
for (const m of milestones)
  for (const [id, o] of Object.entries(m.derived.referencedInputOutputs)) referenced.set(id, fromHex(o.outputBytes));

describe('ids: real Shimmer milestones 17339..17341', () => {
  it(
    'has 3 milestones, 112 cone blocks, 16 transactions, 27 distinct referenced outputs, ' +
      '10 Shimmer keys (threshold 7)',
    () => {
      expect(milestones.map((m) => m.index)).to.deep.equal([17339, 17340, 17341]);
      expect(cones.flat()).to.have.length(112);
      expect(txs).to.have.length(16);
      expect(txs.flatMap((t) => t.tx.inputs)).to.have.length(27);
      expect(referenced.size).to.equal(27);
      expect(keyRanges).to.have.length(10);
      expect(threshold).to.equal(7);
    },
  );

  it('all 112 block IDs = BLAKE2b-256 of the block bytes', () => {
    let n = 0;
    for (const b of cones.flat()) {
      expect(toHex0x(b.id), `white-flag index ${b.whiteFlagIndex}`).to.equal(b.blockId);
      n++;
    }
    expect(n).to.equal(112);
  });

  it('the 16 transaction IDs (payload bytes without length prefix) are those the ledger created outputs under', () => {
    for (let mi = 0; mi < 3; mi++) {
      const m = milestones[mi]!;
      const ids = txs.filter((t) => t.milestone === m).map((t) => toHex0x(transactionId(t.payload)));
      expect([...ids].sort(), `milestone ${m.index}`).to.deep.equal([...m.createdOutputTransactionIdsInSource].sort());
    }
    // and each transaction block is `included`
    for (const t of txs) expect(t.block.inclusionState).to.equal('included');
  });

  it(
    'the 3 milestone IDs: essence hash equals the source ID; ' +
      'the real milestone blocks in later cones carry those essences',
    () => {
      for (const m of milestones) {
        expect(
          toHex0x(milestoneIdFromEssence(fromHex(m.derived.milestoneEssenceHex))),
          `milestone ${m.index}`,
        ).to.equal(m.milestoneIdInSource);
      }
      // Each cone holds the block of the previous milestone: its essence, sliced from the real bytes, hashes to the
      // Previous Milestone ID of the milestone (17338 -> 17339, 17339 -> 17340, 17340 -> 17341).
      for (let mi = 0; mi < 3; mi++) {
        const m = milestones[mi]!;
        const msBlocks = cones[mi]!.filter((b) => b.sliced.payloadType === 7);
        expect(msBlocks, `milestone blocks in cone of ${m.index}`).to.have.length(1);
        const { essence } = sliceMilestone(msBlocks[0]!.sliced.payload!);
        expect(toHex0x(milestoneIdFromEssence(essence))).to.equal(m.milestonePayloadJson.previousMilestoneId);
        if (mi > 0) expect(toHex(essence)).to.equal(milestones[mi - 1]!.derived.milestoneEssenceHex);
      }
    },
  );

  it('all 30 milestone signatures verify against the Shimmer key ranges with threshold 7', () => {
    let count = 0;
    for (const m of milestones) {
      const id = fromHex(m.milestoneIdInSource);
      const signatures = m.milestonePayloadJson.signatures.map((s) =>
        ed25519Signature(fromHex(s.publicKey), fromHex(s.signature)),
      );
      verifyMilestoneSignaturesOverId(id, m.index, signatures, keyRanges, threshold);
      for (const s of signatures) expect(ed25519Verify(s.publicKey, id, s.signature)).to.equal(true);
      count += signatures.length;
    }
    expect(count).to.equal(30);
  });

  it('the signatures in the real milestone blocks (17338..17340, from bytes) verify too', () => {
    for (let mi = 0; mi < 3; mi++) {
      const block = cones[mi]!.find((b) => b.sliced.payloadType === 7)!;
      const ms = sliceMilestone(block.sliced.payload!);
      const index = new DataView(ms.essence.buffer, ms.essence.byteOffset).getUint32(0, true);
      expect(index).to.equal(milestones[mi]!.index - 1);
      const signatures = ms.signatures.map((s) => ed25519Signature(s.publicKey, s.signature));
      verifyMilestoneSignaturesOverId(milestoneIdFromEssence(ms.essence), index, signatures, keyRanges, threshold);
    }
  });

  it('16 inputs commitments, recomputed from the 27 consumed outputs in input order, equal the essence field', () => {
    for (const t of txs) {
      const consumed = t.tx.inputs.map((i) => {
        const bytes = referenced.get(toHex0x(i.outputId));
        expect(bytes, `output ${toHex0x(i.outputId)}`).to.not.equal(undefined);
        return bytes!;
      });
      expect(toHex0x(inputsCommitment(consumed))).to.equal(toHex0x(t.tx.inputsCommitment));
    }
  });

  it(
    'every transaction signature verifies over its essence hash, ' +
      'and its key hashes to an address in the consumed output',
    () => {
      let signatures = 0;
      for (const t of txs) {
        const hash = essenceHashFromBytes(t.tx.essence);
        const derived = (
          t.milestone as unknown as {
            derived: { transactions: { blockId: string; essenceHash: string; transactionId: string }[] };
          }
        ).derived.transactions.find((d) => d.blockId === toHex0x(t.block.id))!;
        expect(toHex0x(hash)).to.equal(derived.essenceHash);
        expect(toHex0x(transactionId(t.payload))).to.equal(derived.transactionId);
        expect(t.tx.signatureUnlocks.length, `tx in ${toHex0x(t.block.id)}`).to.be.greaterThan(0);
        for (const u of t.tx.signatureUnlocks) {
          expect(ed25519Verify(u.publicKey, hash, u.signature), `unlock ${u.position}`).to.equal(true);
          const owner = blake2b256(u.publicKey);
          const output = referenced.get(toHex0x(t.tx.inputs[u.position]!.outputId))!;
          expect(containsAddress(output, owner), `unlock ${u.position} owns its input`).to.equal(true);
          signatures++;
        }
      }
      expect(signatures).to.equal(16); // one Signature Unlock per transaction; the other 11 unlocks are references
    },
  );

  it('both Merkle roots of each milestone, recomputed from its cone in White-Flag order, are the payload roots', () => {
    for (let mi = 0; mi < 3; mi++) {
      const m = milestones[mi]!;
      const cone = cones[mi]!;
      expect(toHex0x(merkleRoot(cone.map((b) => b.id))), `inclusion ${m.index}`).to.equal(
        m.milestonePayloadJson.inclusionMerkleRoot,
      );
      const applied = cone.filter((b) => b.inclusionState === 'included').map((b) => b.id);
      expect(toHex0x(merkleRoot(applied)), `applied ${m.index}`).to.equal(m.milestonePayloadJson.appliedMerkleRoot);
      // order matters: reversing the cone gives a different root
      expect(toHex0x(merkleRoot([...cone].reverse().map((b) => b.id)))).to.not.equal(
        m.milestonePayloadJson.inclusionMerkleRoot,
      );
    }
  });

  it('White-Flag order is the post-order DFS from the milestone parents (parents in stored order, cone only)', () => {
    for (let mi = 0; mi < 3; mi++) {
      const m = milestones[mi]!;
      const byId = new Map(cones[mi]!.map((b) => [toHex0x(b.id), b]));
      const order: string[] = [];
      const seen = new Set<string>();
      const visit = (id: string): void => {
        const b = byId.get(id);
        if (!b || seen.has(id)) return; // outside the cone = referenced by an earlier milestone
        seen.add(id);
        for (const p of b.sliced.parents) visit(toHex0x(p));
        order.push(id);
      };
      for (const p of m.milestonePayloadJson.parents) visit(p);
      expect(order).to.deep.equal(cones[mi]!.map((b) => toHex0x(b.id)));
    }
  });
});

function ed25519Signature(publicKey: Uint8Array, signature: Uint8Array): Ed25519Signature {
  return { type: SIGNATURE_ED25519, publicKey, signature };
}

/** True when `output` contains the 33-byte Ed25519 address 0x00 ‖ hash (in an address unlock condition). */
function containsAddress(output: Uint8Array, hash: Uint8Array): boolean {
  for (let i = 0; i + 33 <= output.length; i++) {
    if (output[i] === 0 && equalBytes(output.subarray(i + 1, i + 33), hash)) return true;
  }
  return false;
}
