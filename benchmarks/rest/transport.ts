/**
 * The gateway's port to the node (src/grpc/port.ts) alone, on demand (never run by the tests), one process, a GetBlock
 * answering a fixed block's JSON (about 1 KB), `concurrency` calls at a time, each with the options a route gives it
 * (gateway/node-client.ts routeCall: a deadline, a signal made when read):
 *   in-process  the service's port (src/node/grpc/port.ts), as `ledger-node run` hands it to its gateway
 *   unary       the port over grpc-js's unary client, to the node's handlers (handlers.ts) on a loopback grpc-js server
 *   mux         the NodeMux port (gateway/mux-client.ts) to the same server (serveNodeMux)
 *   nice-grpc   for comparison (docs/decisions.md §34): nice-grpc's promise client to a nice-grpc server of the same
 *               service definition, on its own loopback port; measured only when the package can be imported
 *               (it is no dependency: `npm install --no-save nice-grpc@2.1.18` first)
 *   npx tsx benchmarks/rest/transport.ts [--runs=3] [--ms=1500] [--concurrency=32]
 * Prints calls/s and the CPU time of the process (client and server together) per call, run by run, interleaved,
 * after a warm-up of each.
 */
import { EventEmitter } from 'node:events';
import type { Context } from 'koa';
import { credentials, Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { createMuxNodePort } from '../../gateway/mux-client.ts';
import { BlockView, NodeServiceClient, NodeServiceService } from '../../src/grpc/gen/node.ts';
import { routeCall } from '../../gateway/node-client.ts';
import { portOverClient, type CallOptions } from '../../src/grpc/port.ts';
import { silentLogger } from '../../src/node/logger.ts';
import { nodeServiceHandlers } from '../../src/node/grpc/handlers.ts';
import { serveNodeMux } from '../../src/node/grpc/mux-server.ts';
import { scriptArg } from '../../scripts/lib/args.ts';
import { servicePort, type ServiceMethods } from '../../src/node/grpc/port.ts';

const arg = (name: string, dflt: string): number => Number(scriptArg(name, dflt));
const RUNS = arg('runs', '3');
const MS = arg('ms', '1500');
const CONCURRENCY = arg('concurrency', '32');
for (const [k, v] of Object.entries({ RUNS, MS, CONCURRENCY })) {
  if (!Number.isInteger(v) || v < 1 || v > 100000) throw new Error(`--${k.toLowerCase()} must be an integer 1..100000`);
}

const json = JSON.stringify({
  protocolVersion: 2,
  parents: Array.from({ length: 4 }, () => `0x${'ab'.repeat(32)}`),
  payload: { type: 5, tag: '0x6263', data: `0x${'cd'.repeat(300)}` },
  nonce: '123',
});
const answer = { blockId: new Uint8Array(32).fill(1), block: undefined, raw: new Uint8Array(0), json };
const service = { getBlock: () => Promise.resolve(answer) } as unknown as ServiceMethods;
const handlers = nodeServiceHandlers(service, silentLogger) as unknown as UntypedServiceImplementation;
const server = new Server({ 'grpc.enable_channelz': 0 });
server.addService(NodeServiceService, handlers);
const mux = serveNodeMux(server, service);
const port = await new Promise<number>((resolve, reject) =>
  server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
);
const unary = new NodeServiceClient(`127.0.0.1:${port}`, credentials.createInsecure(), { 'grpc.enable_channelz': 0 });
const muxPort = createMuxNodePort(`127.0.0.1:${port}`);
const call = routeCall(15_000);
const request = { blockId: new Uint8Array(32).fill(1), view: BlockView.BLOCK_VIEW_JSON };

/** One GetBlock with the options a route gives it (routeCall over a response of its own). */
type GetBlock = (options: CallOptions) => Promise<unknown>;
const ways: Record<string, GetBlock> = {
  'in-process': (
    (p) => (options) =>
      p.getBlock(request, options)
  )(servicePort(service, { logger: silentLogger })),
  unary: (
    (p) => (options) =>
      p.getBlock(request, options)
  )(portOverClient(unary)),
  mux: (
    (p) => (options) =>
      p.getBlock(request, options)
  )(muxPort),
};
const closers: (() => Promise<void> | void)[] = [() => unary.close(), () => muxPort.close()];

// nice-grpc, when it can be imported (no dependency of the project): its server and its promise client.
const niceName = 'nice-grpc';
const nice = (await import(niceName).catch(() => undefined)) as
  | {
      createServer(options?: object): {
        add(def: unknown, impl: object): void;
        listen(address: string): Promise<number>;
        shutdown(): Promise<void>;
      };
      createChannel(address: string, creds?: unknown, options?: object): { close(): void };
      createClient(
        def: unknown,
        channel: unknown,
      ): { getBlock(req: unknown, options: { signal: AbortSignal; deadline?: Date }): Promise<unknown> };
    }
  | undefined;
if (nice) {
  const niceServer = nice.createServer({ 'grpc.enable_channelz': 0 });
  niceServer.add(
    NodeServiceService,
    Object.fromEntries(Object.keys(NodeServiceService).map((m) => [m, async () => answer])),
  ); // it wants every method
  const nicePort = await niceServer.listen('127.0.0.1:0');
  const channel = nice.createChannel(`127.0.0.1:${nicePort}`, undefined, { 'grpc.enable_channelz': 0 });
  const client = nice.createClient(NodeServiceService, channel);
  ways['nice-grpc'] = (options) => client.getBlock(request, { signal: options.signal! });
  closers.push(
    () => channel.close(),
    () => niceServer.shutdown(),
  );
}

async function measure(getBlock: GetBlock, ms = MS): Promise<{ rps: number; cpuUs: number }> {
  let calls = 0;
  const end = performance.now() + ms;
  const cpu0 = process.cpuUsage();
  const loop = async (): Promise<void> => {
    while (performance.now() < end) {
      await getBlock(call({ res: Object.assign(new EventEmitter(), { writableEnded: false }) } as unknown as Context));
      calls++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const cpu = process.cpuUsage(cpu0);
  return { rps: Math.round(calls / (ms / 1000)), cpuUs: (cpu.user + cpu.system) / calls };
}

console.log(
  `port benchmark: runs=${RUNS} ms=${MS} concurrency=${CONCURRENCY}, ` +
    `answer of ${json.length} characters of JSON${nice ? '' : ' (nice-grpc not installed: left out)'}`,
);
for (const way of Object.values(ways)) await measure(way, 1000);
for (let run = 1; run <= RUNS; run++) {
  for (const [name, way] of Object.entries(ways)) {
    const { rps, cpuUs } = await measure(way);
    console.log(
      `run ${run} ${name.padEnd(10)} ${String(rps).padStart(7)} calls/s  ` +
        `${cpuUs.toFixed(1).padStart(6)} µs CPU per call (both ends)`,
    );
  }
}
for (const close of closers) await close();
mux.goAway();
await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
