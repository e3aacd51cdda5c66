/**
 * End to end with the IOTA 2.0 SDK (`@iota/sdk-wasm` 2.0.0-beta.1, loaded as sdk-support.ts does) against
 * `ledger-node run` as a process, on a genesis with three seats, the first staking with a delegation to it: each of
 * the SDK's network and account reads (`getCommittee`, `getValidators`, `getValidator`, `getAccountCongestion`,
 * `getOutputManaRewards`, `getNetworkMetrics`) parses the node's answer, and every address and ID in it equals the
 * SDK's own (`Utils.addressToBech32`, `Utils.parseBech32Address`, `Utils.computeOutputId`,
 * `Utils.protocolParametersHash`). Then the REST answers of bad requests: 400 or 404 JSON errors, never 500.
 */
import { expect } from 'chai';
import type { AccountAddress, Client, ProtocolParameters } from '@iota/sdk-wasm-v2/node';
import { toHex0x } from '../../../src/core/bytes.ts';
import { bech32Encode } from '../../../src/core/ids/bech32.ts';
import { accountAddressToBech32V3 } from '../../../src/core/v3/ids/account-address.ts';
import { genesisTransactionIdV3, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { genesisOutputId, key, USER, WALLET } from '../../../harness/fixtures/v3.ts';
import { STAKE } from '../../../harness/fixtures/v3-stake.ts';
import { sdk, waitFor } from './sdk-support.ts';
import { startV3Node, type V3SdkNode } from './support.ts';

const SEATS = [key(1), key(2), key(3)];

describe('e2e v3: the IOTA 2.0 SDK reads the network and account routes', function () {
  this.timeout(60000);
  let node: V3SdkNode;
  let client: Client;
  let pp: ProtocolParameters;
  let g: GenesisV3;
  let hrp: string;

  /** The SDK's bech32 of an account ID (hex). */
  const sdkAddress = (accountId: Uint8Array): string =>
    sdk.Utils.addressToBech32(new sdk.AccountAddress(toHex0x(accountId)), hrp);
  /** The account ID (hex) the SDK reads from a bech32 account address. */
  const sdkAccountId = (address: string): string => (sdk.Utils.parseBech32Address(address) as AccountAddress).accountId;

  before(async () => {
    node = await startV3Node({ name: 'sdk-network', staked: true, validationIntervalMs: 200, sdk: true });
    ({ client, genesis: g } = node);
    pp = await client.getProtocolParameters();
    hrp = await client.getBech32Hrp();
    // every seat's validation blocks in a commitment, and the rounds measured between two commitments
    await waitFor('active validators and measured blocks', async () => {
      const v = await client.getValidators();
      const m = await client.getNetworkMetrics();
      return v.validators.every((x) => x.active) && Number(m.blocksPerSecond) > 0 ? true : undefined;
    });
  });
  after(() => node?.stop());

  it('getCommittee: the seats, the staking one first, addresses as the SDK writes the account IDs', async () => {
    const c = await client.getCommittee();
    expect(c.epoch).to.equal(0); // 8192-slot epochs: the genesis is a minute old
    expect(c.committee.map((m) => sdkAccountId(m.address))).to.have.members(SEATS.map((k) => toHex0x(k.accountId)));
    expect(c.committee.map((m) => m.address)).to.deep.equal([
      sdkAddress(SEATS[0]!.accountId),
      ...[SEATS[1]!, SEATS[2]!].map((k) => sdkAddress(k.accountId)).sort(),
    ]);
    expect(c.committee[0]).to.deep.include({
      poolStake: String(STAKE.staked + STAKE.delegated),
      validatorStake: String(STAKE.staked),
      fixedCost: String(STAKE.fixedCost),
    });
    expect([c.totalStake, c.totalValidatorStake]).to.deep.equal([
      String(STAKE.staked + STAKE.delegated),
      String(STAKE.staked),
    ]);
    expect((await client.getCommittee(0)).committee).to.deep.equal(c.committee);
  });

  it('getValidators (paged) and getValidator: active seats signalling this network parameters', async () => {
    const all = await client.getValidators();
    expect(all.validators.map((v) => v.address)).to.deep.equal(
      (await client.getCommittee()).committee.map((m) => m.address),
    );
    const hash = sdk.Utils.protocolParametersHash(pp);
    for (const v of all.validators)
      expect(v).to.deep.include({ active: true, latestSupportedProtocolVersion: 3, latestSupportedProtocolHash: hash });
    expect(all.validators[0]).to.deep.include({
      stakingEndEpoch: STAKE.endEpoch,
      validatorStake: String(STAKE.staked),
    });
    const first = await client.getValidators(2);
    expect([first.validators.length, first.pageSize, first.cursor]).to.deep.equal([2, 2, '0,2']);
    const rest = await client.getValidators(2, first.cursor);
    expect([rest.validators.map((v) => v.address), rest.cursor]).to.deep.equal([
      [all.validators[2]!.address],
      undefined,
    ]);
    const one = await client.getValidator(toHex0x(SEATS[0]!.accountId));
    expect(one).to.deep.include({ address: all.validators[0]!.address, poolStake: all.validators[0]!.poolStake });
    const user = await client.getValidator(toHex0x(USER.accountId));
    expect(user).to.deep.include({ address: sdkAddress(USER.accountId), active: false, poolStake: '0' });
  });

  it("getAccountCongestion: the latest commitment's slot and reference Mana cost, ready", async () => {
    const before = (await client.getIssuance()).latestCommitment;
    const c = await client.getAccountCongestion(toHex0x(USER.accountId), 40);
    const after = (await client.getIssuance()).latestCommitment;
    expect(c.slot).to.be.within(before.slot, after.slot);
    expect(String(c.referenceManaCost)).to.equal(String(before.referenceManaCost));
    expect(c.ready).to.equal(true);
    expect(String(c.blockIssuanceCredits)).to.equal('0'); // nobody allotted Mana to the user
  });

  it('getOutputManaRewards: the staking account and the delegation of the genesis, by output ID', async () => {
    const genesisTx = toHex0x(genesisTransactionIdV3(g.protocolParameters));
    const [account, delegation] = [2, 3].map((i) => sdk.Utils.computeOutputId(genesisTx, i));
    expect([account, delegation]).to.deep.equal([toHex0x(genesisOutputId(g, 2)), toHex0x(genesisOutputId(g, 3))]);
    // epoch 0 is not complete: the validator's range is [0, 0]; the delegation's starts after its end
    expect(await client.getOutputManaRewards(account!)).to.deep.equal({
      startEpoch: 0,
      endEpoch: 0,
      rewards: '0',
      latestCommittedEpochPoolRewards: '0',
    });
    const d = await client.getOutputManaRewards(delegation!, 5);
    expect([d.startEpoch, d.endEpoch, d.rewards]).to.deep.equal([STAKE.delegationStartEpoch, 0, '0']);
  });

  it('getNetworkMetrics: measured blocks and confirmed blocks per second', async () => {
    const m = await client.getNetworkMetrics();
    const [bps, cbps, rate] = [m.blocksPerSecond, m.confirmedBlocksPerSecond, m.confirmationRate].map(Number);
    // three seats every 200 ms: about 15 blocks a second, nearly all confirmed (the slow box aside)
    expect(bps).to.be.within(1, 40);
    expect(cbps).to.be.within(0.5, 40);
    expect(rate).to.be.within(20, 200);
  });

  it('REST: bad addresses, IDs and parameters are 400, unknown accounts and outputs 404, as JSON errors', async () => {
    const v3 = `${node.rest}/api/core/v3`;
    const seat = accountAddressToBech32V3(hrp, SEATS[0]!.accountId);
    const cases: [string, number][] = [
      ['/validators/hello', 400],
      [`/validators/${seat.slice(0, -1)}x`, 400],
      [`/validators/${accountAddressToBech32V3('smr', SEATS[0]!.accountId)}`, 400],
      [`/validators/${bech32Encode(hrp, Uint8Array.of(0, ...WALLET.hash))}`, 400],
      [`/validators/${accountAddressToBech32V3(hrp, WALLET.accountId)}`, 404],
      [`/accounts/${accountAddressToBech32V3(hrp, WALLET.accountId)}/congestion`, 404],
      [`/accounts/${seat}/congestion?commitmentId=0x12`, 400],
      [`/accounts/${seat}/congestion?commitmentId=${toHex0x(new Uint8Array(36).fill(7))}`, 404],
      [`/accounts/${bech32Encode(hrp, Uint8Array.of(16, ...WALLET.hash))}/congestion`, 400],
      ['/rewards/0x1234', 400],
      [`/rewards/${toHex0x(genesisOutputId(g, 0))}`, 400],
      [`/rewards/${toHex0x(genesisOutputId(g, 40))}`, 404],
      ['/committee?epoch=abc', 400],
      ['/committee?epoch=4000', 400],
      ['/validators?pageSize=abc', 400],
      ['/validators?pageSize=101', 400],
      ['/validators?cursor=0', 400],
      ['/validators?cursor=0,3', 400],
      ['/validators?cursor=9,0', 400],
    ];
    for (const [path, status] of cases) {
      const res = await fetch(`${v3}${path}`);
      const body = (await res.json()) as { error?: { code: number; message: string } };
      expect([res.status, body.error?.code], path).to.deep.equal([status, status]);
      expect(body.error?.message, path).to.be.a('string').and.not.equal('');
    }
    const raw = await fetch(`${v3}/network/metrics`, { headers: { accept: 'application/vnd.iota.serializer-v2' } });
    expect([raw.status, (await raw.arrayBuffer()).byteLength]).to.deep.equal([200, 24]);
  });
});
