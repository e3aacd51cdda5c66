import { expect } from 'chai';
import { compareBytes, fromHex, toHex, toHex0x } from '../../../src/core/bytes.ts';
import {
  blake2b256,
  ed25519AddressFromPublicKey,
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
} from '../../../src/core/crypto/index.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import {
  applicableMilestoneKeys,
  bech32EncodeAddress,
  essenceHashFromBytes,
  milestoneIdFromEssence,
  verifyMilestoneSignaturesOverId,
  type MilestoneKeyRange,
} from '../../../src/core/ids/index.ts';
import { SIGNATURE_ED25519, type Ed25519Signature } from '../../../src/core/model/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { sliceBlock, sliceMilestone, sliceTransaction } from './slice.ts';

const transactions = loadVectors('stardust/transactions.json');
const blocks = loadVectors('stardust/blocks.json');
const milestones = loadVectors('stardust/milestones.json');
const shimmer = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');

const shimmerKeyRanges: MilestoneKeyRange[] = shimmer.nodeConfigInSource.keyRanges.map(
  (r: { public_key: string; start: number; end: number }) => ({
    publicKey: fromHex(r.public_key),
    start: r.start,
    end: r.end,
  }),
);
const shimmerThreshold: number = shimmer.nodeConfigInSource.milestonePublicKeyCount;

function sig(publicKey: Uint8Array, signature: Uint8Array): Ed25519Signature {
  return { type: SIGNATURE_ED25519, publicKey, signature };
}

function expectInvalidSignature(fn: () => void, pattern: RegExp): void {
  expect(fn).to.throw(ProtocolError, pattern).with.property('code', 'INVALID_SIGNATURE');
}

describe('signatures over IDs', () => {
  describe('transactions.json: essence hash and signature unlocks', () => {
    it('iota-sdk signed transaction: essence hash, the real signature verifies, signer address', () => {
      const v = transactions.vectors[0];
      const essence = fromHex(v.derived.essenceHex);
      const hash = essenceHashFromBytes(essence);
      expect(toHex0x(hash)).to.equal(v.derived.essenceHash);
      // the essence is exactly what the payload bytes carry
      const sliced = sliceTransaction(fromHex(v.derived.transactionPayloadHex));
      expect(toHex(sliced.essence)).to.equal(v.derived.essenceHex);
      const s = v.json.unlocks[0].signature;
      expect(ed25519Verify(fromHex(s.publicKey), hash, fromHex(s.signature))).to.equal(true);
      expect(toHex0x(ed25519AddressFromPublicKey(fromHex(s.publicKey)).pubKeyHash)).to.equal(
        v.derived.signerEd25519Address,
      );
      // tampering with any side breaks it
      const badHash = hash.slice();
      badHash[0] ^= 1;
      expect(ed25519Verify(fromHex(s.publicKey), badHash, fromHex(s.signature))).to.equal(false);
    });

    it('iota-sdk prepared transaction: the expected signature unlock verifies and its key owns the input', () => {
      const v = transactions.vectors[1];
      const hash = essenceHashFromBytes(fromHex(v.derived.essenceHex));
      expect(toHex0x(hash)).to.equal(v.derived.essenceHash);
      const s = v.expectedSignatureUnlock.signature;
      expect(ed25519Verify(fromHex(s.publicKey), hash, fromHex(s.signature))).to.equal(true);
      const addr = ed25519AddressFromPublicKey(fromHex(s.publicKey));
      expect(toHex0x(addr.pubKeyHash)).to.equal(v.inputOutputJson.unlockConditions[0].address.pubKeyHash);
      expect(bech32EncodeAddress('rms', addr)).to.equal(v.inputBech32Address);
    });

    it('iota.js essence byte vectors: essence hash', () => {
      for (const v of transactions.vectors.slice(2)) {
        expect(toHex0x(essenceHashFromBytes(fromHex(v.bytes))), v.name).to.equal(v.derived.essenceHash);
      }
    });

    it('refuses bytes that are not an essence', () => {
      expect(() => essenceHashFromBytes(fromHex('06000000'))).to.throw(RangeError);
    });
  });

  describe('blocks.json: transaction and milestone signatures', () => {
    for (const v of blocks.vectors.filter((b: { derived: { essenceHash?: string } }) => b.derived.essenceHash)) {
      const verify = JSON.stringify(v.derived.signatureUnlocksValid);
      it(`${v.name}: essence hash; signature unlocks verify = ${verify}`, () => {
        const tx = sliceTransaction(sliceBlock(v.bytes).payload!);
        const hash = essenceHashFromBytes(tx.essence);
        expect(toHex0x(hash)).to.equal(v.derived.essenceHash);
        expect(tx.signatureUnlocks.map((u) => ed25519Verify(u.publicKey, hash, u.signature))).to.deep.equal(
          v.derived.signatureUnlocksValid,
        );
      });
    }

    for (const v of blocks.vectors.filter((b: { derived: { milestoneId?: string } }) => b.derived.milestoneId)) {
      it(`${v.name}: milestone signatures verify over the milestone ID`, () => {
        const ms = sliceMilestone(sliceBlock(v.bytes).payload!);
        const id = milestoneIdFromEssence(ms.essence);
        expect(ms.signatures.map((s) => ed25519Verify(s.publicKey, id, s.signature))).to.deep.equal(
          v.derived.milestoneSignaturesValid,
        );
        const index = new DataView(ms.essence.buffer, ms.essence.byteOffset).getUint32(0, true);
        const signatures = ms.signatures.map((s) => sig(s.publicKey, s.signature));
        // The milestone's own keys as an open-ended configuration, all signatures required.
        const ranges = signatures.map((s) => ({ publicKey: s.publicKey, start: 0, end: 0 }));
        verifyMilestoneSignaturesOverId(id, index, signatures, ranges, signatures.length);
        if (v.name.startsWith('shimmer')) {
          // a real Shimmer milestone passes against the Shimmer configuration
          verifyMilestoneSignaturesOverId(id, index, signatures, shimmerKeyRanges, shimmerThreshold);
        } else {
          // alphanet keys are not Shimmer keys
          expectInvalidSignature(
            () => verifyMilestoneSignaturesOverId(id, index, signatures, shimmerKeyRanges, 1),
            /not applicable/,
          );
        }
      });
    }
  });

  describe('milestones.json: the iota.js milestoneHelper fixture (docs/protocol.md §20.15)', () => {
    it('its signatures do NOT verify over its (reproduced) milestone ID, as its notes say', () => {
      const v = milestones.vectors[0];
      const id = milestoneIdFromEssence(fromHex(v.derived.essenceHex));
      expect(toHex0x(id)).to.equal(v.milestoneId);
      const signatures: Ed25519Signature[] = v.json.signatures.map((s: { publicKey: string; signature: string }) =>
        sig(fromHex(s.publicKey), fromHex(s.signature)),
      );
      expect(signatures.map((s) => ed25519Verify(s.publicKey, id, s.signature))).to.deep.equal(
        v.derived.signaturesValid,
      );
      expect(v.derived.signaturesValid).to.deep.equal([false, false, false]);
      const ranges = signatures.map((s) => ({ publicKey: s.publicKey, start: 0, end: 0 }));
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, v.json.index, signatures, ranges, 1),
        /signatures\[0\] does not verify/,
      );
    });
  });

  describe('verifyMilestoneSignaturesOverId rules (§17.4)', () => {
    const seeds = Array.from({ length: 5 }, (_, i) => new Uint8Array(32).fill(i + 1));
    const keys = seeds
      .map((seed) => ({ seed, publicKey: ed25519PublicKeyFromSeed(seed) }))
      .sort((a, b) => compareBytes(a.publicKey, b.publicKey));
    const index = 1000;
    const id = blake2b256(new TextEncoder().encode('milestone essence 1000'));
    const signed = keys.map((k) => sig(k.publicKey, ed25519Sign(k.seed, id)));
    const ranges: MilestoneKeyRange[] = keys.map((k) => ({ publicKey: k.publicKey, start: 0, end: 0 }));

    it('accepts sorted, unique, applicable, valid signatures meeting the threshold', () => {
      verifyMilestoneSignaturesOverId(id, index, signed, ranges, 5);
      verifyMilestoneSignaturesOverId(id, index, signed.slice(1, 4), ranges, 3);
    });

    it('rejects too few signatures', () => {
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, signed.slice(0, 2), ranges, 3),
        /2 signatures, the threshold is 3/,
      );
      expectInvalidSignature(() => verifyMilestoneSignaturesOverId(id, index, [], ranges, 1), /0 signatures/);
    });

    it('rejects unsorted and duplicate keys', () => {
      const swapped = [signed[1]!, signed[0]!, ...signed.slice(2)];
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, swapped, ranges, 3),
        /not sorted.*signatures\[1\]/,
      );
      const dup = [signed[0]!, signed[0]!, signed[1]!];
      expectInvalidSignature(() => verifyMilestoneSignaturesOverId(id, index, dup, ranges, 3), /duplicates/);
    });

    it('rejects a key outside the applicable set (wrong key set, range not yet started or already ended)', () => {
      const others: MilestoneKeyRange[] = ranges.slice(1);
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, signed, others, 3),
        /signatures\[0\] is not applicable/,
      );
      const ended = ranges.map((r, i) => (i === 2 ? { ...r, end: index - 1 } : r));
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, signed, ended, 3),
        /signatures\[2\] is not applicable/,
      );
      const later = ranges.map((r, i) => (i === 4 ? { ...r, start: index + 1 } : r));
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, signed, later, 3),
        /signatures\[4\] is not applicable/,
      );
      // the boundaries themselves are inclusive
      const exact = ranges.map((r) => ({ ...r, start: index, end: index }));
      verifyMilestoneSignaturesOverId(id, index, signed, exact, 5);
    });

    it('rejects when fewer keys apply than the threshold', () => {
      const twoApply = ranges.map((r, i) => (i < 3 ? { ...r, end: 10 } : r));
      expect(applicableMilestoneKeys(twoApply, index)).to.have.length(2);
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, signed.slice(3), twoApply, 3),
        /only 2 public keys apply/,
      );
    });

    it('rejects a tampered signature, a tampered ID and a signature by another key', () => {
      const tampered = signed.map((s, i) =>
        i === 3
          ? sig(
              s.publicKey,
              s.signature.map((b, j) => (j === 5 ? b ^ 1 : b)),
            )
          : s,
      );
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, tampered, ranges, 5),
        /signatures\[3\] does not verify/,
      );
      const otherId = blake2b256(id);
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(otherId, index, signed, ranges, 5),
        /signatures\[0\] does not verify/,
      );
      const swappedSig = signed.map((s, i) => (i === 1 ? sig(s.publicKey, signed[2]!.signature) : s));
      expectInvalidSignature(
        () => verifyMilestoneSignaturesOverId(id, index, swappedSig, ranges, 5),
        /signatures\[1\] does not verify/,
      );
    });

    it('treats a threshold below 1 as a programming error', () => {
      expect(() => verifyMilestoneSignaturesOverId(id, index, signed, ranges, 0)).to.throw(RangeError);
    });

    it('names the milestone, the field and the key in the error', () => {
      try {
        verifyMilestoneSignaturesOverId(id, index, signed, ranges.slice(1), 3);
        expect.fail('should throw');
      } catch (e) {
        const err = e as ProtocolError;
        expect(err.message).to.contain('milestone 1000');
        expect(err.field).to.equal('signatures[0]');
        expect(err.value).to.equal(toHex0x(keys[0]!.publicKey));
      }
    });
  });
});
