/**
 * The ledger reads end to end over REST: a composed node on a dev-network genesis (plus a treasury), a signed transfer
 * from the dev wallet confirmed by the built-in coordinator's milestone 1, and a receipt in milestone 2; the gateway
 * in front of it over both transports. Outputs (genesis, spent, created, migrated) with their metadata, milestones by
 * index and by ID (JSON = the payload inside the milestone's block; bytes decode with the node's codec), their UTXO
 * changes, receipts, the treasury, and the 400 / 404 answers.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, decodeOutput, decodePayload, encodeBlock, encodeOutput } from '../../../src/core/codec/index.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed, ed25519Sign } from '../../../src/core/crypto/index.ts';
import {
  bech32EncodeAddress,
  essenceHash,
  inputsCommitmentOf,
  milestoneIdOf,
  networkIdFromName,
  outputId,
  transactionIdOf,
} from '../../../src/core/ids/index.ts';
import { blockToJson, milestoneOptionToJson, outputToJson } from '../../../src/core/json/index.ts';
import { ledgerGenesisOf, coordinatorOf, devWalletOf } from '../../../src/node/genesis/genesis-ledger.ts';
import type {
  BasicOutput,
  Block,
  Ed25519Address,
  MilestonePayload,
  ReceiptMilestoneOption,
  TransactionPayload,
} from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { composeNode, type ComposedNode } from '../../../src/node/compose.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { genesisFromJson, genesisToJson, ZERO_BLOCK_ID, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { servicePort } from '../../../src/node/grpc/port.ts';
import { startGrpcServer, type GrpcServerHandle } from '../../../src/node/grpc/server.ts';
import type { IssuedMilestone } from '../../../src/node/ledger/coordinator.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { recordGenesis } from '../../../src/node/genesis/open-network.ts';
import { connectTo, startTestGateway, TRANSPORTS, type NodeEndpoint, type TestGateway } from '../../gateway/harness.ts';
import { CollectingLogger } from '../../../harness/node.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const V1 = 'application/vnd.iota.serializer-v1';
const TREASURY = 10_000_000n;
const TREASURY_MILESTONE = new Uint8Array(32).fill(0x77);
const OTHER_SEED = new Uint8Array(32).fill(0x42);
const SENT = 1_000_000n;
const MIGRATED = 1_000_000n;

function basic(amount: bigint, address: Ed25519Address): BasicOutput {
  return { type: 3, amount, nativeTokens: [], unlockConditions: [{ type: 0, address }], features: [] };
}

/**
 * A dev genesis funding the dev wallet and OTHER_SEED's address, with TREASURY moved from the wallet into a treasury.
 */
function genesisWithTreasury(): Genesis {
  const json = genesisToJson(
    devNetworkGenesis({ minPowScore: 0, timestamp: Math.floor(Date.now() / 1000) - 10, funds: [toHex0x(OTHER_SEED)] }),
  ) as Json;
  json.outputs[0].output.amount = (BigInt(json.outputs[0].output.amount) - TREASURY).toString();
  json.treasury = { milestoneId: toHex0x(TREASURY_MILESTONE), amount: TREASURY.toString() };
  return genesisFromJson(JSON.parse(JSON.stringify(json)));
}

interface Scenario {
  genesis: Genesis;
  parts: ComposedNode;
  genesisOutputs: {
    outputId: Uint8Array;
    output: BasicOutput;
    milestoneIndexBooked: number;
    milestoneTimestampBooked: number;
  }[];
  tx: TransactionPayload;
  txId: Uint8Array;
  txBlockId: Uint8Array;
  ms1: IssuedMilestone;
  ms2: IssuedMilestone;
  receipt: ReceiptMilestoneOption;
}

/** The node, a confirmed transfer (milestone 1) and a receipt (milestone 2). */
async function scenario(): Promise<Scenario> {
  const genesis = genesisWithTreasury();
  const store = await NodeStore.open(new MemoryKeyValueStore());
  const network = await recordGenesis(store, genesis);
  const parts = await composeNode({
    store,
    network,
    version: 't',
    logger: new CollectingLogger(),
    coordinator: coordinatorOf(genesis)!,
  });
  await parts.milestones.start();
  const genesisOutputs = ledgerGenesisOf(genesis).unspentOutputs as Scenario['genesisOutputs'];

  const wallet = devWalletOf(genesis)!.seed;
  const walletAddress = ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(wallet));
  const other = ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(OTHER_SEED));
  const spent = genesisOutputs[0]!;
  const essence = {
    type: 1 as const,
    networkId: networkIdFromName(genesis.protocol.networkName),
    inputs: [{ type: 0 as const, transactionId: spent.outputId.slice(0, 32), transactionOutputIndex: 0 }],
    inputsCommitment: inputsCommitmentOf([spent.output]),
    outputs: [basic(SENT, other), basic(spent.output.amount - SENT, walletAddress)],
  };
  const signature = ed25519Sign(wallet, essenceHash(essence));
  const tx: TransactionPayload = {
    type: 6,
    essence,
    unlocks: [{ type: 0, signature: { type: 0, publicKey: ed25519PublicKeyFromSeed(wallet), signature } }],
  };
  const block: Block = { protocolVersion: 2, parents: [ZERO_BLOCK_ID], payload: tx, nonce: 1n };
  const txBlockId = (await parts.service.submitBlock({ block: { $case: 'raw', value: encodeBlock(block) } })).blockId;
  const ms1 = await parts.coordinator!.issue();

  const receipt: ReceiptMilestoneOption = {
    type: 0,
    migratedAt: 5,
    final: false,
    funds: [{ tailTransactionHash: new Uint8Array(49).fill(9), address: other, deposit: MIGRATED }],
    transaction: {
      type: 4,
      input: { type: 1, milestoneId: TREASURY_MILESTONE },
      output: { type: 2, amount: TREASURY - MIGRATED },
    },
  };
  const ms2 = await parts.coordinator!.issue([receipt]);
  return { genesis, parts, genesisOutputs, tx, txId: transactionIdOf(tx), txBlockId, ms1, ms2, receipt };
}

/** How the gateway reaches the composed node: its service in process, or its gRPC server. */
async function endpointOf(
  transport: (typeof TRANSPORTS)[number],
  parts: ComposedNode,
): Promise<{ endpoint: NodeEndpoint; stop(): Promise<void> }> {
  const logger = new CollectingLogger();
  if (transport === 'in-process') {
    const port = servicePort(parts.service, { logger });
    return { endpoint: { connect: () => ({ port, close: () => undefined }) }, stop: async () => port.close() };
  }
  const server: GrpcServerHandle = await startGrpcServer(parts.service, { host: '127.0.0.1', port: 0, logger });
  return {
    endpoint: { connect: () => connectTo(transport, `127.0.0.1:${server.port}`) },
    stop: () => server.close(500),
  };
}

describe('ledger reads over REST: outputs, milestones, receipts, treasury (a composed dev-network node)', function () {
  this.timeout(30000);
  let s: Scenario;

  before(async () => {
    s = await scenario();
  });
  after(async () => {
    await s?.parts.stop();
  });

  it('the service: UNSPECIFIED view answers bytes and JSON; STRUCTURED and a request naming no milestone are INVALID_REQUEST', async () => {
    const both = await s.parts.service.getMilestone({
      milestone: { $case: 'index', value: 1 },
      view: BlockView.BLOCK_VIEW_UNSPECIFIED,
    });
    expect([both.index, toHex0x(both.milestoneId), both.raw.length > 0, both.json.length > 0]).to.deep.equal([
      1,
      toHex0x(s.ms1.milestoneId),
      true,
      true,
    ]);
    const output = await s.parts.service.getOutput({
      outputId: s.genesisOutputs[1]!.outputId,
      view: BlockView.BLOCK_VIEW_UNSPECIFIED,
    });
    expect([output.raw.length > 0, output.json.length > 0]).to.deep.equal([true, true]);
    const refused = [
      s.parts.service.getOutput({ outputId: s.genesisOutputs[1]!.outputId, view: BlockView.BLOCK_VIEW_STRUCTURED }),
      s.parts.service.getMilestone({ milestone: { $case: 'index', value: 1 }, view: BlockView.BLOCK_VIEW_STRUCTURED }),
      s.parts.service.getMilestoneUtxoChanges({ milestone: undefined, view: BlockView.BLOCK_VIEW_UNSPECIFIED }),
    ];
    for (const p of refused) {
      const err: unknown = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(NodeError);
      expect((err as NodeError).code).to.equal('INVALID_REQUEST');
    }
  });

  for (const transport of TRANSPORTS) {
    describe(`[over ${transport}]`, () => {
      let gw: TestGateway;
      let stop: () => Promise<void>;
      const v2 = (path: string): string => `${gw.url}/api/core/v2${path}`;
      const json = async (path: string): Promise<{ status: number; body: Json; text: string }> => {
        const res = await fetch(v2(path));
        const text = await res.text();
        return { status: res.status, body: JSON.parse(text), text };
      };
      const raw = async (path: string): Promise<Uint8Array> => {
        const res = await fetch(v2(path), { headers: { accept: V1 } });
        expect([res.status, res.headers.get('content-type')]).to.deep.equal([200, V1]);
        return new Uint8Array(await res.arrayBuffer());
      };

      before(async () => {
        const e = await endpointOf(transport, s.parts);
        stop = e.stop;
        gw = await startTestGateway(e.endpoint);
      });
      after(async () => {
        await gw.close();
        await stop();
      });

      it('a genesis output: unspent, booked at the genesis milestone, its output JSON and its bytes', async () => {
        const g = s.genesisOutputs[1]!;
        const res = await json(`/outputs/${toHex0x(g.outputId)}`);
        expect(res.status).to.equal(200);
        expect(Object.keys(res.body)).to.deep.equal(['metadata', 'output']);
        expect(res.body.metadata).to.deep.equal({
          blockId: toHex0x(new Uint8Array(32)),
          transactionId: toHex0x(g.outputId.slice(0, 32)),
          outputIndex: 1,
          isSpent: false,
          milestoneIndexBooked: s.genesis.milestone.index,
          milestoneTimestampBooked: g.milestoneTimestampBooked,
          ledgerIndex: 2,
        });
        expect(res.body.output).to.deep.equal(outputToJson(g.output));
        expect(decodeOutput(await raw(`/outputs/${toHex0x(g.outputId)}`))).to.deep.equal(g.output);
        expect((await json(`/outputs/${toHex0x(g.outputId)}/metadata`)).body).to.deep.equal(res.body.metadata);
      });

      it('the spent genesis output says which transaction spent it, at which milestone (Hornet key order)', async () => {
        const id = toHex0x(s.genesisOutputs[0]!.outputId);
        const md = (await json(`/outputs/${id}/metadata`)).body;
        expect(Object.keys(md)).to.deep.equal([
          'blockId',
          'transactionId',
          'outputIndex',
          'isSpent',
          'milestoneIndexSpent',
          'milestoneTimestampSpent',
          'transactionIdSpent',
          'milestoneIndexBooked',
          'milestoneTimestampBooked',
          'ledgerIndex',
        ]);
        const ms1 = decodeBlock((await s.parts.store.getBlock(s.ms1.blockId))!).payload as MilestonePayload;
        expect(md).to.deep.include({
          isSpent: true,
          milestoneIndexSpent: 1,
          milestoneTimestampSpent: ms1.timestamp,
          transactionIdSpent: toHex0x(s.txId),
          ledgerIndex: 2,
        });
        expect((await json(`/outputs/${id}`)).body.metadata).to.deep.equal(md);
      });

      it('a created output: booked by milestone 1 with the block that carried its transaction; bytes decode to it', async () => {
        const id = toHex0x(outputId(s.txId, 1));
        const res = (await json(`/outputs/${id}`)).body;
        expect(res.metadata).to.deep.include({
          blockId: toHex0x(s.txBlockId),
          transactionId: toHex0x(s.txId),
          outputIndex: 1,
          isSpent: false,
          milestoneIndexBooked: 1,
        });
        expect(res.output).to.deep.equal(outputToJson(s.tx.essence.outputs[1]!));
        const bytes = await raw(`/outputs/${id}`);
        expect(bytes).to.deep.equal(encodeOutput(s.tx.essence.outputs[1]!));
        expect(decodeOutput(bytes)).to.deep.equal(s.tx.essence.outputs[1]);
      });

      it("milestone 1's UTXO changes, by index and by ID: the transfer's outputs created, the genesis output consumed", async () => {
        const byIndex = await json('/milestones/by-index/1/utxo-changes');
        expect(byIndex.body).to.deep.equal({
          index: 1,
          createdOutputs: [toHex0x(outputId(s.txId, 0)), toHex0x(outputId(s.txId, 1))],
          consumedOutputs: [toHex0x(s.genesisOutputs[0]!.outputId)],
        });
        expect((await json(`/milestones/${toHex0x(s.ms1.milestoneId)}/utxo-changes`)).text).to.equal(byIndex.text);
      });

      it('a milestone by index and by ID: the payload JSON of its block, and its bytes decoding to the same payload', async () => {
        for (const ms of [s.ms1, s.ms2]) {
          const inBlock = blockToJson(decodeBlock((await s.parts.store.getBlock(ms.blockId))!)).payload;
          const byIndex = await json(`/milestones/by-index/${ms.index}`);
          expect(byIndex.status).to.equal(200);
          expect(byIndex.body).to.deep.equal(JSON.parse(JSON.stringify(inBlock)));
          expect((await json(`/milestones/${toHex0x(ms.milestoneId)}`)).text).to.equal(byIndex.text);
          const bytes = await raw(`/milestones/by-index/${ms.index}`);
          expect(await raw(`/milestones/${toHex0x(ms.milestoneId)}`)).to.deep.equal(bytes);
          const payload = decodePayload(bytes) as MilestonePayload;
          expect(payload.index).to.equal(ms.index);
          expect(toHex0x(milestoneIdOf(payload))).to.equal(toHex0x(ms.milestoneId));
        }
      });

      it('the receipt: listed under receipts and its migratedAt, the treasury replaced, the migrated output booked', async () => {
        const listed = {
          receipts: [{ receipt: JSON.parse(JSON.stringify(milestoneOptionToJson(s.receipt))), milestoneIndex: 2 }],
        };
        expect((await json('/receipts')).body).to.deep.equal(listed);
        expect((await json('/receipts/5')).body).to.deep.equal(listed);
        expect((await json('/receipts/0005')).body).to.deep.equal(listed);
        expect((await json('/receipts/6')).body).to.deep.equal({ receipts: [] });
        expect((await json('/treasury')).body).to.deep.equal({
          milestoneId: toHex0x(s.ms2.milestoneId),
          amount: (TREASURY - MIGRATED).toString(),
        });
        const migrated = outputId(s.ms2.milestoneId, 0);
        const out = (await json(`/outputs/${toHex0x(migrated)}`)).body;
        expect(out.metadata).to.deep.include({
          blockId: toHex0x(s.ms2.milestoneId),
          isSpent: false,
          milestoneIndexBooked: 2,
        });
        const changes = (await json('/milestones/by-index/2/utxo-changes')).body;
        expect(changes).to.deep.equal({ index: 2, createdOutputs: [toHex0x(migrated)], consumedOutputs: [] });
      });

      const notFound: [string, string, RegExp][] = [
        [
          'an unknown output',
          `/outputs/0x${'ee'.repeat(32)}0000`,
          /^could not find data: output not found: 0x(ee){32}0000$/,
        ],
        [
          'the metadata of an unknown output',
          `/outputs/0x${'ee'.repeat(32)}0100/metadata`,
          /^could not find data: output not found/,
        ],
        [
          'an unknown milestone index',
          '/milestones/by-index/99',
          /^could not find data: milestone index not found: 99$/,
        ],
        [
          'the UTXO changes of an unknown milestone index',
          '/milestones/by-index/99/utxo-changes',
          /^could not find data: no UTXO changes stored for milestone index 99$/,
        ],
        [
          'an unknown milestone ID',
          `/milestones/0x${'ee'.repeat(32)}`,
          /^could not find data: milestone not found: 0x(ee){32}$/,
        ],
        [
          'the UTXO changes of an unknown milestone ID',
          `/milestones/0x${'ee'.repeat(32)}/utxo-changes`,
          /^could not find data: milestone not found/,
        ],
        [
          'the genesis milestone (its block is not held)',
          '/milestones/by-index/0',
          /^could not find data: milestone 0 .* has no stored block/,
        ],
        [
          'the UTXO changes of the genesis milestone',
          '/milestones/by-index/0/utxo-changes',
          /^could not find data: no UTXO changes stored for milestone index 0/,
        ],
      ];
      const invalid: [string, string, RegExp][] = [
        [
          'an output ID of 33 bytes',
          `/outputs/0x${'ab'.repeat(33)}`,
          /^invalid data provided: invalid output ID: 0x(ab){33}, expected 34 bytes, got 33$/,
        ],
        [
          'an output ID without 0x',
          `/outputs/${'ab'.repeat(34)}/metadata`,
          /^invalid data provided: invalid output ID: .*without 0x prefix/,
        ],
        [
          'an output index over 127',
          `/outputs/0x${'ab'.repeat(32)}8000`,
          /^invalid data provided: output ID: output index 128 is outside 0\.\.127/,
        ],
        [
          'a milestone index that is not a number',
          '/milestones/by-index/abc',
          /^invalid data provided: invalid milestone index: abc, expected a decimal number$/,
        ],
        [
          'a negative milestone index',
          '/milestones/by-index/-1/utxo-changes',
          /^invalid data provided: invalid milestone index: -1/,
        ],
        [
          'a milestone index over u32',
          '/milestones/by-index/4294967296',
          /^invalid data provided: invalid milestone index: 4294967296, out of range/,
        ],
        [
          'a milestone ID of 31 bytes',
          `/milestones/0x${'ab'.repeat(31)}`,
          /^invalid data provided: invalid milestone ID: .*expected 32 bytes, got 31/,
        ],
        ['a migratedAt that is not a number', '/receipts/1e3', /^invalid data provided: invalid migratedAt index: 1e3/],
      ];
      const cases = [
        ...notFound.map(([w, p, m]) => [w, p, m, 404] as const),
        ...invalid.map(([w, p, m]) => [w, p, m, 400] as const),
      ];
      for (const [what, path, message, code] of cases) {
        it(`${what}: ${code}`, async () => {
          const res = await json(path);
          expect([res.status, res.body.error.code]).to.deep.equal([code, code]);
          expect(res.body.error.message).to.match(message);
        });
      }

      describe('the indexer (TIP-26)', () => {
        const indexer = async (path: string): Promise<{ status: number; body: Json }> => {
          const res = await fetch(`${gw.url}/api/indexer/v1${path}`);
          return { status: res.status, body: JSON.parse(await res.text()) };
        };
        const hrp = (): string => s.genesis.protocol.bech32Hrp;
        const other = (): string =>
          bech32EncodeAddress(hrp(), ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(OTHER_SEED)));
        const wallet = (): string =>
          bech32EncodeAddress(
            hrp(),
            ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(devWalletOf(s.genesis)!.seed)),
          );
        // What OTHER_SEED's address owns, oldest first: its genesis share, the transfer (milestone 1), the migration
        // (2).
        const owned = (): string[] =>
          [s.genesisOutputs[1]!.outputId, outputId(s.txId, 0), outputId(s.ms2.milestoneId, 0)].map(toHex0x);

        it('basic outputs by address and the combined unlockableByAddress route list what the address owns, oldest first', async () => {
          const basic = await indexer(`/outputs/basic?address=${other()}`);
          expect(basic.status).to.equal(200);
          expect(basic.body).to.deep.include({ ledgerIndex: 2, items: owned() });
          expect(basic.body.cursor).to.equal(undefined);
          expect((await indexer(`/outputs?unlockableByAddress=${other()}`)).body.items).to.deep.equal(owned());
          // The dev wallet spent its genesis output: only its change is left.
          expect((await indexer(`/outputs/basic?address=${wallet()}`)).body.items).to.deep.equal([
            toHex0x(outputId(s.txId, 1)),
          ]);
        });

        it('pages of one follow the cursor without gaps or repeats', async () => {
          const seen: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await indexer(
              `/outputs/basic?address=${other()}&pageSize=1${cursor === undefined ? '' : `&cursor=${cursor}`}`,
            );
            expect([page.status, page.body.pageSize, page.body.items.length]).to.deep.equal([200, 1, 1]);
            seen.push(...(page.body.items as string[]));
            cursor = page.body.cursor as string | undefined;
          } while (cursor !== undefined && seen.length < 10);
          expect(seen).to.deep.equal(owned());
        });

        const refused: [string, () => string, number, RegExp][] = [
          ['an unknown parameter', () => '/outputs/basic?colour=red', 400, /colour/],
          ['an address of another network', () => `/outputs/basic?address=${'smr' + other().slice(3)}`, 400, /address/],
          [
            'a parameter given twice',
            () => `/outputs/basic?address=${'x'}&address=${'y'}`,
            400,
            /address is given 2 times/,
          ],
          ['a malformed cursor', () => '/outputs/basic?cursor=zz.1', 400, /cursor/],
          ['an alias ID of 31 bytes', () => `/outputs/alias/0x${'ab'.repeat(31)}`, 400, /alias ID/],
          [
            'an alias no output carries',
            () => `/outputs/alias/0x${'ab'.repeat(32)}`,
            404,
            /no unspent output of alias/,
          ],
          ['an NFT no output carries', () => `/outputs/nft/0x${'cd'.repeat(32)}`, 404, /no unspent output of nft/],
          [
            'a foundry no output carries',
            () => `/outputs/foundry/0x08${'ef'.repeat(37)}`,
            404,
            /no unspent output of foundry/,
          ],
        ];
        for (const [what, path, code, message] of refused) {
          it(`${what}: ${code}`, async () => {
            const res = await indexer(path());
            expect([res.status, res.body.error?.code]).to.deep.equal([code, code]);
            expect(res.body.error.message).to.match(message);
          });
        }
      });

      it('the genesis milestone is 404 by ID too; the binary view is chosen by Accept as for blocks', async () => {
        expect((await json(`/milestones/${toHex0x(s.genesis.milestone.milestoneId)}`)).status).to.equal(404);
        const res = await fetch(v2(`/outputs/${toHex0x(s.genesisOutputs[1]!.outputId)}`), {
          headers: { accept: `${V1}, application/json` },
        });
        expect(res.headers.get('content-type')).to.equal(V1);
        expect(res.headers.get('vary')).to.match(/accept/i);
      });
    });
  }
});
