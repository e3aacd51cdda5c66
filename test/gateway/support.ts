/**
 * What the gateway tests share beyond harness.ts: a fake node with a gateway in front of it for a whole suite, the
 * smallest answers a fake node gives, the serializer media types, and a real block the fake node answers with.
 */
import { BlockView } from '../../src/grpc/gen/node.ts';
import { loadVectors } from '../../harness/vectors.ts';
import {
  bytesOf,
  startFakeNode,
  startTestGateway,
  type FakeNode,
  type Handler,
  type MethodName,
  type TestGateway,
  type Transport,
} from './harness.ts';

export type Handlers = Partial<Record<MethodName, Handler>>;

export const V1 = 'application/vnd.iota.serializer-v1';
export const V2 = 'application/vnd.iota.serializer-v2';

// A real block (TIP-24 example): the fake node answers its stored bytes and its JSON text, as the node would.
const example = loadVectors('stardust/blocks.json').vectors.find(
  (v: { name: string }) => v.name === 'tip24-tagged-data-example',
);
/** The example block's bytes, JSON text and ID (bytes and 0x hex). */
export const RAW: Uint8Array = bytesOf(example.bytes);
export const JSON_TEXT: string = JSON.stringify(example.json);
export const BLOCK_ID: Uint8Array = bytesOf(example.derived.blockId);
export const BLOCK_ID_HEX: string = example.derived.blockId;

/** A fake node's GetBlock (or GetIncludedBlock) answer: the example block in the view asked for. */
export const exampleBlockAnswer = (req: { view: BlockView }) => ({
  blockId: BLOCK_ID,
  block: undefined,
  raw: req.view === BlockView.BLOCK_VIEW_RAW ? RAW : new Uint8Array(0),
  json: req.view === BlockView.BLOCK_VIEW_JSON ? JSON_TEXT : '',
});

/** Shimmer's base token as InfoResponse carries it, and as GET /info renders it. */
export const SHIMMER_BASE_TOKEN = Object.freeze({
  name: 'Shimmer',
  tickerSymbol: 'SMR',
  unit: 'SMR',
  subunit: 'glow',
  decimals: 6,
  useMetricPrefix: false,
});

/** The smallest InfoResponse: a healthy node, protocol version 2, no features. */
export function minimalInfo() {
  return {
    name: 'n',
    version: 'v',
    status: { isHealthy: true, pruningIndex: 0, healthReasons: [] as string[] },
    supportedProtocolVersions: [2],
    pendingProtocolParameters: [],
    features: [] as string[],
  };
}

/**
 * A fake node over `transport` and a gateway with `options` in front of it, for one suite: started before its tests
 * (the object is filled in then) and stopped after them; before each test the node's calls are cleared and its
 * handlers set to `handlers()` (none by default).
 */
export function fakeNodeGateway(
  transport: Transport,
  options: Parameters<typeof startTestGateway>[1] = {},
  handlers: () => Handlers = () => ({}),
): { readonly node: FakeNode; readonly gw: TestGateway } {
  const suite = {} as { node: FakeNode; gw: TestGateway };
  before(async () => {
    suite.node = await startFakeNode(transport);
    suite.gw = await startTestGateway(suite.node, options);
  });
  after(async () => {
    await suite.gw.close();
    await suite.node.stop();
  });
  beforeEach(() => {
    suite.node.calls.length = 0;
    suite.node.handlers = handlers();
  });
  return suite;
}
