/**
 * The running node (harness/node.ts, memory store, no PoW) under hostile requests on its gRPC doors (issue 22):
 * every NodeService method, the mux and the peer service get mutated requests (grpc.ts, grpc-mux.ts, grpc-peer.ts).
 * Every call must get a status before its deadline, with short, well-formed details; nothing may reach the process
 * (an uncaught exception or unhandled rejection ends a node process: here it fails the case during which it came);
 * a GetBlock of a known block must still work after each batch. A failure names the target, the seed, the mutation
 * and the request's hex; FUZZ_SEED sets the master seed, FUZZ_MAX_FAILURES how many failures end a batch (default 2:
 * a stalled call costs its whole deadline). The long form: `scripts/fuzz.ts --grpc HOST:PORT`.
 */
import { expect } from 'chai';
import { status as Status } from '@grpc/grpc-js';
import { BlockView, NodeServiceService } from '../../src/grpc/gen/node.ts';
import type { RunningNode } from '../../src/node/node.ts';
import { CollectingLogger, startConfiguredNode } from '../../harness/node.ts';
import { connectAsPeer } from '../../harness/peer-handshake.ts';
import {
  CALL_DEADLINE_MS,
  GrpcTally,
  judge,
  RawDoor,
  runCases,
  targetSeeds,
  wantInvalidArgument,
  within,
  type FuzzCase,
  type Verdict,
} from '../../harness/fuzz/grpc-harness.ts';
import {
  blockCorpus,
  callTyped,
  CRASH_CASES,
  discover,
  encodeRequest,
  NODE_METHODS,
  oversizedIdCases,
  sendUnary,
  submitKnownBlock,
  targetOf,
  unaryCase,
  type BlockCorpus,
  type Known,
} from '../../harness/fuzz/grpc.ts';
import { MUX_TARGET, muxCase, sendMux } from '../../harness/fuzz/grpc-mux.ts';
import {
  CONNECT_TARGET,
  connectCase,
  DOWNLOAD_TARGET,
  downloadCase,
  sendConnect,
  sendDownload,
} from '../../harness/fuzz/grpc-peer.ts';

const MASTER_SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const MAX_FAILURES = Number(process.env.FUZZ_MAX_FAILURES ?? 2);
const CASES_PER_METHOD = 100;
const MUX_CASES = 500;
const CONNECT_CASES = 160;
const DOWNLOAD_CASES = 100;
/** The node's handshake timeout here (default 5 s): a stream without a handshake must end by then. */
const HANDSHAKE_TIMEOUT_MS = 1000;

describe('fuzz: the node`s gRPC doors answer hostile requests with a status, in time, and stay up', function () {
  this.timeout(60_000);
  let node: RunningNode;
  let logger: CollectingLogger;
  let door: RawDoor;
  let peerDoor: RawDoor;
  let known: Known;
  let corpus: BlockCorpus;
  const tally = new GrpcTally();
  /** Uncaught exceptions and unhandled rejections: each would end a node process. */
  const thrown: unknown[] = [];
  const toProcess = (e: unknown): void => void thrown.push(e);

  before(async () => {
    process.on('uncaughtException', toProcess).on('unhandledRejection', toProcess);
    logger = new CollectingLogger();
    // one milestone an hour: the fuzzed PruneDatabase finds nothing to prune (it would prune the known block away)
    const noWork = { minPowScore: 0, powWorkers: 0, milestoneInterval: 3600 };
    const peering = { handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS };
    node = (await startConfiguredNode(noWork, { logger, store: 'memory', rest: false, peering })).node;
    door = new RawDoor(`127.0.0.1:${node.grpcPort}`);
    peerDoor = new RawDoor(`127.0.0.1:${node.peerPort}`);
    known = await discover(door, await submitKnownBlock(door));
    corpus = blockCorpus();
  });

  after(async () => {
    process.off('uncaughtException', toProcess).off('unhandledRejection', toProcess);
    door?.close();
    peerDoor?.close();
    await node?.stop();
  });

  beforeEach(() => void thrown.splice(0));

  /** Fails the case during which something reached the process (or right before its answer came). */
  function nothingThrown(_c: FuzzCase, v: Verdict): Verdict {
    if (thrown.length === 0) return v;
    const what = thrown.splice(0).map((e) => (e instanceof Error ? `${e.name}: ${e.message}` : String(e)));
    const also = v.ok ? '' : `; and ${v.reason}`;
    return { ok: false, label: 'thrown', reason: `the process got ${what.join('; ')} (it ends a node process)${also}` };
  }

  /** A check that wants INVALID_ARGUMENT (an oversized or malformed field), then nothing thrown. */
  const invalidArgument = (c: FuzzCase, v: Verdict): Verdict => nothingThrown(c, wantInvalidArgument(v));

  /** Why the node no longer serves a GetBlock of the known block, or undefined when it does. */
  async function notServing(): Promise<string | undefined> {
    try {
      const r = await callTyped(door, 'getBlock', { blockId: known.blockId, view: BlockView.BLOCK_VIEW_RAW });
      return Buffer.from(r.raw).equals(Buffer.from(known.block.raw)) ? undefined : 'other bytes than the known block';
    } catch (e) {
      return (e as Error).message;
    }
  }

  /** Why a well-behaved peer does not get through the handshake (in time), or undefined when it does. */
  async function refusesPeers(): Promise<string | undefined> {
    const connecting = connectAsPeer(`127.0.0.1:${node.peerPort}`, known.networkName);
    connecting.then((p) => p.close()).catch(() => undefined);
    const inTime = await within(connecting, CALL_DEADLINE_MS).catch((e: Error) => e.message);
    return inTime === true ? undefined : inTime === false ? `no handshake within ${CALL_DEADLINE_MS} ms` : inTime;
  }

  type Send<C> = (c: C) => Promise<Verdict>;
  interface BatchOptions {
    check?: (c: FuzzCase, v: Verdict) => Verdict;
    /** A door of the node that must still work after the batch, besides GetBlock: why it does not, or undefined. */
    stillWorks?: () => Promise<string | undefined>;
  }

  /** Runs a batch of one target, prints its tally line, and wants no failure and the node still serving. */
  async function batch<C extends FuzzCase>(group: string, cases: C[], send: Send<C>, o: BatchOptions = {}) {
    const check = o.check ?? nothingThrown;
    const failures = await runCases(cases, send, tally, { maxFailures: MAX_FAILURES, check, group });
    console.log(`      ${tally.line(group)}`);
    const serving = await notServing();
    if (serving !== undefined) failures.push(`after the ${group} batch, GetBlock of the known block: ${serving}`);
    const works = await o.stillWorks?.();
    if (works !== undefined) failures.push(`after the ${group} batch: ${works}`);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  }

  it('the requests that crashed the node (issue 22): INVALID_ARGUMENT, and nothing reaches the process', async () => {
    await batch('crash cases', [...CRASH_CASES], (c) => sendUnary(door, c), { check: invalidArgument });
  });

  it('a 1 MB block ID on GetBlock: INVALID_ARGUMENT in well under a second; the connection serves on', async () => {
    const c = oversizedIdCases(known, corpus).find((x) => x.method === 'getBlock' && x.mutation.includes('1 MB'))!;
    const { answer } = await door.call(NodeServiceService.getBlock.path, c.bytes);
    const verdict = { ok: true, label: 'INVALID_ARGUMENT' };
    expect(judge(answer), `${c.mutation}: ${answer.details.slice(0, 200)}`).to.deep.equal(verdict);
    expect(answer.ms, 'ms until the answer').to.be.below(500);
    const next = await door.call(NodeServiceService.getInfo.path, encodeRequest('getInfo', {}), 2000);
    expect(Status[next.answer.code], `GetInfo after it on the same connection: ${next.answer.details}`).to.equal('OK');
    expect(thrown).to.deep.equal([]);
  });

  it('oversized IDs (20 KB, 1 MB) on every method that takes an ID: INVALID_ARGUMENT with short details', async () => {
    const cases = oversizedIdCases(known, corpus);
    expect(cases.length).to.be.at.least(22); // eleven and more methods take an ID
    await batch('oversized IDs', cases, (c) => sendUnary(door, c), { check: invalidArgument });
  });

  for (const method of NODE_METHODS) {
    const target = targetOf(method);
    it(`${target}: ${CASES_PER_METHOD} mutated requests`, async () => {
      const cases = targetSeeds(MASTER_SEED, target, CASES_PER_METHOD).map((s) => unaryCase(method, s, known, corpus));
      await batch(target, cases, (c) => sendUnary(door, c));
    });
  }

  it(`${MUX_TARGET}: ${MUX_CASES} mutated batches, each followed by a probe call on its stream`, async () => {
    const cases = targetSeeds(MASTER_SEED, MUX_TARGET, MUX_CASES).map((seed) => muxCase(seed, known, corpus));
    await batch(MUX_TARGET, cases, (c) => sendMux(door, c));
  });

  it(`${CONNECT_TARGET}: ${CONNECT_CASES} mutated streams before or after a handshake; good peers get in`, async () => {
    const ctx = { known, handshakeTimeoutMs: HANDSHAKE_TIMEOUT_MS };
    const cases = targetSeeds(MASTER_SEED, CONNECT_TARGET, CONNECT_CASES).map((seed) => connectCase(seed, known));
    await batch(CONNECT_TARGET, cases, (c) => sendConnect(peerDoor, c, ctx), { stillWorks: refusesPeers });
  });

  it(`${DOWNLOAD_TARGET}: ${DOWNLOAD_CASES} mutated requests`, async () => {
    const cases = targetSeeds(MASTER_SEED, DOWNLOAD_TARGET, DOWNLOAD_CASES).map((seed) => downloadCase(seed));
    await batch(DOWNLOAD_TARGET, cases, (c) => sendDownload(peerDoor, c), { stillWorks: refusesPeers });
  });

  it('logged no unexpected failure (a handler`s defect is logged as an error)', () => {
    console.log(`      gRPC fuzz, master seed ${MASTER_SEED}: ${tally.total} cases, ${tally.failures.length} failures`);
    expect(logger.lines.filter((l) => l.startsWith('ERROR'))).to.deep.equal([]);
  });
});
