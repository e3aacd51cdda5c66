/**
 * Servers the REST benchmark (run.ts) spawns beside `ledger-node run` and `ledger-node gateway`, each in its own
 * process like them (started with `node --import tsx benchmarks/rest/serve.ts <mode> ...`):
 *
 *   koa <json-text-base64> <raw-hex>   the ceiling: a bare Koa app with one @koa/router route,
 *                                      GET /api/core/v2/blocks/:blockId, answering the given block as JSON text, or
 *                                      its bytes when Accept names the v1 serializer type; no gateway middleware,
 *                                      no node
 *   run-over-grpc <data-dir>           `ledger-node run` as it was before the in-process transport: the same node
 *                                      (harness/node.ts, free ports, no remote PoW), its REST gateway calling the
 *                                      node's own gRPC port over loopback (StartOptions.restTransport 'grpc')
 *
 * Each prints the lines run.ts waits for and runs until SIGTERM.
 */
import { Router } from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { consoleLogger } from '../../src/node/logger.ts';
import { startConfiguredNode } from '../../harness/node.ts';

const RAW_TYPE = 'application/vnd.iota.serializer-v1';

const untilSigterm = (): Promise<void> => new Promise((resolve) => process.once('SIGTERM', () => resolve()));

async function koaCeiling(jsonBase64: string, rawHex: string): Promise<void> {
  const json = Buffer.from(jsonBase64, 'base64').toString('utf8');
  const raw = Buffer.from(rawHex, 'hex');
  const app = new Koa();
  const router = new Router();
  router.get('/api/core/v2/blocks/:blockId', (ctx) => {
    if ((ctx.get('accept') || '').includes(RAW_TYPE)) {
      ctx.type = RAW_TYPE;
      ctx.body = raw;
    } else {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = json;
    }
  });
  app.use(router.routes());
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  console.log(`koa listening on 127.0.0.1:${(server.address() as AddressInfo).port}`);
  await untilSigterm();
  server.close();
  server.closeAllConnections();
}

async function runOverGrpc(dataDir: string): Promise<void> {
  const options = { dataDir, logger: consoleLogger, restTransport: 'grpc' } as const;
  const node = await startConfiguredNode({ powWorkers: 0 }, options);
  await untilSigterm();
  await node.stop();
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'koa') await koaCeiling(args[0]!, args[1]!);
else if (mode === 'run-over-grpc') await runOverGrpc(args[0]!);
else throw new Error(`unknown mode ${mode}`);
