/**
 * The DAG side of attaching: real Shimmer mainnet blocks (the cone of milestone 17339) accepted byte for byte by a
 * node on Shimmer's parameters, solidity from solid entry points, late parents healing their children, and tips.
 */
import { expect } from 'chai';
import { compareBytes, fromHex, toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf, transactionIdOf } from '../../../src/core/ids/index.ts';
import { SHIMMER_PROTOCOL, type Block, type TransactionPayload } from '../../../src/core/model/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { devGenesis, ZERO_BLOCK_ID, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { loadVectors } from '../../../harness/vectors.ts';
import { startTestNode, type TestNode } from '../../../harness/node.ts';
import { call } from '../support.ts';

interface ConeEntry {
  blockId: string;
  bytes: string;
}

const shimmer = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json') as {
  milestones: { index: number; coneInWhiteFlagOrder: ConeEntry[] }[];
};

function submitRaw(node: TestNode, raw: Uint8Array): Promise<Uint8Array> {
  return call(node.client, 'submitBlock', { block: { $case: 'raw', value: raw } }).then((r) => r.blockId);
}

async function tips(node: TestNode): Promise<string[]> {
  return (await node.store.tips()).map(toHex0x);
}

describe('node DAG: real blocks, solidity and tips', function () {
  this.timeout(20000);

  it('accepts the cone of Shimmer milestone 17339 byte for byte, solid on its outside parents as SEPs', async () => {
    const cone = shimmer.milestones[0]!.coneInWhiteFlagOrder.map((e) => ({ id: e.blockId, raw: fromHex(e.bytes) }));
    const inCone = new Set(cone.map((e) => e.id));
    const outside = new Map<string, Uint8Array>();
    for (const e of cone)
      for (const p of decodeBlock(e.raw).parents) if (!inCone.has(toHex0x(p))) outside.set(toHex0x(p), p);
    const genesis: Genesis = {
      ...devGenesis({ minPowScore: 0 }),
      protocol: SHIMMER_PROTOCOL,
      solidEntryPoints: [...outside.values()].sort(compareBytes),
    };
    const node = await startTestNode({ genesis });
    try {
      let milestones = 0;
      for (const e of cone) {
        expect(toHex0x(await submitRaw(node, e.raw))).to.equal(e.id);
        const res = await call(node.client, 'getBlock', { blockId: fromHex(e.id), view: BlockView.BLOCK_VIEW_RAW });
        expect(res.raw).to.deep.equal(e.raw);
        const md = await call(node.client, 'getBlockMetadata', { blockId: fromHex(e.id) });
        expect(md.isSolid, e.id).to.equal(true);
        const block = decodeBlock(e.raw);
        if (block.payload?.type === 7) {
          // a milestone block: stored with nonce 0, never mined, its index in the metadata
          expect(block.nonce).to.equal(0n);
          expect(md.milestoneIndex).to.equal(block.payload.index);
          milestones++;
        } else expect(md.milestoneIndex).to.equal(undefined);
      }
      expect(milestones).to.be.at.least(1);
      // the tips are the cone's blocks nobody in the cone references: the parents the milestone 17339 picked
      const referenced = new Set(cone.flatMap((e) => decodeBlock(e.raw).parents.map(toHex0x)));
      expect(await tips(node)).to.deep.equal(
        cone
          .map((e) => e.id)
          .filter((h) => !referenced.has(h))
          .sort(),
      );
      // transactions are indexed for re-attachment lookups
      const withTx = cone.filter((e) => decodeBlock(e.raw).payload?.type === 6);
      expect(withTx.length).to.be.greaterThan(0);
      for (const e of withTx) {
        const payload = decodeBlock(e.raw).payload as TransactionPayload;
        expect((await node.store.transactionBlocks(transactionIdOf(payload))).map(toHex0x)).to.deep.equal([e.id]);
      }
    } finally {
      await node.close();
    }
  });

  it('on the dev network, real Shimmer blocks fail only for their network ID (transactions), else stored', async () => {
    const node = await startTestNode({ minPowScore: 1500 });
    try {
      const cone = shimmer.milestones[0]!.coneInWhiteFlagOrder.map((e) => fromHex(e.bytes));
      const tx = cone.find((raw) => decodeBlock(raw).payload?.type === 6)!;
      const err = await submitRaw(node, tx).then(
        () => undefined,
        (e: { details: string }) => e.details,
      );
      expect(err).to.match(/network/i);
      const data = cone.find((raw) => decodeBlock(raw).payload?.type === 5 || decodeBlock(raw).payload === undefined);
      if (data) expect(toHex0x(await submitRaw(node, data))).to.equal(toHex0x(blockIdOf(data)));
    } finally {
      await node.close();
    }
  });

  it('a block with an unknown parent is stored unsolid; with its parent both are solid, the child a tip', async () => {
    const node = await startTestNode({ minPowScore: 0 });
    try {
      const tag = (text: string, parents: Uint8Array[]): Block => ({
        protocolVersion: 2,
        parents,
        payload: { type: 5, tag: new Uint8Array(0), data: new TextEncoder().encode(text) },
        nonce: 0n,
      });
      const parentRaw = encodeBlock(tag('parent', [ZERO_BLOCK_ID]));
      const parentId = blockIdOf(parentRaw);
      const childRaw = encodeBlock(tag('child', [parentId]));
      const grandchildRaw = encodeBlock(tag('grandchild', [blockIdOf(childRaw)]));
      const childId = await submitRaw(node, childRaw);
      const grandchildId = await submitRaw(node, grandchildRaw);
      for (const id of [childId, grandchildId]) expect((await node.store.getBlockMetadata(id))!.solid).to.equal(false);
      expect(await tips(node)).to.deep.equal([toHex0x(ZERO_BLOCK_ID)]);
      expect(toHex0x(await submitRaw(node, parentRaw))).to.equal(toHex0x(parentId));
      for (const id of [parentId, childId, grandchildId])
        expect((await node.store.getBlockMetadata(id))!.solid, toHex0x(id)).to.equal(true);
      expect(await tips(node)).to.deep.equal([toHex0x(grandchildId)]);
      expect((await node.store.children(parentId)).map(toHex0x)).to.deep.equal([toHex0x(childId)]);
    } finally {
      await node.close();
    }
  });

  it('tip selection picks at most 4 distinct tips, sorted', async () => {
    const node = await startTestNode({ minPowScore: 0 });
    try {
      // Ten blocks on the solid entry point: ten tips (the entry point left the pool at its first child).
      for (let i = 1; i <= 10; i++) {
        const block = {
          protocolVersion: 2,
          parents: [ZERO_BLOCK_ID],
          payload: { type: 5 as const, tag: new Uint8Array([i]), data: new Uint8Array(0) },
          nonce: 1n,
        };
        await call(node.client, 'submitBlock', { block: { $case: 'raw', value: encodeBlock(block) } });
      }
      for (let round = 0; round < 5; round++) {
        const res = await call(node.client, 'getTips', { allowSemiLazy: false });
        const hex = res.tips.map(toHex0x);
        expect(hex).to.have.length(4);
        expect(new Set(hex).size).to.equal(4);
        expect(hex).to.deep.equal(hex.slice().sort());
      }
    } finally {
      await node.close();
    }
  });
});
