/**
 * Model-level identifiers (codec + byte-level definitions) against the same real vectors, and agreement with the
 * byte-level results.
 */
import { expect } from 'chai';
import { fromHex, toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, decodeOutput, decodePayload } from '../../../src/core/codec/index.ts';
import { ed25519Verify } from '../../../src/core/crypto/index.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import {
  blockId,
  blockIdOf,
  essenceHash,
  inputsCommitmentOf,
  milestoneIdOf,
  outputId,
  transactionIdOf,
  verifyMilestoneSignatures,
  type MilestoneKeyRange,
} from '../../../src/core/ids/index.ts';
import {
  PAYLOAD_MILESTONE,
  PAYLOAD_TRANSACTION,
  SIGNATURE_ED25519,
  UNLOCK_SIGNATURE,
  type MilestonePayload,
  type Block,
  type TransactionPayload,
} from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

const blocks = loadVectors('stardust/blocks.json');
const milestones = loadVectors('stardust/milestones.json');
const transactions = loadVectors('stardust/transactions.json');
const shimmer = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');

const keyRanges: MilestoneKeyRange[] = shimmer.nodeConfigInSource.keyRanges.map(
  (r: { public_key: string; start: number; end: number }) => ({
    publicKey: fromHex(r.public_key),
    start: r.start,
    end: r.end,
  }),
);
const threshold: number = shimmer.nodeConfigInSource.milestonePublicKeyCount;

function ownKeys(ms: MilestonePayload): MilestoneKeyRange[] {
  return ms.signatures.map((s) => ({ publicKey: s.publicKey, start: 0, end: 0 }));
}

/** The model of a milestone payload from its JSON (the real ones have no metadata and no options). */
function milestoneFromJson(j: {
  index: number;
  timestamp: number;
  protocolVersion: number;
  previousMilestoneId: string;
  parents: string[];
  inclusionMerkleRoot: string;
  appliedMerkleRoot: string;
  signatures: { publicKey: string; signature: string }[];
}): MilestonePayload {
  return {
    type: PAYLOAD_MILESTONE,
    index: j.index,
    timestamp: j.timestamp,
    protocolVersion: j.protocolVersion,
    previousMilestoneId: fromHex(j.previousMilestoneId),
    parents: j.parents.map((p) => fromHex(p)),
    inclusionMerkleRoot: fromHex(j.inclusionMerkleRoot),
    appliedMerkleRoot: fromHex(j.appliedMerkleRoot),
    metadata: new Uint8Array(0),
    options: [],
    signatures: j.signatures.map((s) => ({
      type: SIGNATURE_ED25519,
      publicKey: fromHex(s.publicKey),
      signature: fromHex(s.signature),
    })),
  };
}

function signaturesOf(tx: TransactionPayload) {
  return tx.unlocks.flatMap((u, i) => (u.type === UNLOCK_SIGNATURE ? [{ position: i, ...u.signature }] : []));
}

describe('ids of models (codec-based)', () => {
  describe('blocks.json', () => {
    for (const v of blocks.vectors) {
      it(`${v.name}`, () => {
        const block = decodeBlock(fromHex(v.bytes));
        expect(toHex0x(blockIdOf(block))).to.equal(v.derived.blockId);
        const p = block.payload;
        if (v.derived.transactionId) {
          expect(p?.type).to.equal(PAYLOAD_TRANSACTION);
          const tx = p as TransactionPayload;
          expect(toHex0x(transactionIdOf(tx))).to.equal(v.derived.transactionId);
          const hash = essenceHash(tx.essence);
          expect(toHex0x(hash)).to.equal(v.derived.essenceHash);
          expect(signaturesOf(tx).map((s) => ed25519Verify(s.publicKey, hash, s.signature))).to.deep.equal(
            v.derived.signatureUnlocksValid,
          );
        }
        if (v.derived.milestoneId) {
          expect(p?.type).to.equal(PAYLOAD_MILESTONE);
          const ms = p as MilestonePayload;
          expect(toHex0x(milestoneIdOf(ms))).to.equal(v.derived.milestoneId);
          verifyMilestoneSignatures(ms, ownKeys(ms), ms.signatures.length);
          if (v.name.startsWith('shimmer')) verifyMilestoneSignatures(ms, keyRanges, threshold);
        }
      });
    }
  });

  describe('milestones.json', () => {
    it('iota.js milestoneHelper: IDs reproduce; its signatures do not verify (docs/protocol.md §20.15)', () => {
      const v = milestones.vectors[0];
      const block = decodeBlock(fromHex(v.derived.blockHex));
      expect(toHex0x(blockIdOf(block))).to.equal(v.blockIdOfBlockWithProtocolVersion2AndNonce0);
      const ms = block.payload as MilestonePayload;
      expect(toHex0x(milestoneIdOf(ms))).to.equal(v.milestoneId);
      expect(() => verifyMilestoneSignatures(ms, ownKeys(ms), 1))
        .to.throw(ProtocolError, /does not verify/)
        .with.property('code', 'INVALID_SIGNATURE');
    });

    for (const v of milestones.vectors.slice(1)) {
      it(`${v.name}: milestone ID`, () => {
        const ms = decodePayload(fromHex(v.payloadBytes)) as MilestonePayload;
        expect(toHex0x(milestoneIdOf(ms))).to.equal(v.derived.milestoneId);
      });
    }
  });

  describe('transactions.json', () => {
    it('iota-sdk signed transaction: transaction ID, essence hash, signature', () => {
      const v = transactions.vectors[0];
      const tx = decodePayload(fromHex(v.derived.transactionPayloadHex)) as TransactionPayload;
      expect(toHex0x(transactionIdOf(tx))).to.equal(v.derived.transactionId);
      const hash = essenceHash(tx.essence);
      expect(toHex0x(hash)).to.equal(v.derived.essenceHash);
      for (const s of signaturesOf(tx)) expect(ed25519Verify(s.publicKey, hash, s.signature)).to.equal(true);
    });

    it('iota-sdk prepared transaction: inputs commitment of the consumed output model', () => {
      const v = transactions.vectors[1];
      expect(toHex0x(inputsCommitmentOf([decodeOutput(fromHex(v.derived.inputOutputHex))]))).to.equal(
        v.essenceJson.inputsCommitment,
      );
    });
  });

  describe('real Shimmer milestones 17339..17341', () => {
    const cones: { expected: string; bytes: Uint8Array; block: Block }[][] = shimmer.milestones.map(
      (m: { coneInWhiteFlagOrder: { blockId: string; bytes: string }[] }) =>
        m.coneInWhiteFlagOrder.map((b) => ({
          expected: b.blockId,
          bytes: fromHex(b.bytes),
          block: decodeBlock(fromHex(b.bytes)),
        })),
    );
    const referenced = new Map<string, Uint8Array>();
    for (const m of shimmer.milestones) {
      for (const [id, o] of Object.entries(m.derived.referencedInputOutputs as Record<string, { outputBytes: string }>))
        referenced.set(id, fromHex(o.outputBytes));
    }

    it('112 block IDs of the decoded blocks equal the byte-level IDs', () => {
      const all = cones.flat();
      expect(all).to.have.length(112);
      for (const b of all) {
        expect(toHex0x(blockIdOf(b.block))).to.equal(b.expected);
        expect(toHex0x(blockId(b.bytes))).to.equal(b.expected);
      }
    });

    it('16 transactions: ID, essence hash, signatures, inputs commitment from the consumed output models', () => {
      let n = 0;
      shimmer.milestones.forEach(
        (
          m: {
            createdOutputTransactionIdsInSource: string[];
            derived: { transactions: { blockId: string; transactionId: string; essenceHash: string }[] };
          },
          mi: number,
        ) => {
          const derived = new Map(m.derived.transactions.map((t) => [t.blockId, t]));
          for (const b of cones[mi]!) {
            if (b.block.payload?.type !== PAYLOAD_TRANSACTION) continue;
            const tx = b.block.payload;
            const id = toHex0x(transactionIdOf(tx));
            expect(m.createdOutputTransactionIdsInSource).to.include(id);
            expect(id).to.equal(derived.get(b.expected)!.transactionId);
            const hash = essenceHash(tx.essence);
            expect(toHex0x(hash)).to.equal(derived.get(b.expected)!.essenceHash);
            const sigs = signaturesOf(tx);
            expect(sigs.length).to.be.greaterThan(0);
            for (const s of sigs) expect(ed25519Verify(s.publicKey, hash, s.signature)).to.equal(true);
            const consumed = tx.essence.inputs.map((i) =>
              decodeOutput(referenced.get(toHex0x(outputId(i.transactionId, i.transactionOutputIndex)))!),
            );
            expect(toHex0x(inputsCommitmentOf(consumed))).to.equal(toHex0x(tx.essence.inputsCommitment));
            n++;
          }
        },
      );
      expect(n).to.equal(16);
    });

    it(
      '3 milestone payloads (from JSON) have the source IDs and pass the Shimmer keys with threshold 7; ' +
        'the 3 earlier ones in the cones too',
      () => {
        for (const m of shimmer.milestones) {
          const ms = milestoneFromJson(m.milestonePayloadJson);
          expect(toHex0x(milestoneIdOf(ms))).to.equal(m.milestoneIdInSource);
          verifyMilestoneSignatures(ms, keyRanges, threshold);
        }
        const inCones = cones.flat().filter((b) => b.block.payload?.type === PAYLOAD_MILESTONE);
        expect(inCones.map((b) => (b.block.payload as MilestonePayload).index)).to.deep.equal([17338, 17339, 17340]);
        for (const b of inCones) verifyMilestoneSignatures(b.block.payload as MilestonePayload, keyRanges, threshold);
      },
    );

    it('a tampered milestone, a wrong key set, too few or unsorted signatures are rejected (INVALID_SIGNATURE)', () => {
      const ms = milestoneFromJson(shimmer.milestones[2].milestonePayloadJson);
      const bad = (m: MilestonePayload, ranges: MilestoneKeyRange[], t: number, re: RegExp) =>
        expect(() => verifyMilestoneSignatures(m, ranges, t))
          .to.throw(ProtocolError, re)
          .with.property('code', 'INVALID_SIGNATURE');
      bad({ ...ms, timestamp: ms.timestamp + 1 }, keyRanges, threshold, /does not verify/);
      bad({ ...ms, appliedMerkleRoot: new Uint8Array(32) }, keyRanges, threshold, /does not verify/);
      bad(
        ms,
        keyRanges.slice(0, 9).concat([{ publicKey: new Uint8Array(32).fill(7), start: 0, end: 0 }]),
        threshold,
        /not applicable/,
      );
      bad(
        ms,
        keyRanges.map((r) => ({ ...r, end: 100 })),
        threshold,
        /only 0 public keys apply/,
      );
      bad({ ...ms, signatures: ms.signatures.slice(0, 6) }, keyRanges, threshold, /6 signatures, the threshold is 7/);
      bad({ ...ms, signatures: [...ms.signatures].reverse() }, keyRanges, threshold, /not sorted/);
      // exactly the threshold is enough
      verifyMilestoneSignatures({ ...ms, signatures: ms.signatures.slice(3) }, keyRanges, threshold);
    });
  });
});
