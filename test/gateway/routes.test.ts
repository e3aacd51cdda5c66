/**
 * The gateway's block, transaction, info, tips, health and route-list routes against a fake NodeService: which RPC
 * each calls with which request (the view by Accept), the node's JSON text and bytes passed through, and how it
 * renders the answers. POST /api/core/v2/blocks is routes-submit.test.ts, the ledger routes routes-ledger.test.ts.
 */
import { expect } from 'chai';
import { BlockView, LedgerInclusionState } from '../../src/grpc/gen/node.ts';
import { bytesOf, describeOverTransports, hex, ID32, ID36 } from './harness.ts';
import {
  BLOCK_ID,
  BLOCK_ID_HEX,
  exampleBlockAnswer,
  fakeNodeGateway,
  JSON_TEXT,
  RAW,
  SHIMMER_BASE_TOKEN,
  V1,
  V2,
} from './support.ts';

describeOverTransports('gateway routes (against a fake NodeService)', (transport) => {
  const t = fakeNodeGateway(transport, {}, () => ({
    getBlock: exampleBlockAnswer,
    getIncludedBlock: exampleBlockAnswer,
    getIncludedBlockV3: (req: { view: BlockView }) => ({
      blockId: bytesOf(ID36),
      raw: req.view === BlockView.BLOCK_VIEW_RAW ? Uint8Array.of(3, 1, 2) : new Uint8Array(0),
      json: req.view === BlockView.BLOCK_VIEW_JSON ? '{"header":{"protocolVersion":3}}' : '',
    }),
  }));

  describe('GET /api/core/v2/blocks/:blockId', () => {
    it('answers the node JSON text by default, asking the node for the JSON view only', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${BLOCK_ID_HEX}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      expect(await res.text()).to.equal(JSON_TEXT);
      expect(t.node.calls).to.have.length(1);
      const req = t.node.calls[0]!.request as { blockId: Uint8Array; view: BlockView };
      expect(hex(req.blockId)).to.equal(BLOCK_ID_HEX);
      expect(req.view).to.equal(BlockView.BLOCK_VIEW_JSON);
    });

    it('answers the stored bytes with the vendor type when Accept asks for it', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${ID32}`, { headers: { accept: V1 } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(V1);
      expect(new Uint8Array(await res.arrayBuffer())).to.deep.equal(RAW);
      expect((t.node.calls[0]!.request as { view: BlockView }).view).to.equal(BlockView.BLOCK_VIEW_RAW);
      expect(res.headers.get('vary')).to.match(/accept/i);
    });

    const cases: [string | undefined, 'json' | 'raw'][] = [
      [undefined, 'json'],
      ['*/*', 'json'],
      ['application/*', 'json'],
      ['application/json', 'json'],
      ['text/html', 'json'],
      ['application/json, application/vnd.iota.serializer-v1', 'json'],
      ['application/vnd.iota.serializer-v1, application/json', 'raw'],
      ['application/vnd.iota.serializer-v1;q=0.9, application/json', 'json'],
      ['application/json;q=0.5, application/vnd.iota.serializer-v1', 'raw'],
      ['application/vnd.iota.serializer-v1, */*', 'raw'],
      ['*/*, application/vnd.iota.serializer-v1', 'json'], // equal q: the first acceptable range (*/*) decides, JSON
      ['*/*;q=0.5, application/vnd.iota.serializer-v1', 'raw'],
      ['application/json;q=0, */*', 'raw'],
      ['application/vnd.iota.serializer-v1;q=0', 'json'],
      ['APPLICATION/VND.IOTA.SERIALIZER-V1', 'raw'],
      ['application/vnd.iota.serializer-v2', 'json'],
      ['garbage;;;', 'json'],
    ];
    for (const [accept, want] of cases) {
      it(`Accept ${accept === undefined ? '(missing)' : JSON.stringify(accept)} -> ${want}, never 406`, async () => {
        const res = await fetch(
          `${t.gw.url}/api/core/v2/blocks/${ID32}`,
          accept === undefined ? {} : { headers: { accept } },
        );
        expect(res.status).to.equal(200);
        if (want === 'raw') {
          expect(res.headers.get('content-type')).to.equal(V1);
          expect(new Uint8Array(await res.arrayBuffer())).to.deep.equal(RAW);
        } else {
          expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
          expect(await res.text()).to.equal(JSON_TEXT);
        }
      });
    }

    it('accepts upper-case hex and passes the decoded 32 bytes', async () => {
      const upper = `0x${BLOCK_ID_HEX.slice(2).toUpperCase()}`;
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${upper}`);
      expect(res.status).to.equal(200);
      expect(hex((t.node.calls[0]!.request as { blockId: Uint8Array }).blockId)).to.equal(BLOCK_ID_HEX);
    });

    it('answers HEAD like GET without a body', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${ID32}`, { method: 'HEAD' });
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('');
    });
  });

  it('GET blocks/:blockId/metadata renders the metadata record', async () => {
    t.node.handlers.getBlockMetadata = (req: { blockId: Uint8Array }) => ({
      blockId: req.blockId,
      parents: [bytesOf(ID32)],
      isSolid: true,
      referencedByMilestoneIndex: 7,
      ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_NO_TRANSACTION,
    });
    const res = await fetch(`${t.gw.url}/api/core/v2/blocks/${BLOCK_ID_HEX}/metadata`, {
      headers: { accept: V1 },
    });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await res.json()).to.deep.equal({
      blockId: BLOCK_ID_HEX,
      parents: [ID32],
      isSolid: true,
      referencedByMilestoneIndex: 7,
      ledgerInclusionState: 'noTransaction',
    });
  });

  describe('GET /api/core/v2/transactions/:transactionId/included-block (+ /metadata)', () => {
    it('answers JSON or raw by Accept and sends the transaction ID', async () => {
      const json = await fetch(`${t.gw.url}/api/core/v2/transactions/${ID32}/included-block`);
      expect(json.status).to.equal(200);
      expect(await json.text()).to.equal(JSON_TEXT);
      const raw = await fetch(`${t.gw.url}/api/core/v2/transactions/${ID32}/included-block`, {
        headers: { accept: `${V1}, application/json;q=0.8` },
      });
      expect(raw.headers.get('content-type')).to.equal(V1);
      expect(new Uint8Array(await raw.arrayBuffer())).to.deep.equal(RAW);
      expect(t.node.calls.map((c) => c.method)).to.deep.equal(['getIncludedBlock', 'getIncludedBlock']);
      expect(hex((t.node.calls[0]!.request as { transactionId: Uint8Array }).transactionId)).to.equal(ID32);
    });

    it('metadata', async () => {
      t.node.handlers.getIncludedBlockMetadata = () => ({
        blockId: BLOCK_ID,
        parents: [],
        isSolid: true,
        referencedByMilestoneIndex: 9,
        ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_INCLUDED,
      });
      const res = await fetch(`${t.gw.url}/api/core/v2/transactions/${ID32}/included-block/metadata`);
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({
        blockId: BLOCK_ID_HEX,
        parents: [],
        isSolid: true,
        referencedByMilestoneIndex: 9,
        ledgerInclusionState: 'included',
      });
      expect(t.node.calls[0]!.method).to.equal('getIncludedBlockMetadata');
    });
  });

  describe('GET /api/core/v3/transactions/:transactionId/included-block', () => {
    it('takes a 36-byte ID and answers v3 JSON', async () => {
      const res = await fetch(`${t.gw.url}/api/core/v3/transactions/${ID36}/included-block`);
      expect(res.status).to.equal(200);
      expect(await res.text()).to.equal('{"header":{"protocolVersion":3}}');
      expect(hex((t.node.calls[0]!.request as { transactionId: Uint8Array }).transactionId)).to.equal(ID36);
    });

    it('answers raw with serializer-v2, and JSON for the v1 vendor type', async () => {
      const raw = await fetch(`${t.gw.url}/api/core/v3/transactions/${ID36}/included-block`, {
        headers: { accept: V2 },
      });
      expect(raw.headers.get('content-type')).to.equal(V2);
      expect(new Uint8Array(await raw.arrayBuffer())).to.deep.equal(Uint8Array.of(3, 1, 2));
      const json = await fetch(`${t.gw.url}/api/core/v3/transactions/${ID36}/included-block`, {
        headers: { accept: V1 },
      });
      expect(json.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    });
  });

  it('GET /api/core/v2/info renders every InfoResponse field', async () => {
    t.node.handlers.getInfo = () => ({
      name: 'ledger-node',
      version: '0.1.0',
      status: {
        isHealthy: true,
        latestMilestone: { index: 5, timestamp: 1700000000 },
        confirmedMilestone: { index: 5 },
        pruningIndex: 0,
        healthReasons: [],
      },
      supportedProtocolVersions: [2],
      protocol: {
        version: 2,
        networkName: 'testnet',
        bech32Hrp: 'rms',
        minPowScore: 1500,
        belowMaxDepth: 15,
        tokenSupply: 1813620509061365n,
        rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
      },
      pendingProtocolParameters: [],
      baseToken: { ...SHIMMER_BASE_TOKEN },
      metrics: { blocksPerSecond: 1.5, referencedBlocksPerSecond: 1, referencedRate: 66.6 },
      features: ['pow'],
    });
    const res = await fetch(`${t.gw.url}/api/core/v2/info`);
    expect(res.status).to.equal(200);
    const info = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(info.name).to.equal('ledger-node');
    expect(info.status).to.deep.equal({
      isHealthy: true,
      latestMilestone: { index: 5, timestamp: 1700000000 },
      confirmedMilestone: { index: 5 },
      pruningIndex: 0,
    });
    expect(info.protocol.tokenSupply).to.equal('1813620509061365');
    expect(info.protocol.minPowScore).to.equal(1500);
    expect(info.baseToken.subunit).to.equal('glow');
    expect(info.features).to.deep.equal(['pow']);
  });

  it('GET /api/core/v2/tips passes ?allowSemiLazy (key presence, any case)', async () => {
    t.node.handlers.getTips = () => ({ tips: [bytesOf(ID32)] });
    const plain = await fetch(`${t.gw.url}/api/core/v2/tips`);
    expect(await plain.json()).to.deep.equal({ tips: [ID32] });
    await fetch(`${t.gw.url}/api/core/v2/tips?ALLOWSEMILAZY`);
    expect(t.node.calls.map((c) => c.request)).to.deep.equal([{ allowSemiLazy: false }, { allowSemiLazy: true }]);
  });

  describe('GET /health', () => {
    for (const [isHealthy, status] of [
      [true, 200],
      [false, 503],
    ] as const) {
      it(`answers ${status} without a body when isHealthy is ${isHealthy}`, async () => {
        t.node.handlers.getInfo = () => ({
          name: 'n',
          version: 'v',
          status: { isHealthy, pruningIndex: 0, healthReasons: isHealthy ? [] : ['catching up with its peers'] },
          supportedProtocolVersions: [],
          pendingProtocolParameters: [],
          features: [],
        });
        const res = await fetch(`${t.gw.url}/health`);
        expect(res.status).to.equal(status);
        expect(await res.text()).to.equal('');
        expect(res.headers.get('content-type')).to.equal(null);
      });
    }

    it('answers 503 without a body when the node fails', async () => {
      t.node.handlers.getInfo = () => {
        throw new Error('disk gone');
      };
      const res = await fetch(`${t.gw.url}/health`);
      expect(res.status).to.equal(503);
      expect(await res.text()).to.equal('');
    });
  });

  it('GET /api/routes lists the route groups without calling the node', async () => {
    const res = await fetch(`${t.gw.url}/api/routes`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({
      routes: ['core/v2', 'core/v3', 'indexer/v1', 'explorer/v2', 'faucet/v1'],
    });
    expect(t.node.calls).to.have.length(0);
  });
});
