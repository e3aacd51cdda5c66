/** minStorageDeposit (docs/protocol.md §15) against the iota.go values in outputs.json and the real Shimmer outputs. */
import { expect } from 'chai';
import { loadVectors } from '../../../harness/vectors.ts';
import { fromHex } from '../../../src/core/bytes.ts';
import { decodeOutput, encodeOutput } from '../../../src/core/codec/index.ts';
import { minStorageDeposit, minStorageDepositReturn } from '../../../src/core/validation/index.ts';
import { SHIMMER_PROTOCOL, type BasicOutput, type RentStructure } from '../../../src/core/model/index.ts';
import { aliasAddr, ed, nftAddr } from '../codec/fixtures.ts';

describe('validation: minimum storage deposit', () => {
  const file = loadVectors('stardust/outputs.json');
  const [plain, withSdr, minReturn] = file.storageDeposit as {
    rentStructure: RentStructure;
    minDeposit?: number;
    minReturnAmount?: number;
    derived?: { serializedLength: number };
  }[];

  const basic = (): BasicOutput => ({
    type: 3,
    amount: 0n,
    nativeTokens: [],
    unlockConditions: [{ type: 0, address: aliasAddr(1) }],
    features: [],
  });

  it(`a basic output with one Address UC needs ${plain!.minDeposit} (iota.go)`, () => {
    const o = basic();
    expect(encodeOutput(o).length).to.equal(plain!.derived!.serializedLength);
    expect(minStorageDeposit(o, plain!.rentStructure)).to.equal(BigInt(plain!.minDeposit!));
  });

  it(`adding a Storage Deposit Return UC raises it to ${withSdr!.minDeposit} (iota.go)`, () => {
    const o = basic();
    o.unlockConditions.push({ type: 1, returnAddress: aliasAddr(2), amount: 1n });
    expect(encodeOutput(o).length).to.equal(withSdr!.derived!.serializedLength);
    expect(minStorageDeposit(o, withSdr!.rentStructure)).to.equal(BigInt(withSdr!.minDeposit!));
  });

  it(`the minimum return amount is ${minReturn!.minReturnAmount} for every address type`, () => {
    for (const a of [ed(1), aliasAddr(1), nftAddr(1)])
      expect(minStorageDepositReturn(a, minReturn!.rentStructure)).to.equal(BigInt(minReturn!.minReturnAmount!));
  });

  it('follows vByteCost × (10 × 34 + 1 × (40 + length)) for the 27 real Shimmer outputs, all covered', () => {
    const shimmer = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
    let n = 0;
    for (const m of shimmer.milestones) {
      for (const o of Object.values(m.derived.referencedInputOutputs) as { outputBytes: string }[]) {
        const out = decodeOutput(fromHex(o.outputBytes));
        const len = o.outputBytes.length / 2;
        const min = minStorageDeposit(out, SHIMMER_PROTOCOL.rentStructure);
        expect(min).to.equal(100n * BigInt(340 + 40 + len));
        expect(out.amount >= min).to.equal(true);
        n++;
      }
    }
    expect(n).to.equal(27);
  });

  it('scales with the rent structure (IOTA vByteCost 250 gives 106 500 for the plain basic output)', () => {
    expect(minStorageDeposit(basic(), { vByteCost: 250, vByteFactorData: 1, vByteFactorKey: 10 })).to.equal(106_500n);
  });
});
