/**
 * The v3 account reads (src/node/v3/reads-network.ts through the V3Service's network RPCs): an account's congestion
 * (the commitment's slot and reference Mana cost, readiness as the DAG's room for basic blocks, the Mana allotted to
 * the account as its credits) and an output's Mana rewards (the epoch range iota-core answers for a pool without
 * rewards, for a staking account and a delegation; the refusals of other outputs), with NOT_FOUND and
 * INVALID_ARGUMENT where iota-core answers 404 and 400.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { toHex0x } from '../../../src/core/bytes.ts';
import { accountAddressToBech32V3 } from '../../../src/core/v3/ids/account-address.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import { grpcCodeOf } from '../../../src/node/grpc/errors.ts';
import { V3Service } from '../../../src/node/grpc/service-v3.ts';
import { V3Engine } from '../../../src/node/v3/engine.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import {
  basic,
  basicBlock,
  genesisOutputId,
  inputOf,
  key,
  signedTx,
  slotStartNs,
  testGenesisV3,
  USER,
  WALLET,
} from '../../../harness/fixtures/v3.ts';
import { stakedGenesisV3, stakingAccount } from '../../../harness/fixtures/v3-stake.ts';
import { EPOCH128_PARAMS, json, JSON_VIEW, StakedHarness, stakedService } from './network-support.ts';
import { rejection } from './support.ts';

const address = (k: { accountId: Uint8Array }): string => accountAddressToBech32V3('rms', k.accountId);

async function statusOf(p: Promise<unknown>): Promise<GrpcStatus> {
  const e = await rejection(p);
  return grpcCodeOf(e.code!);
}

describe('v3 network reads: congestion and Mana rewards', () => {
  it('congestion: the latest commitment, credits from confirmed allotments; a named commitment', async () => {
    const { h, svc } = await stakedService(1001);
    const congestion = (k: { accountId: Uint8Array }, commitmentId: Uint8Array = new Uint8Array(0)) =>
      json(svc.getAccountCongestion({ bech32Address: address(k), workScore: 0, commitmentId, view: JSON_VIEW }));
    const latest = () => h.engine.latestCommitment.commitment;
    expect(await congestion(USER)).to.deep.equal({
      slot: latest().slot,
      ready: true,
      referenceManaCost: String(latest().referenceManaCost),
      blockIssuanceCredits: '0',
    });
    const tx = signedTx(
      {
        creationSlot: 1001,
        inputs: [inputOf(genesisOutputId(h.g, 0))],
        outputs: [basic(1_000_000_000n, key(70))],
        contextInputs: [{ type: 0, commitmentId: h.engine.latestCommitmentId }],
        allotments: [{ accountId: USER.accountId, mana: 25n }],
      },
      WALLET,
      h.engine.params,
    );
    await h.submit({ slot: 1001, payload: tx });
    await h.confirm();
    h.at(1013);
    const after = await congestion(USER);
    expect(after).to.deep.include({ slot: latest().slot, blockIssuanceCredits: '25' });
    expect(after.slot).to.be.above(991);
    expect((await congestion(key(1))).blockIssuanceCredits, 'a seat nobody allotted to').to.equal('0');
    const genesis = await congestion(USER, h.engine.genesisCommitmentId);
    expect(genesis).to.deep.include({
      slot: 0,
      referenceManaCost: String(h.engine.genesisCommitment.referenceManaCost),
    });
    const unknownCommitment = svc.getAccountCongestion({
      bech32Address: address(USER),
      workScore: 0,
      commitmentId: randomBytes(36),
      view: JSON_VIEW,
    });
    expect(await statusOf(unknownCommitment)).to.equal(GrpcStatus.NOT_FOUND);
    const unknownAccount = svc.getAccountCongestion({
      bech32Address: address(WALLET),
      workScore: 0,
      commitmentId: new Uint8Array(0),
      view: JSON_VIEW,
    });
    expect(await statusOf(unknownAccount)).to.equal(GrpcStatus.NOT_FOUND);
    const short = svc.getAccountCongestion({
      bech32Address: address(USER),
      workScore: 0,
      commitmentId: new Uint8Array(35),
      view: JSON_VIEW,
    });
    expect(await statusOf(short)).to.equal(GrpcStatus.INVALID_ARGUMENT);
  });

  it('congestion: not ready while the DAG holds as many unconfirmed basic blocks as it takes', async () => {
    const g = testGenesisV3();
    const store = await NodeStore.open(new MemoryKeyValueStore());
    await V3Engine.create(store, g);
    const nowMs = Number(slotStartNs(g.protocolParameters, 1001) / 1_000_000n) + 100;
    const engine = (await V3Engine.open(store, { now: () => nowMs, commitLagSlots: 0, limits: { maxPending: 1 } }))!;
    const svc = new V3Service(engine, { name: 'n', version: 'v', baseToken: {} }).network;
    const ready = async () =>
      (
        await json(
          svc.getAccountCongestion({
            bech32Address: address(USER),
            workScore: 100,
            commitmentId: new Uint8Array(0),
            view: JSON_VIEW,
          }),
        )
      ).ready;
    expect(await ready()).to.equal(true);
    const bytes = await engine.read(() =>
      basicBlock(engine.params, {
        issuer: USER,
        parents: engine.selectTips(),
        issuingTime: slotStartNs(engine.params, 1001),
        commitmentId: engine.commitmentIdForSlot(1001),
      }),
    );
    await engine.submit({ raw: bytes });
    expect(await ready()).to.equal(false);
    await engine.issueValidationBlocks();
    await engine.issueValidationBlocks();
    expect(await ready()).to.equal(true);
  });

  it('rewards: a staking account and a delegation, by the claiming slot; 0 Mana (no reward pools)', async () => {
    const { h, svc } = await stakedService(1001);
    const [account, delegation] = [genesisOutputId(h.g, 2), genesisOutputId(h.g, 3)];
    const rewards = (outputId: Uint8Array, slot?: number) =>
      json(svc.getOutputManaRewards({ outputId, ...(slot === undefined ? {} : { slot }), view: JSON_VIEW }));
    const range = async (outputId: Uint8Array, slot?: number) => {
      const r = await rewards(outputId, slot);
      expect([r.rewards, r.latestCommittedEpochPoolRewards]).to.deep.equal(['0', '0']);
      return [r.startEpoch, r.endEpoch];
    };
    // latest commitment 991: epochs up to 6 are complete; claiming in epoch 7 (slot 991 + minCommittableAge 10)
    expect(await h.engine.read(() => h.engine.commitments.latestSlot)).to.equal(991);
    // the validator (start epoch 0, end 50): iota-core moves the start to the last epoch without rewards
    expect(await range(account)).to.deep.equal([6, 6]);
    // the delegation (start 1, delegating): up to the epoch before the claiming one, start moved past the last
    expect(await range(delegation)).to.deep.equal([7, 6]);
    // claiming in slot 500 (epoch 3): the delegation ends at epoch 2
    expect(await range(account, 500)).to.deep.equal([6, 6]);
    expect(await range(delegation, 500)).to.deep.equal([3, 2]);
    // claiming in slot 0 (epoch 0): "the epoch before" wraps as iota-core's u32, so the complete epochs bound it
    expect(await range(delegation, 0)).to.deep.equal([7, 6]);
    // claiming in epoch 468: rewards before epoch 468 - 384 (the retention period) are gone
    expect(await range(account, 60000)).to.deep.equal([84, 6]);
    expect(await range(delegation, 60000)).to.deep.equal([84, 6]);
  });

  it('rewards: refusals of outputs neither staking accounts nor delegations, and of unknown ones', async () => {
    class Harness extends StakedHarness {
      override readonly g: GenesisV3 = (() => {
        const g = stakedGenesisV3({ params: EPOCH128_PARAMS });
        const plain = stakingAccount(key(2), { amount: 1n, staked: 0n, fixedCost: 0n, startEpoch: 0, endEpoch: 0 });
        g.outputs.push({ ...plain, features: [] });
        return g;
      })();
    }
    const h = await new Harness().open();
    h.at(1001);
    const svc = new V3Service(h.engine, { name: 'n', version: 'v', baseToken: {} }).network;
    const status = (outputId: Uint8Array) => statusOf(svc.getOutputManaRewards({ outputId, view: JSON_VIEW }));
    expect(await status(genesisOutputId(h.g, 0)), 'a basic output').to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect(await status(genesisOutputId(h.g, 4)), 'an account without staking').to.equal(GrpcStatus.INVALID_ARGUMENT);
    expect(await status(genesisOutputId(h.g, 9)), 'no such output').to.equal(GrpcStatus.NOT_FOUND);
    expect(await status(new Uint8Array(37)), 'a 37-byte ID').to.equal(GrpcStatus.INVALID_ARGUMENT);
    const e = await rejection(svc.getOutputManaRewards({ outputId: genesisOutputId(h.g, 0), view: JSON_VIEW }));
    expect(e.message).to.equal(
      `output ${toHex0x(genesisOutputId(h.g, 0))} is neither a delegation output nor an account`,
    );
  });
});
