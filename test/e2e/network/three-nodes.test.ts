/**
 * Issue 7 end to end: three nodes on loopback, each with its own data folder and free ports, peered over gRPC.
 * A (coordinator, milestones every 0.3 s) <- B <- C (B dials A, C dials A and B). Blocks submitted to one node are
 * served by all three; A's milestones confirm them everywhere with the same included-block answers and the same
 * ledger; C stopped, blocks and milestones added meanwhile, C restarted: it answers "not synced" at first, catches
 * up milestone by milestone and agrees. Misbehaving peers (garbage, oversized, invalid blocks) are disconnected and
 * the network goes on.
 */
import { Ed25519Seed, sendAdvanced, SingleNodeClient } from '@iota/iota.js';
import { credentials, makeGenericClientConstructor, type ClientDuplexStream } from '@grpc/grpc-js';
import { expect } from 'chai';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import { BlockVersion, type PeerMessage } from '../../../src/grpc/gen/peer.ts';
import { genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { addressHex, genesisWallet, spend, txIdOf, type Owned } from '../ledger/iota.ts';
import { getJson, getRaw, waitFor } from '../ledger/support.ts';
import { connectAsPeer } from '../../../harness/peer-handshake.ts';
import { NetNode, tempRoot, writeGenesis } from './support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

describe('e2e network: three peered nodes gossip, confirm and sync', function () {
  this.timeout(60000);
  const tmp = tempRoot();
  let genesis: Json;
  let a: NetNode, b: NetNode, c: NetNode;
  let wallet: Owned;
  let withoutKeysFile: string;
  const nodes = (): NetNode[] => [a, b, c];

  before(async () => {
    genesis = genesisToJson(devNetworkGenesis({ minPowScore: 10, milestoneInterval: 0.3 }));
    const file = writeGenesis(tmp.root, genesis, 'genesis-a.json');
    // B and C get the same network without the coordinator's private keys: they only take milestones from gossip
    const { coordinator: _keys, ...withoutKeys } = genesis;
    withoutKeysFile = writeGenesis(tmp.root, withoutKeys, 'genesis.json');
    a = new NetNode('a', tmp.root, { genesis: file });
    b = new NetNode('b', tmp.root, { genesis: withoutKeysFile });
    c = new NetNode('c', tmp.root, { genesis: withoutKeysFile });
    await a.start();
    await b.start([a.peerAddress]);
    await c.start([a.peerAddress, b.peerAddress]);
    wallet = genesisWallet(genesis);
  });
  after(async () => {
    for (const n of [a, b, c]) await n?.stop();
    tmp.remove();
  });

  /** Sends `amount` from the wallet to a new address through `via`; the change becomes the wallet's next input. */
  async function transfer(via: NetNode, amount: bigint): Promise<{ blockId: string; txId: string }> {
    const client = new SingleNodeClient(`http://127.0.0.1:${via.running.restPort}`);
    const to = new Ed25519Seed(crypto.getRandomValues(new Uint8Array(32)));
    const total = BigInt(wallet.output.amount);
    const sent = await sendAdvanced(
      client,
      [spend(wallet)],
      [
        { address: addressHex(wallet.seed), addressType: 0, amount: total - amount },
        { address: addressHex(to), addressType: 0, amount },
      ],
    );
    const txId = txIdOf(sent.block);
    const outputs = (sent.block.payload as Json).essence.outputs as Json[];
    const change = outputs.findIndex((o) => o.unlockConditions[0].address.pubKeyHash === addressHex(wallet.seed));
    wallet = {
      input: { type: 0, transactionId: txId, transactionOutputIndex: change },
      output: outputs[change],
      seed: wallet.seed,
    };
    return { blockId: sent.blockId, txId };
  }

  const referenced = (n: NetNode, blockId: string): Promise<Json> =>
    waitFor(`${n.name}: confirmation of ${blockId}`, async () => {
      const r = await getJson(`${n.rest}/blocks/${blockId}/metadata`);
      return r.status === 200 && r.body.referencedByMilestoneIndex !== undefined ? r.body : undefined;
    });

  async function sameLedger(): Promise<number> {
    return waitFor('the same ledger on all three nodes', async () => {
      const f = await Promise.all(nodes().map((n) => n.ledgerFingerprint()));
      if (f[0]!.index !== f[1]!.index || f[0]!.index !== f[2]!.index) return undefined;
      expect(f[1]!.hash, `ledger ${f[0]!.index} of b`).to.equal(f[0]!.hash);
      expect(f[2]!.hash, `ledger ${f[0]!.index} of c`).to.equal(f[0]!.hash);
      return f[0]!.index;
    });
  }

  it('the three nodes connect to each other (handshake, heartbeats)', async () => {
    for (const n of nodes())
      await waitFor(
        `${n.name} has 2 peers`,
        async () => (n.running.testing.peering.connectedPeers() === 2 ? true : undefined),
        10000,
      );
    expect(b.logger.lines.join('\n')).to.not.contain('coordinator on');
    expect(a.logger.lines.join('\n')).to.contain('coordinator on');
    for (const n of nodes())
      await waitFor(`${n.name} synced`, async () => (n.running.testing.peering.synced ? true : undefined), 10000);
  });

  it('a block submitted to one node is served by all three within a second', async () => {
    const res = await fetch(`${c.rest}/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x7065657273', data: '0x01' } }),
    });
    expect(res.status).to.equal(201);
    const { blockId } = (await res.json()) as { blockId: string };
    const t0 = Date.now();
    const id = fromHex0x(blockId);
    await Promise.all(
      [a, b].map(async (n) => {
        while (!(await n.running.testing.store.hasBlock(id))) {
          if (Date.now() - t0 > 1000) throw new Error(`${n.name} does not hold ${blockId} after a second`);
          await new Promise((r) => setTimeout(r, 2));
        }
      }),
    );
    const ms = Date.now() - t0;
    expect(ms).to.be.below(1000);
    const raw = await getRaw(`${c.rest}/blocks/${blockId}`);
    for (const n of [a, b])
      expect((await getRaw(`${n.rest}/blocks/${blockId}`)).bytes, n.name).to.deep.equal(raw.bytes);
    console.log(`      (served by all three ${ms} ms after the submission answered)`);
  });

  it("A's coordinator confirms a transfer submitted to B on all three; the same included-block answers", async () => {
    const { blockId, txId } = await transfer(b, 1_000_000n);
    const mds = await Promise.all(nodes().map((n) => referenced(n, blockId)));
    for (const md of mds) {
      expect(md.ledgerInclusionState).to.equal('included');
      expect(md.referencedByMilestoneIndex).to.equal(mds[0].referencedByMilestoneIndex);
    }
    for (const n of nodes()) {
      const inc = await getRaw(`${n.rest}/transactions/${txId}/included-block`);
      expect(inc.status, n.name).to.equal(200);
      expect(toHex0x(blockIdOf(inc.bytes)), n.name).to.equal(blockId);
    }
  });

  it('all three hold the same ledger state after several milestones', async () => {
    const start = await a.ledgerIndex();
    await transfer(c, 2_000_000n);
    await waitFor('three more milestones everywhere', async () =>
      (await Promise.all(nodes().map((n) => n.ledgerIndex()))).every((i) => i >= start + 3) ? true : undefined,
    );
    const index = await sameLedger();
    expect(index).to.be.at.least(start + 3);
    for (const n of nodes())
      await waitFor(
        `${n.name} healthy`,
        async () => ((await getJson(`${n.rest}/info`)).body.status.isHealthy === true ? true : undefined),
        3000,
      );
  });

  it('a node stopped while blocks and milestones are added catches up after a restart and agrees', async () => {
    await c.stop();
    const stoppedAt = await a.ledgerIndex();
    const { blockId, txId } = await transfer(b, 3_000_000n);
    await referenced(a, blockId);
    await waitFor('four milestones without c', async () =>
      (await a.ledgerIndex()) >= stoppedAt + 4 ? true : undefined,
    );
    await c.start([a.peerAddress, b.peerAddress]);
    // just started: behind, so not synced; submissions are refused with 503 and info is not healthy
    expect(c.running.testing.peering.synced).to.equal(false);
    const early = await fetch(`${c.rest}/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x6c617465', data: '0x' } }),
    });
    expect(early.status).to.equal(503);
    expect(JSON.stringify(await early.json())).to.contain('not synced');
    const target = await a.ledgerIndex();
    expect(await c.ledgerIndex()).to.be.below(target);
    const t0 = Date.now();
    await waitFor(
      'c catches up',
      async () => ((await c.ledgerIndex()) >= target && c.running.testing.peering.synced ? true : undefined),
      20000,
    );
    const catchUpMs = Date.now() - t0;
    const md = await referenced(c, blockId);
    expect(md.ledgerInclusionState).to.equal('included');
    const inc = await getRaw(`${c.rest}/transactions/${txId}/included-block`);
    expect(toHex0x(blockIdOf(inc.bytes))).to.equal(blockId);
    await sameLedger();
    const info = await waitFor('c healthy', async () => {
      const i = await getJson(`${c.rest}/info`);
      return i.body.status.isHealthy === true ? i.body : undefined;
    });
    expect(info.status.confirmedMilestone.index).to.be.at.least(target);
    console.log(`      (c caught up ${target - stoppedAt} milestones in ${catchUpMs} ms)`);
  });

  it('a fresh node that joins late syncs from the genesis milestone by milestone and agrees', async () => {
    const d = new NetNode('d', tmp.root, { genesis: withoutKeysFile });
    try {
      await d.start([b.peerAddress]);
      const target = await a.ledgerIndex();
      expect(await d.ledgerIndex()).to.equal(0);
      const t0 = Date.now();
      await waitFor(
        'd catches up',
        async () => ((await d.ledgerIndex()) >= target && d.running.testing.peering.synced ? true : undefined),
        20000,
      );
      console.log(`      (a fresh node synced ${target} milestones in ${Date.now() - t0} ms)`);
      const [fa, fd] = await waitFor('same ledger index on a and d', async () => {
        const f = await Promise.all([a.ledgerFingerprint(), d.ledgerFingerprint()]);
        return f[0].index === f[1].index ? f : undefined;
      });
      expect(fd.hash).to.equal(fa.hash);
    } finally {
      await d.stop();
    }
  });

  it('peers sending garbage, oversized or invalid blocks are disconnected; the others go on', async () => {
    const networkName = genesis.protocol.networkName as string;
    const before = b.running.testing.peering.stats.dropped;
    // 1. bytes that are no PeerMessage at all: gRPC itself ends the stream
    const Raw = makeGenericClientConstructor(
      {
        connect: {
          path: '/ledger.peer.v1.PeerService/Connect',
          requestStream: true,
          responseStream: true,
          requestSerialize: (b: Buffer) => b,
          requestDeserialize: (b: Buffer) => b,
          responseSerialize: (b: Buffer) => b,
          responseDeserialize: (b: Buffer) => b,
        },
      },
      'PeerService',
    );
    const raw = new Raw(b.peerAddress, credentials.createInsecure()) as unknown as {
      connect(): ClientDuplexStream<Buffer, Buffer>;
      close(): void;
    };
    const garbage = raw.connect();
    const ended = new Promise<string>((resolve) => {
      garbage.on('error', (e) => resolve(e.message));
      garbage.on('end', () => resolve('end'));
    });
    garbage.on('data', () => undefined);
    garbage.write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x01, 0x02]));
    expect(await ended).to.be.a('string');
    raw.close();
    // 2./3. a well-behaved handshake, then an oversized block, or an invalid one
    const rogue = async (payload: Uint8Array): Promise<void> => {
      const { stream: s, close } = await connectAsPeer(b.peerAddress, networkName);
      const closed = new Promise<void>((resolve) => {
        s.on('error', () => resolve());
        s.on('end', () => resolve());
      });
      const send = (m: PeerMessage): boolean => s.write(m);
      send({ kind: { $case: 'block', value: { version: BlockVersion.BLOCK_VERSION_V2, data: payload } } });
      await closed;
      close();
    };
    await rogue(new Uint8Array(40000));
    const tips = (await b.running.testing.service.getTips({ allowSemiLazy: false })).tips;
    // a tagged-data block without PoW (nonce 0 with minPowScore 10): syntactically fine, unsolicited, too little work
    const lazy = encodeBlock({
      protocolVersion: 2,
      parents: tips,
      payload: { type: 5, tag: new Uint8Array([1]), data: new Uint8Array([2]) },
      nonce: 0n,
    });
    await rogue(lazy);
    await rogue(new Uint8Array([2, 1, 0, 0]));
    expect(b.running.testing.peering.stats.dropped - before).to.equal(3);
    expect(b.logger.lines.filter((l) => l.includes('dropped')).join('\n'))
      .to.match(/40000 bytes/)
      .and.to.match(/PoW score/)
      .and.to.match(/invalid block/);
    // the honest peers are still connected and gossip goes on
    for (const n of nodes()) expect(n.running.testing.peering.connectedPeers(), n.name).to.equal(2);
    const { blockId } = await transfer(a, 4_000_000n);
    await Promise.all(nodes().map((n) => referenced(n, blockId)));
    await sameLedger();
  });
});
