/**
 * The REST benchmark's client (run.ts): one surface, `Target`, over each path it measures (HTTP with a keep-alive
 * agent, the generated gRPC client, the mux client, the service in process), and the tagged-data blocks it posts,
 * pre-mined to the dev network's min PoW score.
 */
import { Agent, request } from 'node:http';
import { credentials, type ServiceError } from '@grpc/grpc-js';
import { createMuxNodePort } from '../../gateway/mux-client.ts';
import { concatBytes, toHex0x } from '../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../src/core/codec/index.ts';
import { blockFromJson, blockToJson } from '../../src/core/json/index.ts';
import { nonceToBytes } from '../../src/core/pow/index.ts';
import { BlockView, NodeServiceClient, type SubmitBlockRequest } from '../../src/grpc/gen/node.ts';
import { DEV_MIN_POW_SCORE } from '../../src/node/config.ts';
import type { Miner } from '../../src/node/pow/miner.ts';

const RAW = 'application/vnd.iota.serializer-v1';
const V2 = '/api/core/v2';

/** One call of an operation; resolves when the answer is complete, rejects on any failure. */
export type Call = (i: number) => Promise<void>;

export interface Target {
  ids: Uint8Array[];
  /** The node's tips as sorted 0x-hex (parents of pre-mined blocks). */
  tips(): Promise<string[]>;
  getJson(id: Uint8Array): Promise<void>;
  getRaw(id: Uint8Array): Promise<void>;
  postRaw(bytes: Uint8Array): Promise<void>;
  postJson(text: string): Promise<void>;
  /** The serving processes (their CPU time per call is reported). */
  pids?: number[];
  /** Drops idle keep-alive connections (a server closes them after 5 s idle, racing the next request). */
  reset?(): void;
}

function httpTarget(port: number, maxSockets: number): Target & { agent: Agent } {
  const agent = new Agent({ keepAlive: true, maxSockets });
  const send = (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: Uint8Array | string,
    want = 200,
  ): Promise<Buffer> =>
    new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          if (res.statusCode !== want)
            reject(new Error(`${method} ${path}: ${res.statusCode} ${buf.toString().slice(0, 200)}`));
          else resolve(buf);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  return {
    agent,
    ids: [],
    reset() {
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    },
    async tips() {
      return (JSON.parse((await send('GET', `${V2}/tips`, {})).toString()) as { tips: string[] }).tips.sort();
    },
    async getJson(id) {
      await send('GET', `${V2}/blocks/${toHex0x(id)}`, { accept: 'application/json' });
    },
    async getRaw(id) {
      await send('GET', `${V2}/blocks/${toHex0x(id)}`, { accept: RAW });
    },
    async postRaw(bytes) {
      await send('POST', `${V2}/blocks`, { 'content-type': RAW, 'content-length': String(bytes.length) }, bytes, 201);
    },
    async postJson(text) {
      await send(
        'POST',
        `${V2}/blocks`,
        { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
        text,
        201,
      );
    },
  };
}

/** The NodeService surface both the gRPC client (promisified) and the in-process service offer. */
export interface ServiceLike {
  getBlock(req: { blockId: Uint8Array; view: BlockView }): Promise<{ raw: Uint8Array; json: string }>;
  submitBlock(req: SubmitBlockRequest): Promise<{ blockId: Uint8Array }>;
  getTips(req: { allowSemiLazy: boolean }): Promise<{ tips: Uint8Array[] }>;
}

export function serviceTarget(service: ServiceLike): Target {
  return {
    ids: [],
    async tips() {
      return (await service.getTips({ allowSemiLazy: false })).tips.map(toHex0x).sort();
    },
    async getJson(blockId) {
      const r = await service.getBlock({ blockId, view: BlockView.BLOCK_VIEW_JSON });
      if (r.json.length === 0) throw new Error('no JSON');
    },
    async getRaw(blockId) {
      const r = await service.getBlock({ blockId, view: BlockView.BLOCK_VIEW_RAW });
      if (r.raw.length === 0) throw new Error('no bytes');
    },
    async postRaw(value) {
      await service.submitBlock({ block: { $case: 'raw', value } });
    },
    async postJson(value) {
      await service.submitBlock({ block: { $case: 'json', value } });
    },
  };
}

function grpcService(client: NodeServiceClient): ServiceLike {
  const unary =
    <Q, R>(fn: (req: Q, cb: (err: ServiceError | null, res: R) => void) => unknown) =>
    (req: Q): Promise<R> =>
      new Promise((resolve, reject) => fn.call(client, req, (err, res) => (err ? reject(err) : resolve(res))));
  return {
    getBlock: unary(client.getBlock),
    submitBlock: unary(client.submitBlock),
    getTips: unary(client.getTips),
  };
}

/** The clients of a run (HTTP agents of `maxSockets` sockets, gRPC clients, mux ports), closed together. */
export class Clients {
  private readonly closers: (() => void)[] = [];

  constructor(private readonly maxSockets: number) {}

  /** HTTP to the REST API on 127.0.0.1:`port`. */
  http(port: number): Target {
    const t = httpTarget(port, this.maxSockets);
    this.closers.push(() => t.agent.destroy());
    return t;
  }

  /** The generated gRPC client of the node service door on 127.0.0.1:`port`, promisified. */
  grpcService(port: number): ServiceLike {
    const client = new NodeServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
    this.closers.push(() => client.close());
    return grpcService(client);
  }

  /** That client as a target. */
  grpc(port: number): Target {
    return serviceTarget(this.grpcService(port));
  }

  /** The mux client (gateway/mux-client.ts) of the node service door on 127.0.0.1:`port`. */
  mux(port: number): Target {
    const mux = createMuxNodePort(`127.0.0.1:${port}`);
    this.closers.push(() => mux.close());
    return serviceTarget({
      getBlock: (r) => mux.getBlock(r),
      submitBlock: (r) => mux.submitBlock(r),
      getTips: (r) => mux.getTips(r),
    });
  }

  close(): void {
    for (const close of this.closers.splice(0)) close();
  }
}

let seq = 0;
function taggedBlockJson(parents: string[] | undefined, nonce = '0'): Record<string, unknown> {
  const data = '0x' + Buffer.from(`rest benchmark block ${process.pid}-${++seq}-${'.'.repeat(40)}`).toString('hex');
  return {
    protocolVersion: 2,
    ...(parents ? { parents } : {}),
    payload: { type: 5, tag: '0x62656e6368', data },
    nonce,
  };
}

/** `count` blocks on `parents`, mined to the dev min PoW score: raw bytes and their canonical JSON text. */
export async function preMine(
  miner: Miner,
  parents: string[],
  count: number,
): Promise<{ raw: Uint8Array[]; json: string[] }> {
  const raw: Uint8Array[] = [];
  const json: string[] = [];
  for (let i = 0; i < count; i++) {
    const unmined = encodeBlock(blockFromJson(taggedBlockJson(parents)));
    const body = unmined.subarray(0, unmined.length - 8);
    const { nonce } = await miner.mine(body, DEV_MIN_POW_SCORE);
    const bytes = concatBytes(body, nonceToBytes(nonce));
    raw.push(bytes);
    json.push(JSON.stringify(blockToJson(decodeBlock(bytes))));
  }
  return { raw, json };
}
