/** Every vector of test/vectors/nova-v3: bytes both ways, JSON both ways, IDs, work scores, signatures, mana. */
import { expect } from 'chai';
import { blake2b256 } from '../../../src/core/crypto/blake2b.ts';
import { ed25519Verify } from '../../../src/core/crypto/ed25519.ts';
import * as V3 from '../../../src/core/v3/index.ts';
import { blocks, dropEmptyLists, h, hex, mana, misc, outputs, params, transactions, type Any } from './helpers.ts';

function checkTransactionDerived(payload: V3.SignedTransactionPayloadV3, d: Any): void {
  const tx = payload.transaction;
  expect(h(V3.transactionIdV3(tx)), 'transactionId').to.equal(d.transactionId);
  expect(h(V3.transactionCommitmentV3(tx)), 'transactionCommitment').to.equal(d.transactionCommitment);
  expect(h(V3.outputCommitmentV3(tx.outputs)), 'outputCommitment').to.equal(d.outputCommitment);
  expect(h(V3.transactionSigningHashV3(tx)), 'signing hash').to.equal(d.transactionSigningHash);
  expect(h(V3.signedTransactionIdV3(payload)), 'signedTransactionId').to.equal(d.signedTransactionId);
  const txId = V3.transactionIdV3(tx);
  expect(
    tx.outputs.map((_, i) => h(V3.outputIdV3(txId, i))),
    'outputIds',
  ).to.deep.equal(d.outputIds);
  if (d.unlockSignatureValid !== undefined) {
    const u = payload.unlocks[0]!;
    expect(u.type).to.equal(0);
    if (u.type === 0) {
      expect(
        ed25519Verify(u.signature.publicKey, V3.transactionSigningHashV3(tx), u.signature.signature),
        'unlock signature',
      ).to.equal(d.unlockSignatureValid);
    }
  }
}

describe('v3 vectors: blocks.json', () => {
  for (const v of blocks.vectors as Any[]) {
    describe(v.name, () => {
      const bytes = hex(v.bytes);

      it('decodes the bytes and re-encodes them identically', () => {
        expect(bytes.length).to.equal(v.byteLength);
        const block = V3.decodeBlockV3(bytes, params);
        expect(h(V3.encodeBlockV3(block))).to.equal(v.bytes);
      });

      it('renders the JSON of the source and reads it back to the same bytes', () => {
        const block = V3.decodeBlockV3(bytes, params);
        expect(V3.blockToJsonV3(block)).to.deep.equal(v.json);
        expect(h(V3.encodeBlockV3(V3.blockFromJsonV3(v.json)))).to.equal(v.bytes);
        expect(h(V3.encodeBlockV3(V3.blockFromJsonV3(JSON.stringify(v.json))))).to.equal(v.bytes);
      });

      it('computes the block ID, slot, hashes and signing message', () => {
        expect(h(V3.blockIdV3(bytes, params))).to.equal(v.blockId);
        const block = V3.decodeBlockV3(bytes, params);
        expect(h(V3.blockIdOfV3(block, params))).to.equal(v.blockId);
        expect(V3.blockSlotV3(block, params)).to.equal(v.slot);
        expect(V3.slotOfId(hex(v.blockId))).to.equal(v.slot);
        const parts = V3.blockHashesV3(bytes);
        const i = v.derived.intermediates;
        expect(h(bytes.subarray(0, 89))).to.equal(i.headerBytes);
        expect(h(parts.headerHash)).to.equal(i.headerHash);
        expect(bytes.length - 89 - 97).to.equal(i.bodyBytesLength);
        expect(h(parts.bodyHash)).to.equal(i.bodyHash);
        expect(h(parts.signatureBytes)).to.equal(i.signatureBytes);
        expect(h(parts.signingMessage)).to.equal(i.signingMessage);
        if (v.metadata?.blockId) expect(h(V3.blockIdV3(bytes, params))).to.equal(v.metadata.blockId);
      });

      it('verifies the block signature against the issuer key hash, and only that', () => {
        const block = V3.decodeBlockV3(bytes, params);
        const keyHash = blake2b256(block.signature.publicKey);
        expect(V3.verifyBlockSignatureV3(bytes, [{ type: 0, pubKeyHash: keyHash }])).to.equal(
          v.derived.blockSignatureValid,
        );
        expect(V3.verifyBlockSignatureV3(block, [new Uint8Array(32), keyHash])).to.equal(v.derived.blockSignatureValid);
        expect(V3.blockSignatureProblemV3(bytes, [new Uint8Array(32)])).to.equal('UNKNOWN_KEY');
        const tampered = bytes.slice();
        tampered[tampered.length - 1]! ^= 1;
        expect(V3.blockSignatureProblemV3(tampered, [keyHash])).to.equal('BAD_SIGNATURE');
        const otherBody = bytes.slice();
        otherBody[89 + 2]! ^= 1; // a parent byte: the body hash changes
        expect(V3.verifyBlockSignatureV3(otherBody, [keyHash])).to.equal(false);
      });

      if (v.workScore !== undefined) {
        it(`has work score ${v.workScore}`, () => {
          const block = V3.decodeBlockV3(bytes, params);
          expect(V3.workScore(block, params.workScoreParameters)).to.equal(v.workScore);
          expect(V3.manaCostV3(block, params.workScoreParameters, 1n)).to.equal(BigInt(v.workScore));
        });
      }

      if (v.derived.transaction) {
        it('computes the transaction IDs, commitments and output IDs of its payload', () => {
          const block = V3.decodeBlockV3(bytes, params);
          expect(block.body.type).to.equal(0);
          if (block.body.type === 0 && block.body.payload?.type === 1)
            checkTransactionDerived(block.body.payload, v.derived.transaction);
          else expect.fail('expected a signed transaction payload');
        });
      }
    });
  }

  it('validation blocks carry the parameters hash (current TIP-46 vector)', () => {
    const v = (blocks.vectors as Any[]).find((x) => x.name === 'tip46-validation-block');
    const block = V3.decodeBlockV3(hex(v.bytes), params);
    expect(block.body.type).to.equal(1);
    if (block.body.type === 1)
      expect(h(block.body.protocolParametersHash)).to.equal(h(V3.protocolParametersHashV3(params)));
    expect(V3.workScore(block, params.workScoreParameters)).to.equal(0);
  });

  it('timing rules accept the current TIP-46 blocks, reject the API examples with their unrealistic commitment', () => {
    for (const v of blocks.vectors as Any[]) {
      const block = V3.decodeBlockV3(hex(v.bytes), params);
      if (v.name.startsWith('tip46')) expect(() => V3.checkBlockTimingV3(block, params), v.name).not.to.throw();
      if (v.name.startsWith('iota-sdk-api-example-full'))
        expect(() => V3.checkBlockTimingV3(block, params)).to.throw(/too recent/);
    }
  });
});

describe('v3 vectors: transactions.json', () => {
  for (const v of transactions.vectors as Any[]) {
    describe(v.name, () => {
      const json = v.json ?? v.jsonDecodedLocally;

      it('decodes the signed transaction bytes and re-encodes them identically', () => {
        const payload = V3.decodeSignedTransactionV3(hex(v.bytes));
        expect(h(V3.encodeSignedTransactionV3(payload))).to.equal(v.bytes);
        expect(h(V3.encodePayloadV3(V3.decodePayloadV3(hex(v.bytes))))).to.equal(v.bytes);
      });

      it('maps JSON both ways', () => {
        const payload = V3.decodeSignedTransactionV3(hex(v.bytes));
        expect(V3.payloadToJsonV3(payload)).to.deep.equal(dropEmptyLists(json));
        expect(h(V3.encodePayloadV3(V3.payloadFromJsonV3(json)))).to.equal(v.bytes);
      });

      it('computes every derived ID and verifies the unlock signature', () => {
        const payload = V3.decodeSignedTransactionV3(hex(v.bytes));
        checkTransactionDerived(payload, v.derived);
        const u = payload.unlocks[0]!;
        if (u.type === 0) {
          const valid = ed25519Verify(
            u.signature.publicKey,
            V3.transactionSigningHashV3(payload.transaction),
            u.signature.signature,
          );
          expect(valid).to.equal(v.derived.unlockSignatureValid ?? true);
        }
        if (v.statedTransactionId) expect(h(V3.signedTransactionIdV3(payload))).to.equal(v.statedTransactionId);
      });

      if (v.consumedInput) {
        it('the consumed output: bytes, JSON and its ID is the first input', () => {
          const c = v.consumedInput;
          const out = V3.decodeOutputV3(hex(c.bytes));
          expect(h(V3.encodeOutputV3(out))).to.equal(c.bytes);
          expect(V3.outputToJsonV3(out)).to.deep.equal(c.json);
          expect(h(V3.encodeOutputV3(V3.outputFromJsonV3(c.json)))).to.equal(c.bytes);
          const payload = V3.decodeSignedTransactionV3(hex(v.bytes));
          const input = payload.transaction.inputs[0]!;
          expect(h(V3.outputIdV3(input.transactionId, input.transactionOutputIndex))).to.equal(c.outputId);
        });
      }

      for (const [i, p] of ((v.proofs ?? []) as Any[]).entries()) {
        it(`proof ${i} of output ${p.json.outputIndex}: bytes, JSON, built from the transaction, verified`, () => {
          const proof = V3.decodeOutputIdProofV3(hex(p.bytes));
          expect(h(V3.encodeOutputIdProofV3(proof))).to.equal(p.bytes);
          expect(V3.outputIdProofToJsonV3(proof)).to.deep.equal(p.json);
          expect(h(V3.encodeOutputIdProofV3(V3.outputIdProofFromJsonV3(p.json)))).to.equal(p.bytes);
          const tx = V3.decodeSignedTransactionV3(hex(v.bytes)).transaction;
          const built = V3.outputIdProofV3(tx, p.json.outputIndex);
          expect(h(V3.encodeOutputIdProofV3(built))).to.equal(p.bytes);
          expect(h(V3.proofRootV3(proof.outputCommitmentProof))).to.equal(v.derived.outputCommitment);
          const outputId = V3.outputIdV3(V3.transactionIdV3(tx), p.json.outputIndex);
          expect(V3.verifyOutputIdProofV3(proof, outputId, tx.outputs[p.json.outputIndex]!)).to.equal(true);
          const other = (p.json.outputIndex + 1) % tx.outputs.length;
          const differs =
            h(V3.encodeOutputV3(tx.outputs[other]!)) !== h(V3.encodeOutputV3(tx.outputs[p.json.outputIndex]!));
          if (differs) expect(V3.verifyOutputIdProofV3(proof, outputId, tx.outputs[other]!)).to.equal(false);
          expect(
            V3.verifyOutputIdProofV3(
              proof,
              V3.outputIdV3(V3.transactionIdV3(tx), other),
              tx.outputs[p.json.outputIndex]!,
            ),
          ).to.equal(false);
        });
      }
    });
  }
});

describe('v3 vectors: outputs.json', () => {
  for (const v of outputs.vectors as Any[]) {
    it(`${v.name}: bytes, JSON, storage score ${v.storageScore}`, () => {
      const out = V3.decodeOutputV3(hex(v.bytes));
      expect(h(V3.encodeOutputV3(out))).to.equal(v.bytes);
      expect(V3.outputToJsonV3(out)).to.deep.equal(v.json);
      expect(h(V3.encodeOutputV3(V3.outputFromJsonV3(v.json)))).to.equal(v.bytes);
      expect(V3.storageScoreV3(out, params.storageScoreParameters)).to.equal(BigInt(v.storageScore));
      expect(V3.minimumStorageDepositV3(out, params.storageScoreParameters)).to.equal(BigInt(v.storageScore) * 100n);
    });
  }
});

describe('v3 vectors: ids-and-misc.json', () => {
  it('slot commitment: bytes, JSON, commitment ID', () => {
    for (const v of misc.slotCommitments as Any[]) {
      const c = V3.decodeSlotCommitmentV3(hex(v.bytes));
      expect(h(V3.encodeSlotCommitmentV3(c))).to.equal(v.bytes);
      expect(V3.slotCommitmentToJsonV3(c)).to.deep.equal(v.json);
      expect(h(V3.encodeSlotCommitmentV3(V3.slotCommitmentFromJsonV3(v.json)))).to.equal(v.bytes);
      expect(h(V3.slotCommitmentIdV3(c))).to.equal(v.commitmentId);
    }
  });

  it('protocol parameters: bytes, JSON as /info serves it, hash', () => {
    for (const v of misc.protocolParameters as Any[]) {
      const p = V3.decodeProtocolParametersV3(hex(v.bytes));
      expect(h(V3.encodeProtocolParametersV3(p))).to.equal(v.bytes);
      expect(V3.protocolParametersToJsonV3(p)).to.deep.equal(v.json);
      const fromJson = V3.protocolParametersFromJsonV3(v.json);
      expect(h(V3.encodeProtocolParametersV3(fromJson))).to.equal(v.bytes);
      expect(h(V3.protocolParametersHashV3(fromJson))).to.equal(v.hash);
      expect(h(V3.protocolParametersHashV3(p))).to.equal(blocks.protocolParameterSets.tip49.protocolParametersHash);
      expect(V3.networkIdFromName(p.networkName).toString()).to.equal(blocks.protocolParameterSets.tip49.networkId);
    }
  });

  it('network IDs', () => {
    for (const v of misc.networkIds.vectors as Any[])
      expect(V3.networkIdFromName(v.networkName).toString(), v.networkName).to.equal(v.networkId);
  });

  it('Merkle root of 7 leaves, and the empty tree', () => {
    for (const v of misc.merkle as Any[]) expect(h(V3.merkleRoot(v.leaves.map(hex)))).to.equal(v.root);
    expect(h(V3.merkleRoot([]))).to.equal('0x0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8');
  });

  it('output ID layout', () => {
    for (const v of misc.outputIds as Any[]) {
      const id = V3.outputIdV3(hex(v.transactionId), v.outputIndex);
      expect(h(id)).to.equal(v.outputId);
      const back = V3.splitOutputIdV3(id);
      expect(h(back.transactionId)).to.equal(v.transactionId);
      expect(back.index).to.equal(v.outputIndex);
    }
  });

  it('slots of the vector times (docs/protocol.md §V11)', () => {
    expect(V3.slotFromTime(1695275942000000000n, params)).to.equal(13);
    expect(V3.slotFromTime(1695275852000000000n, params)).to.equal(4);
    expect(V3.slotFromTime(1695275822000000000n, params)).to.equal(1);
    expect(V3.slotFromTime(1695275821999999999n, params)).to.equal(0);
    expect(V3.slotFromTime(1695275831999999999n, params)).to.equal(1);
    expect(V3.slotFromTime(1695275832000000000n, params)).to.equal(2);
  });
});

describe('v3 vectors: mana.json (TIP-39)', () => {
  for (const v of mana.potentialManaGeneration as Any[]) {
    it(
      `potential Mana of ${v.amount} from slot ${v.outputCreationSlot} ` +
        `to ${v.transactionCreationSlot} = ${v.potentialMana}`,
      () => {
        expect(
          V3.potentialManaWithDecay(
            BigInt(v.amount),
            v.outputCreationSlot,
            v.transactionCreationSlot,
            params,
          ).toString(),
        ).to.equal(v.potentialMana);
      },
    );
  }
  for (const v of mana.manaDecay as Any[]) {
    it(`decay of ${v.mana} from epoch ${v.creationEpoch} to ${v.targetEpoch} = ${v.decayedMana}`, () => {
      expect(
        V3.manaWithDecayByEpochs(BigInt(v.mana), v.creationEpoch, v.targetEpoch, params.manaParameters).toString(),
      ).to.equal(v.decayedMana);
      const slotsPerEpoch = 2 ** params.slotsPerEpochExponent;
      const from = v.creationEpoch * slotsPerEpoch;
      const to = v.targetEpoch * slotsPerEpoch + 5;
      expect(V3.storedManaWithDecay(BigInt(v.mana), from, to, params).toString()).to.equal(v.decayedMana);
    });
  }
});
