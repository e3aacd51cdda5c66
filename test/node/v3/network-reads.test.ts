/**
 * The v3 committee and validator reads (src/node/v3/reads-network.ts through the V3Service's network RPCs) over an
 * engine with three seats, seat 1 staking with a delegation to it: the committee of an epoch with its stake and order,
 * the validators paged by cursor with their activity and signalled protocol, one validator or block issuer by its
 * bech32 address, and the refusals (an epoch in the future, a bad page size or cursor, a malformed bech32, one of
 * another network or not of an account: INVALID_ARGUMENT; an unknown account: NOT_FOUND).
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { protocolParametersHashV3 } from '../../../src/core/v3/index.ts';
import { bech32Encode } from '../../../src/core/ids/bech32.ts';
import { accountAddressToBech32V3 } from '../../../src/core/v3/ids/account-address.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import { grpcCodeOf } from '../../../src/node/grpc/errors.ts';
import { V3Service } from '../../../src/node/grpc/service-v3.ts';
import { key, USER, WALLET } from '../../../harness/fixtures/v3.ts';
import { STAKE } from '../../../harness/fixtures/v3-stake.ts';
import { json, JSON_VIEW, stakedService } from './network-support.ts';
import { EngineHarness, rejection } from './support.ts';

const [SEAT1, SEAT2, SEAT3] = [key(1), key(2), key(3)];
const bech32 = (k: { accountId: Uint8Array }): string => accountAddressToBech32V3('rms', k.accountId);

/** The gRPC status a rejection becomes (INVALID_ARGUMENT: REST 400; NOT_FOUND: 404). */
async function statusOf(p: Promise<unknown>): Promise<GrpcStatus> {
  const e = await rejection(p);
  expect(e.code, e.message).to.be.a('string');
  return grpcCodeOf(e.code!);
}

describe('v3 network reads: committee and validators', () => {
  it('committee: the seats with their stake, by pool stake then address; any epoch up to the current one', async () => {
    const { svc } = await stakedService(1001);
    const c = await json(svc.getCommittee({ view: JSON_VIEW }));
    const unstaked = [SEAT2, SEAT3].map(bech32).sort();
    const zero = { poolStake: '0', validatorStake: '0', fixedCost: '0' };
    expect(c).to.deep.equal({
      committee: [
        {
          address: bech32(SEAT1),
          poolStake: String(STAKE.staked + STAKE.delegated),
          validatorStake: String(STAKE.staked),
          fixedCost: String(STAKE.fixedCost),
        },
        { address: unstaked[0], ...zero },
        { address: unstaked[1], ...zero },
      ],
      totalStake: String(STAKE.staked + STAKE.delegated),
      totalValidatorStake: String(STAKE.staked),
      epoch: 7, // slot 1001 of 128-slot epochs
    });
    expect((await json(svc.getCommittee({ epoch: 0, view: JSON_VIEW }))).epoch).to.equal(0);
    expect((await json(svc.getCommittee({ epoch: 7, view: JSON_VIEW }))).committee).to.deep.equal(c.committee);
    expect(await statusOf(svc.getCommittee({ epoch: 8, view: JSON_VIEW }))).to.equal(GrpcStatus.INVALID_ARGUMENT);
  });

  it('committee without stake: the seats of a genesis without staking features, at zero', async () => {
    const h = await new EngineHarness().open();
    h.at(1001);
    const svc = new V3Service(h.engine, { name: 'n', version: 'v', baseToken: {} }).network;
    const c = await json(svc.getCommittee({ view: JSON_VIEW }));
    expect(c).to.deep.equal({
      committee: [{ address: bech32(key(1)), poolStake: '0', validatorStake: '0', fixedCost: '0' }],
      totalStake: '0',
      totalValidatorStake: '0',
      epoch: 0, // 8192-slot epochs
    });
  });

  it('validators: paged by cursor; active once a validation block of the epoch is in a commitment', async () => {
    const { h, svc } = await stakedService(1001);
    const before = await json(svc.getValidators({ pageSize: 0, cursor: '', view: JSON_VIEW }));
    const list = before.validators as Record<string, unknown>[];
    expect(list.map((v) => v.address)).to.deep.equal([bech32(SEAT1), ...[SEAT2, SEAT3].map(bech32).sort()]);
    expect(before.pageSize).to.equal(100);
    expect(before.cursor).to.equal(undefined);
    // no validation block yet: nothing signalled, nobody active
    expect(list[0]).to.deep.equal({
      address: bech32(SEAT1),
      stakingEndEpoch: STAKE.endEpoch,
      poolStake: String(STAKE.staked + STAKE.delegated),
      validatorStake: String(STAKE.staked),
      fixedCost: String(STAKE.fixedCost),
      active: false,
      latestSupportedProtocolVersion: 0,
      latestSupportedProtocolHash: toHex0x(new Uint8Array(32)),
    });

    // rounds in slot 1001, then slot 1012 commits slot 1001 (its accepted validation blocks become attestations)
    await h.confirm();
    h.at(1012);
    await h.confirm();
    await h.confirm();
    const first = await json(svc.getValidators({ pageSize: 2, cursor: '', view: JSON_VIEW }));
    const hash = toHex0x(protocolParametersHashV3(h.engine.params));
    const page1 = first.validators as Record<string, unknown>[];
    expect(
      page1.map((v) => [v.address, v.active, v.latestSupportedProtocolVersion, v.latestSupportedProtocolHash]),
    ).to.deep.equal(list.slice(0, 2).map((v) => [v.address, true, 3, hash]));
    expect(first.pageSize).to.equal(2);
    expect(first.cursor).to.equal('7,2');
    const second = await json(svc.getValidators({ pageSize: 2, cursor: '7,2', view: JSON_VIEW }));
    expect((second.validators as Record<string, unknown>[]).map((v) => v.address)).to.deep.equal([list[2]!.address]);
    expect(second.cursor).to.equal(undefined);
    const exact = await json(svc.getValidators({ pageSize: 3, cursor: '', view: JSON_VIEW }));
    expect(exact.cursor, 'no cursor when the page ends the list').to.equal(undefined);
    // a cursor of an earlier epoch still pages the (fixed) list
    const earlier = await json(svc.getValidators({ pageSize: 1, cursor: '3,1', view: JSON_VIEW }));
    expect([(earlier.validators as { address: string }[])[0]!.address, earlier.cursor]).to.deep.equal([
      list[1]!.address,
      '3,2',
    ]);
  });

  it('validators: a page size over 100 or a bad cursor is INVALID_ARGUMENT', async () => {
    const { svc } = await stakedService(1001);
    const page = (pageSize: number, cursor: string) => svc.getValidators({ pageSize, cursor, view: JSON_VIEW });
    expect(await statusOf(page(101, ''))).to.equal(GrpcStatus.INVALID_ARGUMENT);
    for (const cursor of ['x', '7', '7,', ',1', '7,1,2', '7;1', '-1,0', '7,4294967296', '8,0', '7,3', ' 7,1'])
      expect(await statusOf(page(1, cursor)), cursor).to.equal(GrpcStatus.INVALID_ARGUMENT);
  });

  it('validator: a seat, a block issuer without a seat; refusals of unknown and malformed addresses', async () => {
    const { h, svc } = await stakedService(1001);
    const one = (bech32Address: string) => json(svc.getValidator({ bech32Address, view: JSON_VIEW }));
    await h.confirm();
    h.at(1012);
    await h.confirm();
    const list = (await json(svc.getValidators({ pageSize: 0, cursor: '', view: JSON_VIEW }))).validators as object[];
    expect(await one(bech32(SEAT1))).to.deep.equal(list[0]);
    expect(await one(bech32(SEAT1).toUpperCase()), 'bech32 in upper case').to.deep.equal(list[0]);
    // the test user issues blocks but holds no seat: no stake, never active
    expect(await one(bech32(USER))).to.deep.include({
      address: bech32(USER),
      poolStake: '0',
      active: false,
      latestSupportedProtocolVersion: 0,
    });
    const status = (address: string) => statusOf(svc.getValidator({ bech32Address: address, view: JSON_VIEW }));
    expect(await status(bech32(WALLET)), 'an account no genesis knows').to.equal(GrpcStatus.NOT_FOUND);
    const ed25519 = bech32Encode('rms', Uint8Array.of(0, ...SEAT1.hash));
    const cases = [
      ['not bech32', 'hello'],
      ['a bad checksum', `${bech32(SEAT1).slice(0, -1)}q`],
      ['another network', accountAddressToBech32V3('smr', SEAT1.accountId)],
      ['an Ed25519 address', ed25519],
      ['an account address too short', bech32Encode('rms', Uint8Array.of(8, 1, 2, 3))],
      ['empty', ''],
    ];
    for (const [what, address] of cases) expect(await status(address!), what).to.equal(GrpcStatus.INVALID_ARGUMENT);
    const e = await rejection(svc.getValidator({ bech32Address: ed25519, view: JSON_VIEW }));
    expect(e.message).to.match(/not an account address: it is an Ed25519 address/);
  });
});
