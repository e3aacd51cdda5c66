/**
 * The Shimmer replay through the whole node over REST: a genesis FILE built from the vector file (Shimmer's
 * parameters and milestone keys, milestone 17338 as the ledger's last milestone, the outputs consumed by 17339-17341
 * that exist before them as the unspent set, the blocks the cones point to as solid entry points), a node started
 * from it (LevelDB, min PoW 1500 from the file, no coordinator), every cone block POSTed as binary with parents
 * first, then the milestone block of 17341 (rebuilt from its payload, nonce 0). Then over REST: the confirmed
 * milestones, every block's metadata, both Merkle roots, and included-block (JSON + raw) for all 16 transactions.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { blockId as blockIdOf, merkleRoot } from '../../../src/core/ids/index.ts';
import { outputToJson, protocolParametersToJson } from '../../../src/core/json/index.ts';
import type { MilestonePayload } from '../../../src/core/model/index.ts';
import { shimmerReplay, type Json, type ReplayBlock } from '../../support/shimmer-replay.ts';
import { getJson, getRaw, postRaw, startLedgerNode, waitFor, type LedgerTestNode } from './support.ts';

const STATE: Record<string, string> = {
  no_transaction: 'noTransaction',
  included: 'included',
  conflicting: 'conflicting',
};

/** The genesis file of the replay network (the node's own file format, keys as the issue names them). */
function replayGenesis(): {
  genesis: Json;
  cones: ReplayBlock[][];
  payloads: MilestonePayload[];
  rebuilt: ReplayBlock;
} {
  const d = shimmerReplay();
  const prevPayload = d.previous.block.payload as MilestonePayload;
  return {
    cones: d.cones,
    payloads: d.payloads,
    rebuilt: d.milestoneBlocks.find((m) => !m.real)!,
    genesis: {
      protocol: protocolParametersToJson(d.protocol),
      milestone: {
        index: prevPayload.index,
        timestamp: prevPayload.timestamp,
        milestoneId: toHex0x(d.payloads[0]!.previousMilestoneId),
      },
      milestonePublicKeyCount: d.threshold,
      milestoneKeyRanges: d.keyRanges.map((k) => ({ publicKey: toHex0x(k.publicKey), start: k.start, end: k.end })),
      solidEntryPoints: d.solidEntryPoints.map(toHex0x),
      outputs: d.startingOutputs.map(({ outputId, output }) => ({
        outputId: toHex0x(outputId),
        blockId: toHex0x(new Uint8Array(32)),
        milestoneIndexBooked: 0,
        milestoneTimestampBooked: 0,
        output: outputToJson(output),
      })),
      baseToken: {
        name: 'Shimmer',
        tickerSymbol: 'SMR',
        unit: 'SMR',
        subunit: 'glow',
        decimals: 6,
        useMetricPrefix: false,
      },
    },
  };
}

const FILE: Json = shimmerReplay().file;

describe('e2e ledger: the real Shimmer milestones 17339-17341 replayed through the node over REST', function () {
  this.timeout(120000);
  const d = replayGenesis();
  let n: LedgerTestNode;

  before(async () => {
    n = await startLedgerNode(d.genesis);
  });
  after(async () => {
    await n?.close();
  });

  it('starts from the genesis file: Shimmer parameters, ledger at 17338, no coordinator', async () => {
    expect(d.genesis.outputs).to.have.length(23);
    const info = (await getJson(`${n.base}/info`)).body;
    expect(info.protocol.networkName).to.equal('shimmer');
    expect(info.protocol.minPowScore).to.equal(1500);
    expect(info.status.confirmedMilestone.index).to.equal(17338);
    expect(n.logger.lines.some((l) => l.includes('coordinator on'))).to.equal(false);
  });

  it('POSTing the cone blocks (parents first) and the rebuilt milestone 17341 confirms 17339-17341', async () => {
    const blocks = [...d.cones.flat(), d.rebuilt];
    for (const b of blocks) {
      const res = await postRaw(n.base, b.bytes);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.blockId).to.equal(toHex0x(b.id));
    }
    const info = await waitFor('milestone 17341', async () => {
      const i = (await getJson(`${n.base}/info`)).body;
      return i.status.confirmedMilestone.index === 17341 ? i : undefined;
    });
    expect(info.status.latestMilestone.index).to.equal(17341);
    expect(info.status.latestMilestone.milestoneId).to.equal(FILE.milestones[2].milestoneIdInSource);
    // The replayed milestones are years old, so the node says, rightly, that it is not healthy; nothing else warns.
    const unhealthy = (l: string): boolean => l.startsWith('WARN node unhealthy: the latest milestone');
    expect(
      n.logger.lines.filter((l) => (l.startsWith('WARN') || l.startsWith('ERROR')) && !unhealthy(l)),
    ).to.deep.equal([]);
  });

  it('every cone block has the recorded metadata: referenced by, white-flag index, inclusion, conflict', async () => {
    for (const [i, m] of (FILE.milestones as Json[]).entries()) {
      for (const b of m.coneInWhiteFlagOrder) {
        const md = (await getJson(`${n.base}/blocks/${b.blockId}/metadata`)).body;
        expect(md.referencedByMilestoneIndex, b.blockId).to.equal(m.index);
        expect(md.whiteFlagIndex, b.blockId).to.equal(b.whiteFlagIndex);
        expect(md.ledgerInclusionState, b.blockId).to.equal(STATE[b.inclusionState]);
        expect(md.isSolid).to.equal(true);
        // The file records no conflict (96 noTransaction, 16 included): no conflictReason is served.
        expect(b.conflictReason).to.equal('none');
        expect(md.conflictReason, b.blockId).to.equal(undefined);
        expect(md).to.not.have.property('shouldPromote');
      }
      // The milestone blocks carry their index; 17341's is not referenced yet, so it has the tip flags instead.
      const msBlock =
        i < 2
          ? d.cones[i + 1]!.find((c) => c.block.payload?.type === 7 && c.block.payload.index === m.index)!.id
          : d.rebuilt.id;
      const md = (await getJson(`${n.base}/blocks/${toHex0x(msBlock)}/metadata`)).body;
      expect(md.milestoneIndex).to.equal(m.index);
      if (i === 2)
        expect([md.shouldPromote, md.shouldReattach, md.referencedByMilestoneIndex]).to.deep.equal([
          false,
          false,
          undefined,
        ]);
    }
  });

  it('the milestone payloads carry the roots recomputed from the node-reported white-flag order', async () => {
    for (const [i, m] of (FILE.milestones as Json[]).entries()) {
      // Order the cone by the node's whiteFlagIndex, then recompute both roots from what the node reports.
      const rows = await Promise.all(
        d.cones[i]!.map(async (c) => ({
          id: c.id,
          md: (await getJson(`${n.base}/blocks/${toHex0x(c.id)}/metadata`)).body,
        })),
      );
      rows.sort((a, b) => a.md.whiteFlagIndex - b.md.whiteFlagIndex);
      const inclusion = merkleRoot(rows.map((r) => r.id));
      const applied = merkleRoot(rows.filter((r) => r.md.ledgerInclusionState === 'included').map((r) => r.id));
      const msBlock =
        i < 2
          ? d.cones[i + 1]!.find((c) => c.block.payload?.type === 7 && c.block.payload.index === m.index)!
          : d.rebuilt;
      const served = (await getJson(`${n.base}/blocks/${toHex0x(msBlock.id)}`)).body;
      expect(served.payload.index).to.equal(m.index);
      expect(served.payload.inclusionMerkleRoot).to.equal(toHex0x(inclusion));
      expect(served.payload.appliedMerkleRoot).to.equal(toHex0x(applied));
      expect(served.payload.inclusionMerkleRoot).to.equal(m.milestonePayloadJson.inclusionMerkleRoot);
      expect(served.payload.appliedMerkleRoot).to.equal(m.milestonePayloadJson.appliedMerkleRoot);
    }
  });

  it('included-block (JSON and raw) and its metadata answer for all 16 transactions', async () => {
    const txs: Json[] = (FILE.milestones as Json[]).flatMap((m) => m.derived.transactions);
    expect(txs).to.have.length(16);
    const byId = new Map(d.cones.flat().map((c) => [toHex0x(c.id), c]));
    for (const t of txs) {
      const json = await getJson(`${n.base}/transactions/${t.transactionId}/included-block`);
      expect(json.status).to.equal(200);
      const raw = await getRaw(`${n.base}/transactions/${t.transactionId}/included-block`);
      expect(raw.status).to.equal(200);
      expect(toHex0x(raw.bytes)).to.equal(toHex0x(byId.get(t.blockId)!.bytes));
      expect(toHex0x(blockIdOf(raw.bytes))).to.equal(t.blockId);
      expect(json.body.payload.type).to.equal(6);
      const md = (await getJson(`${n.base}/transactions/${t.transactionId}/included-block/metadata`)).body;
      expect(md.blockId).to.equal(t.blockId);
      expect(md.ledgerInclusionState).to.equal('included');
    }
  });

  it('an unknown transaction is a 404 with a clear message', async () => {
    const res = await getJson(`${n.base}/transactions/0x${'ab'.repeat(32)}/included-block`);
    expect(res.status).to.equal(404);
    expect(JSON.stringify(res.body)).to.match(
      /transaction not included: 0x(ab){32} \(unknown, or not confirmed by a milestone yet\)/,
    );
  });
});
