/**
 * The v3 network metrics (src/node/v3/network-metrics.ts): the meter's arithmetic on a test clock, the figures of an
 * engine measured at a slot commitment against the blocks the test attached and saw confirmed, Go's float text; and
 * the serializer-v2 bytes of every network and account answer (src/node/v3/network-answers.ts), read back field by
 * field against the JSON of the same answer.
 */
import { expect } from 'chai';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { toHex0x } from '../../../src/core/bytes.ts';
import { goFloatString } from '../../../src/node/v3/network-answers.ts';
import { V3NetworkMeter } from '../../../src/node/v3/network-metrics.ts';
import { genesisOutputId, USER } from '../../../harness/fixtures/v3.ts';
import { accountAddressToBech32V3 } from '../../../src/core/v3/ids/account-address.ts';
import { BOTH_VIEWS, json, JSON_VIEW, RAW_VIEW, stakedService } from './network-support.ts';
import { rejection } from './support.ts';

/** A little-endian reader of the answers' bytes. */
class Reader {
  private at = 0;
  private readonly view: DataView;
  constructor(private readonly b: Uint8Array) {
    this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  u8 = (): number => this.b[this.at++]!;
  u16 = (): number => this.step(2, this.view.getUint16(this.at, true));
  u32 = (): number => this.step(4, this.view.getUint32(this.at, true));
  u64 = (): string => String(this.step(8, this.view.getBigUint64(this.at, true)));
  i64 = (): string => String(this.step(8, this.view.getBigInt64(this.at, true)));
  f64 = (): number => this.step(8, this.view.getFloat64(this.at, true));
  bool = (): boolean => this.u8() === 1;
  str8 = (): string => new TextDecoder().decode(this.take(this.u8()));
  hex32 = (): string => `0x${Buffer.from(this.take(32)).toString('hex')}`;
  end(): void {
    expect(this.at, 'every byte read').to.equal(this.b.length);
  }
  private take(n: number): Uint8Array {
    const out = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }
  private step<T>(n: number, v: T): T {
    this.at += n;
    return v;
  }
}

const validatorOf = (r: Reader) => ({
  address: r.str8(),
  stakingEndEpoch: r.u32(),
  poolStake: r.u64(),
  validatorStake: r.u64(),
  fixedCost: r.u64(),
  active: r.bool(),
  latestSupportedProtocolVersion: r.u8(),
  latestSupportedProtocolHash: r.hex32(),
});

describe('v3 network metrics and the answers as bytes', () => {
  it("Go's shortest %g text of a float64", () => {
    const cases: [number, string][] = [
      [0, '0'],
      [2.5, '2.5'],
      [100, '100'],
      [1 / 3, '0.3333333333333333'],
      [123456, '123456'],
      [1e6, '1e+06'],
      [1234567, '1.234567e+06'],
      [0.0001, '0.0001'],
      [0.00001, '1e-05'],
      [1e21, '1e+21'],
      [Number.NaN, 'NaN'],
      [Number.POSITIVE_INFINITY, '+Inf'],
    ];
    for (const [x, text] of cases) expect(goFloatString(x), String(x)).to.equal(text);
  });

  it('the meter: zero until a measurement, at least a second apart, a rate of 0 without new blocks', () => {
    let ms = 5000;
    const counts = { attached: 10, confirmed: 4 };
    const meter = new V3NetworkMeter(
      () => counts,
      () => ms,
    );
    const zero = { blocksPerSecond: 0, confirmedBlocksPerSecond: 0, confirmationRate: 0 };
    expect(meter.current).to.deep.equal(zero);
    counts.attached = 20;
    ms += 999;
    meter.measure();
    expect(meter.current, 'less than a second: no measurement').to.deep.equal(zero);
    ms += 1001; // 2 s after the start: 10 new blocks, 6 confirmed
    counts.confirmed = 10;
    meter.measure();
    expect(meter.current).to.deep.equal({ blocksPerSecond: 5, confirmedBlocksPerSecond: 3, confirmationRate: 60 });
    ms += 4000; // no new block, 2 older ones confirmed
    counts.confirmed = 12;
    meter.measure();
    expect(meter.current).to.deep.equal({ blocksPerSecond: 0, confirmedBlocksPerSecond: 0.5, confirmationRate: 0 });
  });

  it('an engine: blocks and confirmed blocks per second between two commitments, as measured by the test', async () => {
    const { h, svc } = await stakedService(1001);
    const metrics = () => json(svc.getNetworkMetrics({ view: JSON_VIEW }));
    expect(await metrics()).to.deep.equal({
      blocksPerSecond: '0',
      confirmedBlocksPerSecond: '0',
      confirmationRate: '0',
    });
    // every block of this burst comes within the same millisecond of the clock: no measurement in between
    const ids: Uint8Array[] = [];
    ids.push(await h.submit({ slot: 1001 }), await h.submit({ slot: 1001, parents: [h.engine.genesisBlockId] }));
    ids.push(...(await h.confirm()), ...(await h.engine.issueValidationBlocks()));
    // a block the engine holds already is answered with its ID (two rounds at one clock may build one twice): once
    const attached = [...new Map(ids.map((id) => [toHex0x(id), id])).values()];
    const states = await h.engine.read(() => Promise.all(attached.map((id) => h.state(id))));
    const confirmed = states.filter((s) => s === 'confirmed').length;
    expect(attached.length).to.be.within(9, 11); // 2 basic blocks and 3 rounds of 3 seats
    expect(confirmed, 'the basic blocks and the first rounds are confirmed, the last round not').to.be.within(2, 10);
    // 30 s later the latest commitment is too old for the clock: the next read commits up to it, and measures
    h.at(1031);
    const seconds = 30;
    const expected = {
      blocksPerSecond: goFloatString(attached.length / seconds),
      confirmedBlocksPerSecond: goFloatString(confirmed / seconds),
      confirmationRate: goFloatString((confirmed / attached.length) * 100),
    };
    expect(await metrics()).to.deep.equal(expected);
    expect(Number(expected.confirmationRate)).to.be.closeTo((100 * confirmed) / attached.length, 1e-9);
    // the figures hold until the next measurement
    await h.engine.issueValidationBlocks();
    expect(await metrics()).to.deep.equal(expected);
  });

  it('serializer-v2 bytes of every answer, field by field as its JSON; both views; no structured view', async () => {
    const { h, svc } = await stakedService(1001);
    await h.confirm();
    h.at(1012);
    await h.confirm();
    const both = async (p: Promise<{ raw: Uint8Array; json: string }>) => {
      const a = await p;
      return { reader: new Reader(a.raw), json: JSON.parse(a.json) as Record<string, unknown> };
    };
    const c = await both(svc.getCommittee({ view: BOTH_VIEWS }));
    const members = Array.from({ length: c.reader.u8() }, () => ({
      address: c.reader.str8(),
      poolStake: c.reader.u64(),
      validatorStake: c.reader.u64(),
      fixedCost: c.reader.u64(),
    }));
    const committee = { committee: members, totalStake: c.reader.u64(), totalValidatorStake: c.reader.u64() };
    expect({ ...committee, epoch: c.reader.u32() }).to.deep.equal(c.json);
    c.reader.end();

    const v = await both(svc.getValidators({ pageSize: 2, cursor: '', view: BOTH_VIEWS }));
    const validators = Array.from({ length: v.reader.u16() }, () => validatorOf(v.reader));
    expect({ validators, pageSize: v.reader.u32(), cursor: v.reader.str8() }).to.deep.equal(v.json);
    v.reader.end();
    const last = await both(svc.getValidators({ pageSize: 2, cursor: '7,2', view: BOTH_VIEWS }));
    const lastPage = Array.from({ length: last.reader.u16() }, () => validatorOf(last.reader));
    expect([lastPage, last.reader.u32(), last.reader.str8()]).to.deep.equal([last.json.validators, 2, '']);
    last.reader.end();

    const bech32Address = accountAddressToBech32V3('rms', USER.accountId);
    const one = await both(svc.getValidator({ bech32Address, view: BOTH_VIEWS }));
    expect(validatorOf(one.reader)).to.deep.equal(one.json);
    one.reader.end();

    const commitmentId = new Uint8Array(0);
    const g = await both(svc.getAccountCongestion({ bech32Address, workScore: 0, commitmentId, view: BOTH_VIEWS }));
    const r = g.reader;
    expect({ slot: r.u32(), ready: r.bool(), referenceManaCost: r.u64(), blockIssuanceCredits: r.i64() }).to.deep.equal(
      g.json,
    );
    r.end();

    const m = await both(svc.getOutputManaRewards({ outputId: genesisOutputId(h.g, 3), view: BOTH_VIEWS }));
    const mr = m.reader;
    const rewards = { startEpoch: mr.u32(), endEpoch: mr.u32(), rewards: mr.u64() };
    expect({ ...rewards, latestCommittedEpochPoolRewards: mr.u64() }).to.deep.equal(m.json);
    mr.end();

    const n = await both(svc.getNetworkMetrics({ view: BOTH_VIEWS }));
    const figures = [n.reader.f64(), n.reader.f64(), n.reader.f64()].map(goFloatString);
    expect(figures).to.deep.equal([n.json.blocksPerSecond, n.json.confirmedBlocksPerSecond, n.json.confirmationRate]);
    n.reader.end();

    // one view only, as asked
    const raw = await svc.getNetworkMetrics({ view: RAW_VIEW });
    expect([raw.raw.length, raw.json]).to.deep.equal([24, '']);
    const onlyJson = await svc.getCommittee({ view: JSON_VIEW });
    expect(onlyJson.raw.length).to.equal(0);
    const e = await rejection(svc.getCommittee({ view: BlockView.BLOCK_VIEW_STRUCTURED }));
    expect(e.code).to.equal('INVALID_REQUEST');
  });
});
