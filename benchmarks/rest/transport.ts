/**
 * The transport alone, on demand (never run by the tests): one process serves NodeService and NodeMux on a loopback
 * port (grpc-js, as the node does) with a GetBlock handler answering a fixed block's JSON (about 1 KB), and calls it
 * through grpc-js's unary client and through the mux client (gateway/mux-client.ts), `concurrency` calls at a time:
 *   npx tsx benchmarks/rest/transport.ts [--runs=3] [--ms=1500] [--concurrency=32]
 * Prints calls/s and the CPU time of the process (client and server together) per call, run by run, interleaved,
 * after a warm-up of each client.
 */
import { credentials, Metadata, Server, ServerCredentials, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { createMuxNodeClient } from '../../gateway/mux-client.ts';
import { BlockView, NodeServiceClient, NodeServiceService } from '../../src/grpc/gen/node.ts';
import { serveNodeMux } from '../../src/node/grpc/mux-server.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

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
const handlers: UntypedServiceImplementation = {
  getBlock: (_call: unknown, callback: (e: null, v: unknown) => void) => {
    void Promise.resolve().then(() => callback(null, answer));
  },
};
const server = new Server({ 'grpc.enable_channelz': 0 });
server.addService(NodeServiceService, handlers);
const mux = serveNodeMux(server, handlers);
const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
const clients: Record<string, NodeServiceClient> = {
  unary: new NodeServiceClient(`127.0.0.1:${port}`, credentials.createInsecure(), { 'grpc.enable_channelz': 0 }),
  mux: createMuxNodeClient(`127.0.0.1:${port}`),
};
const request = { blockId: new Uint8Array(32).fill(1), view: BlockView.BLOCK_VIEW_JSON };

async function measure(client: NodeServiceClient, ms = MS): Promise<{ rps: number; cpuUs: number }> {
  let calls = 0;
  const end = performance.now() + ms;
  const cpu0 = process.cpuUsage();
  const loop = async (): Promise<void> => {
    while (performance.now() < end) {
      await new Promise((resolve, reject) => client.getBlock(request, new Metadata(), { deadline: Date.now() + 15_000 }, (e) => (e ? reject(e) : resolve(undefined))));
      calls++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  const cpu = process.cpuUsage(cpu0);
  return { rps: Math.round(calls / (ms / 1000)), cpuUs: (cpu.user + cpu.system) / calls };
}

console.log(`transport benchmark: runs=${RUNS} ms=${MS} concurrency=${CONCURRENCY}, answer of ${json.length} characters of JSON`);
for (const client of Object.values(clients)) await measure(client, 1000);
for (let run = 1; run <= RUNS; run++) {
  for (const [name, client] of Object.entries(clients)) {
    const { rps, cpuUs } = await measure(client);
    console.log(`run ${run} ${name.padEnd(5)} ${String(rps).padStart(7)} calls/s  ${cpuUs.toFixed(1).padStart(6)} µs CPU per call (both ends)`);
  }
}
for (const client of Object.values(clients)) client.close();
mux.goAway();
await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
