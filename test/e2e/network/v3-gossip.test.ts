/**
 * v3 (IOTA 2.0) blocks on the peer streams: two peered nodes with a v3 part in their genesis. A runs the built-in
 * validator (a round every 30 ms, idle or not; its validation blocks stay local: only client submissions are
 * gossiped), B none. A block submitted to A references A's validation blocks, which B does not have: B parks it,
 * requests the missing parents by their 36-byte IDs, and submits the whole chain to its own V3 engine; then it serves
 * the block.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { slotFromTime, type ProtocolParametersV3 } from '../../../src/core/v3/index.ts';
import { devProtocolParametersV3, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { basic, genesisOutputId, inputOf, key, signedTx, testGenesisV3, WALLET } from '../../../harness/fixtures/v3.ts';
import { waitFor } from '../ledger/support.ts';
import { genesisWithV3, issuance, issuingTime, userBlock } from '../v3/support.ts';
import { NetNode, tempRoot, writeGenesis } from './support.ts';

const V2 = 'application/vnd.iota.serializer-v2';

describe('e2e network: v3 blocks travel between peers', function () {
  this.timeout(30000);
  const tmp = tempRoot();
  let a: NetNode, b: NetNode;
  let g: GenesisV3;
  let params: ProtocolParametersV3;

  before(async () => {
    params = devProtocolParametersV3(Math.floor(Date.now() / 1000) - 100);
    g = testGenesisV3({ params, funded: 1 });
    const file = writeGenesis(tmp.root, genesisWithV3(g));
    a = new NetNode('a', tmp.root, { genesis: file, coordinator: false, validationInterval: 30, powWorkers: 0 });
    b = new NetNode('b', tmp.root, { genesis: file, coordinator: false, validationInterval: 0, powWorkers: 0 });
    await a.start();
    await b.start([a.peerAddress]);
    await waitFor('peered', async () => (b.running.testing.peering.connectedPeers() === 1 ? true : undefined), 5000);
  });
  after(async () => {
    for (const n of [a, b]) await n?.stop();
    tmp.remove();
  });

  const v3 = (n: NetNode): string => `http://127.0.0.1:${n.running.restPort}/api/core/v3`;

  it('a v3 block submitted to A, on top of blocks B never saw, is served by B with the same bytes', async () => {
    // a first user block among A's validation blocks, which stay on A: A's tips are unknown to B; issued after its
    // parents (A's validator may have issued one in this millisecond)
    const iss0 = await issuance(v3(a));
    const first = userBlock(params, iss0, issuingTime(iss0));
    const r0 = await fetch(`${v3(a)}/blocks`, {
      method: 'POST',
      headers: { 'content-type': V2 },
      body: Buffer.from(first),
    });
    expect(r0.status).to.equal(201);
    await new Promise((r) => setTimeout(r, 200));
    const iss = await issuance(v3(a));
    const t = issuingTime(iss);
    const tx = signedTx(
      {
        creationSlot: slotFromTime(t, params),
        inputs: [inputOf(genesisOutputId(g, 0))],
        outputs: [basic(1_000_000_000n, key(70))],
      },
      WALLET,
      params,
    );
    const block = userBlock(params, iss, t, tx);
    const r = await fetch(`${v3(a)}/blocks`, {
      method: 'POST',
      headers: { 'content-type': V2 },
      body: Buffer.from(block),
    });
    expect(r.status).to.equal(201);
    const { blockId } = (await r.json()) as { blockId: string };
    const served = await waitFor(
      `b serves ${blockId}`,
      async () => {
        const res = await fetch(`${v3(b)}/blocks/${blockId}`, { headers: { accept: V2 } });
        return res.status === 200 ? new Uint8Array(await res.arrayBuffer()) : undefined;
      },
      5000,
    );
    expect(toHex0x(served)).to.equal(toHex0x(block));
    expect(b.running.testing.peering.stats.requested).to.be.greaterThan(0);
  });
});
