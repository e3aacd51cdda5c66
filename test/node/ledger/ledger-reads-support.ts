/**
 * The scenario of the ledger reads tests: a node on a dev-network genesis (plus a treasury), a signed transfer from the
 * dev wallet confirmed by the built-in coordinator's milestone 1, and a receipt in milestone 2; and the gateway in
 * front of it over a transport, with the REST calls those tests make.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { transactionIdOf } from '../../../src/core/ids/index.ts';
import type { BasicOutput, Block, ReceiptMilestoneOption, TransactionPayload } from '../../../src/core/model/index.ts';
import { genesisFromJson, genesisToJson, ZERO_BLOCK_ID, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf, devWalletOf, ledgerGenesisOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { servicePort } from '../../../src/node/grpc/port.ts';
import type { IssuedMilestone } from '../../../src/node/ledger/coordinator.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { addressOf, transfer } from '../support.ts';
import { CollectingLogger, startTestNode, type TestNode } from '../../../harness/node.ts';
import {
  connectTo,
  startTestGateway,
  type NodeEndpoint,
  type TestGateway,
  type Transport,
} from '../../gateway/harness.ts';
import { V1 } from '../../gateway/support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export const TREASURY = 10_000_000n;
export const TREASURY_MILESTONE = new Uint8Array(32).fill(0x77);
export const OTHER_SEED = new Uint8Array(32).fill(0x42);
export const SENT = 1_000_000n;
export const MIGRATED = 1_000_000n;

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

export interface Scenario {
  genesis: Genesis;
  node: TestNode;
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
  const node = await startTestNode({
    genesis,
    tipPools: URTS_DEFAULTS,
    compose: { coordinator: coordinatorOf(genesis)! },
    start: 'milestones',
  });
  const { service, coordinator } = node.testing;
  const genesisOutputs = ledgerGenesisOf(genesis).unspentOutputs as Scenario['genesisOutputs'];

  const other = addressOf(OTHER_SEED);
  const spent = genesisOutputs[0]!;
  const { tx } = transfer(genesis, devWalletOf(genesis)!.seed, spent, other, SENT);
  const block: Block = { protocolVersion: 2, parents: [ZERO_BLOCK_ID], payload: tx, nonce: 1n };
  const txBlockId = (await service.submitBlock({ block: { $case: 'raw', value: encodeBlock(block) } })).blockId;
  const ms1 = await coordinator!.issue();

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
  const ms2 = await coordinator!.issue([receipt]);
  return { genesis, node, genesisOutputs, tx, txId: transactionIdOf(tx), txBlockId, ms1, ms2, receipt };
}

/** The scenario of one suite: made before its tests (the object is filled in then), the node stopped after them. */
export function scenarioSuite(): Scenario {
  const s = {} as Scenario;
  before(async () => {
    Object.assign(s, await scenario());
  });
  after(async () => {
    await s.node?.close();
  });
  return s;
}

/** How the gateway reaches the node: its service in process, or its gRPC server. */
function endpointOf(transport: Transport, node: TestNode): { endpoint: NodeEndpoint; stop(): Promise<void> } {
  if (transport === 'in-process') {
    const port = servicePort(node.service, { logger: new CollectingLogger() });
    return { endpoint: { connect: () => ({ port, close: () => undefined }) }, stop: async () => port.close() };
  }
  return {
    endpoint: { connect: () => connectTo(transport, `127.0.0.1:${node.server.port}`) },
    stop: async () => undefined,
  };
}

export interface RestReads {
  /** The gateway's URL of `path`. */
  url(path: string): string;
  /** The URL of a core v2 route. */
  v2(path: string): string;
  /** A core v2 route's status, JSON body and text. */
  json(path: string): Promise<{ status: number; body: Json; text: string }>;
  /** A core v2 route's bytes (serializer-v1), expecting 200. */
  raw(path: string): Promise<Uint8Array>;
}

/** A gateway over `transport` in front of the scenario's node, started before the suite's tests, closed after. */
export function restOver(transport: Transport, s: Scenario): RestReads {
  let gw: TestGateway;
  let stop: () => Promise<void>;
  before(async () => {
    const e = endpointOf(transport, s.node);
    stop = e.stop;
    gw = await startTestGateway(e.endpoint);
  });
  after(async () => {
    await gw.close();
    await stop();
  });
  const url = (path: string): string => `${gw.url}${path}`;
  const v2 = (path: string): string => url(`/api/core/v2${path}`);
  return {
    url,
    v2,
    async json(path) {
      const res = await fetch(v2(path));
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text), text };
    },
    async raw(path) {
      const res = await fetch(v2(path), { headers: { accept: V1 } });
      expect([res.status, res.headers.get('content-type')]).to.deep.equal([200, V1]);
      return new Uint8Array(await res.arrayBuffer());
    },
  };
}
