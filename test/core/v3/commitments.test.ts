/**
 * Slot commitments (src/core/v3/commitment): the roots' layout and ID (iota.go commitment_roots.go), the versions and
 * parameters hash, the reference Mana cost rule (iota-core rmc.go), attestations (iota.go Attestation.Compare,
 * iota-core slotattestation) and a commitment chained to the TIP-46 vector.
 */
import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import { blake2b256 } from '../../../src/core/crypto/blake2b.ts';
import * as V3 from '../../../src/core/v3/index.ts';
import { h, hex, misc, params, protocolError } from './helpers.ts';

const fill = (n: number, len = 32): Uint8Array => new Uint8Array(len).fill(n);
const leaf = (d: Uint8Array): Uint8Array => blake2b256(concatBytes(Uint8Array.of(0), d));
const node = (l: Uint8Array, r: Uint8Array): Uint8Array => blake2b256(concatBytes(Uint8Array.of(1), l, r));

function roots(): V3.SlotRootsV3 {
  return {
    tangleRoot: fill(1),
    stateMutationRoot: fill(2),
    stateRoot: fill(3),
    accountRoot: fill(4),
    attestationsRoot: fill(5),
    committeeRoot: fill(6),
    rewardsRoot: fill(7),
    protocolParametersHash: fill(8),
  };
}

const attestation = (o: Partial<V3.AttestationV3> & { seat: number }): V3.AttestationV3 => ({
  accountId: fill(o.seat),
  blockId: o.blockId ?? fill(o.seat + 100, 36),
  commitmentSlot: o.commitmentSlot ?? 0,
  issuingTime: o.issuingTime ?? 0n,
  bodyHash: o.bodyHash ?? fill(0),
});

describe('v3 slot commitments: roots', () => {
  it('serializes the eight roots in iota.go order, 256 bytes, and decodes them back', () => {
    const bytes = V3.encodeSlotRootsV3(roots());
    expect(bytes.length).to.equal(256);
    for (let i = 0; i < 8; i++) expect(h(bytes.subarray(32 * i, 32 * i + 32))).to.equal(h(fill(i + 1)));
    expect(V3.decodeSlotRootsV3(bytes)).to.deep.equal(roots());
    expect(protocolError(() => V3.decodeSlotRootsV3(bytes.subarray(1))).code).to.equal('TRUNCATED');
    expect(protocolError(() => V3.decodeSlotRootsV3(concatBytes(bytes, fill(0, 1)))).code).to.equal('TRAILING_BYTES');
    expect(() => V3.encodeSlotRootsV3({ ...roots(), rewardsRoot: fill(1, 31) })).to.throw(RangeError, /rewardsRoot/);
  });

  it('the roots ID is the Merkle root over the eight values in order, not a hash of the 256 bytes', () => {
    const v = Array.from({ length: 8 }, (_, i) => leaf(fill(i + 1)));
    const expected = node(node(node(v[0]!, v[1]!), node(v[2]!, v[3]!)), node(node(v[4]!, v[5]!), node(v[6]!, v[7]!)));
    expect(h(V3.rootsIdV3(roots()))).to.equal(h(expected));
    expect(h(V3.rootsIdV3(roots()))).to.not.equal(h(blake2b256(V3.encodeSlotRootsV3(roots()))));
  });

  it('a set root is the Merkle root of the sorted members (the iota.go merkle hasher vector), empty sets zero', () => {
    const m = misc.merkle[0];
    const leaves = (m.leaves as string[]).map(hex);
    expect(h(V3.merkleRoot(leaves))).to.equal(m.root);
    const sorted = [...leaves].sort((a, b) => (h(a) < h(b) ? -1 : 1));
    expect(h(V3.idSetRootV3(leaves))).to.equal(h(V3.merkleRoot(sorted)));
    expect(h(V3.idSetRootV3([...leaves, leaves[3]!].reverse()))).to.equal(h(V3.merkleRoot(sorted)));
    expect(h(V3.idSetRootV3([]))).to.equal(h(new Uint8Array(32)));
  });

  it('the protocol parameters root hashes version ‖ start epoch (u32 LE) ‖ parameters hash per version', () => {
    const paramsHash = V3.protocolParametersHashV3(params);
    expect(h(paramsHash)).to.equal(misc.protocolParameters[0].hash);
    const one = V3.versionsAndProtocolParametersHashV3([{ version: 3, startEpoch: 0, parametersHash: paramsHash }]);
    expect(h(one)).to.equal(h(blake2b256(concatBytes(Uint8Array.of(3, 0, 0, 0, 0), paramsHash))));
    const two = V3.versionsAndProtocolParametersHashV3([
      { version: 3, startEpoch: 0, parametersHash: paramsHash },
      { version: 4, startEpoch: 0x0102, parametersHash: fill(9) },
    ]);
    expect(h(two)).to.equal(
      h(blake2b256(concatBytes(Uint8Array.of(3, 0, 0, 0, 0), paramsHash, Uint8Array.of(4, 2, 1, 0, 0), fill(9)))),
    );
    expect(() =>
      V3.versionsAndProtocolParametersHashV3([{ version: 256, startEpoch: 0, parametersHash: fill(0) }]),
    ).to.throw(RangeError);
  });
});

describe('v3 slot commitments: reference Mana cost', () => {
  const cc = { ...params.congestionControlParameters, minReferenceManaCost: 100n, increase: 10n, decrease: 15n };
  const { increaseThreshold: up, decreaseThreshold: down } = cc;

  it('drops by `decrease` below the decrease threshold, never below the minimum', () => {
    expect(V3.nextReferenceManaCostV3(200n, down - 1, cc)).to.equal(185n);
    expect(V3.nextReferenceManaCostV3(110n, 0, cc)).to.equal(100n);
    expect(V3.nextReferenceManaCostV3(100n, 0, cc)).to.equal(100n);
  });

  it('grows by `increase` above the increase threshold; stays in between and at the thresholds', () => {
    expect(V3.nextReferenceManaCostV3(200n, up + 1, cc)).to.equal(210n);
    expect(V3.nextReferenceManaCostV3(200n, up, cc)).to.equal(200n);
    expect(V3.nextReferenceManaCostV3(200n, down, cc)).to.equal(200n);
  });
});

describe('v3 slot commitments: attestations', () => {
  it('compare by commitment slot, then issuing time, then body hash (iota.go Attestation.Compare)', () => {
    const a = attestation({ seat: 1, commitmentSlot: 5, issuingTime: 9n });
    expect(V3.compareAttestationsV3(a, attestation({ seat: 1, commitmentSlot: 4, issuingTime: 99n }))).to.equal(1);
    expect(V3.compareAttestationsV3(a, attestation({ seat: 1, commitmentSlot: 5, issuingTime: 10n }))).to.equal(-1);
    expect(
      V3.compareAttestationsV3(a, attestation({ seat: 1, commitmentSlot: 5, issuingTime: 9n, bodyHash: fill(1) })),
    ).to.be.below(0);
    expect(V3.compareAttestationsV3(a, attestation({ seat: 1, commitmentSlot: 5, issuingTime: 9n }))).to.equal(0);
  });

  it('a commitment counts the attestations committing to its slot − maxCommittableAge or later, none before', () => {
    const p = { genesisSlot: 0, maxCommittableAge: 20 };
    const latest = [
      attestation({ seat: 3, commitmentSlot: 10 }),
      attestation({ seat: 1, commitmentSlot: 15 }),
      attestation({ seat: 2, commitmentSlot: 9 }),
    ];
    expect(V3.attestationsForSlotV3(latest, 30, p).map((a) => a.accountId[0])).to.deep.equal([1, 3]);
    expect(V3.attestationsForSlotV3(latest, 29, p).map((a) => a.accountId[0])).to.deep.equal([1, 2, 3]);
    expect(V3.attestationsForSlotV3(latest, 19, p)).to.deep.equal([]);
  });
});

describe('v3 slot commitments: building a slot commitment', () => {
  const vector = misc.slotCommitments[0];
  const previous = V3.slotCommitmentFromJsonV3(JSON.stringify(vector.json));
  const base = {
    params: { ...params, maxCommittableAge: 10 },
    previous,
    acceptedBlockIds: [fill(0xbb, 36), fill(0xaa, 36)],
    slotWork: 0,
    mutations: [fill(0xcc, 36)],
    attestations: [attestation({ seat: 1, commitmentSlot: 9 }), attestation({ seat: 2, commitmentSlot: 9 })],
    committeeRoot: V3.idSetRootV3([fill(1), fill(2)]),
    protocolParametersHash: fill(8),
  };

  it('chains to the TIP-46 commitment: next slot, its ID as previous, the protocol version, added weight', () => {
    expect(h(V3.slotCommitmentIdV3(previous))).to.equal(vector.commitmentId);
    const built = V3.buildSlotCommitmentV3(base);
    expect(built.commitment).to.deep.include({ protocolVersion: 3, slot: 19, cumulativeWeight: 89n + 2n });
    expect(h(built.commitment.previousCommitmentId)).to.equal(vector.commitmentId);
    expect(h(built.commitmentId)).to.equal(h(V3.slotCommitmentIdV3(built.commitment)));
    expect(V3.slotOfId(built.commitmentId)).to.equal(19);
    expect(h(built.commitment.rootsId)).to.equal(h(V3.rootsIdV3(built.roots)));
    // the 89-byte layout of §V7.4 round-trips
    const bytes = V3.encodeSlotCommitmentV3(built.commitment);
    expect(bytes.length).to.equal(89);
    expect(V3.decodeSlotCommitmentV3(bytes)).to.deep.equal(built.commitment);
  });

  it('fills the roots from its inputs; roots it does not compute are zero', () => {
    const { roots: r } = V3.buildSlotCommitmentV3(base);
    expect(h(r.tangleRoot)).to.equal(h(V3.merkleRoot([fill(0xaa, 36), fill(0xbb, 36)])));
    expect(h(r.stateMutationRoot)).to.equal(h(V3.merkleRoot([fill(0xcc, 36)])));
    expect(h(r.attestationsRoot)).to.equal(h(V3.attestationsRootV3(base.attestations)));
    expect(h(r.committeeRoot)).to.equal(h(base.committeeRoot));
    expect(h(r.protocolParametersHash)).to.equal(h(fill(8)));
    for (const z of [r.stateRoot, r.accountRoot, r.rewardsRoot]) expect(h(z)).to.equal(h(new Uint8Array(32)));
    const empty = V3.buildSlotCommitmentV3({ ...base, acceptedBlockIds: [], mutations: [] }).roots;
    expect(h(empty.tangleRoot)).to.equal(h(new Uint8Array(32)));
    expect(h(empty.stateMutationRoot)).to.equal(h(new Uint8Array(32)));
  });

  it('different accepted blocks, mutations or attestations give a different commitment ID', () => {
    const id = h(V3.buildSlotCommitmentV3(base).commitmentId);
    expect(h(V3.buildSlotCommitmentV3({ ...base, acceptedBlockIds: [fill(0xaa, 36)] }).commitmentId)).to.not.equal(id);
    expect(h(V3.buildSlotCommitmentV3({ ...base, mutations: [] }).commitmentId)).to.not.equal(id);
    expect(h(V3.buildSlotCommitmentV3({ ...base, attestations: [] }).commitmentId)).to.not.equal(id);
    // the order of the inputs does not matter
    const reordered = { ...base, acceptedBlockIds: [...base.acceptedBlockIds].reverse() };
    expect(h(V3.buildSlotCommitmentV3(reordered).commitmentId)).to.equal(id);
  });

  it('before genesis slot + maxCommittableAge: weight 0 and a zero attestations root', () => {
    const built = V3.buildSlotCommitmentV3({ ...base, params: { ...params, maxCommittableAge: 20 } });
    expect(built.commitment.cumulativeWeight).to.equal(0n);
    expect(h(built.roots.attestationsRoot)).to.equal(h(new Uint8Array(32)));
  });

  it('the reference Mana cost follows the slot work', () => {
    const cc = { ...params.congestionControlParameters, increase: 7n };
    const busy = V3.buildSlotCommitmentV3({
      ...base,
      params: { ...base.params, congestionControlParameters: cc },
      slotWork: cc.increaseThreshold + 1,
    });
    expect(busy.commitment.referenceManaCost).to.equal(144n + 7n);
  });

  it('the genesis commitment is iota.go NewEmptyCommitment: genesis slot, zero IDs and weight, minimum RMC', () => {
    const g = V3.genesisSlotCommitmentV3(params);
    expect(g).to.deep.equal({
      protocolVersion: 3,
      slot: params.genesisSlot,
      previousCommitmentId: new Uint8Array(36),
      rootsId: new Uint8Array(32),
      cumulativeWeight: 0n,
      referenceManaCost: params.congestionControlParameters.minReferenceManaCost,
    });
  });
});
