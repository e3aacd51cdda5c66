/**
 * The gateway's POST /api/core/v2/blocks against a fake NodeService: a JSON body passed to the node as text, a
 * binary one as raw bytes, 201 with Location and the block ID, the node call cancelled when the client goes, and the
 * 415 and 400 answers given without calling the node.
 */
import { expect } from 'chai';
import { describeOverTransports } from './harness.ts';
import { BLOCK_ID, BLOCK_ID_HEX, fakeNodeGateway, RAW, V1 } from './support.ts';

describeOverTransports('gateway routes: POST /api/core/v2/blocks (against a fake NodeService)', (transport) => {
  const t = fakeNodeGateway(transport);

  beforeEach(() => {
    t.node.handlers.submitBlock = () => ({ blockId: BLOCK_ID });
  });

  it('passes a JSON body to the node as TEXT and answers 201 + Location + {blockId}', async () => {
    const body = '{"protocolVersion":2,"parents":[],"payload":{"type":5,"tag":"0x01","data":"0x"},"nonce":"0"}';
    const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body,
    });
    expect(res.status).to.equal(201);
    expect(res.headers.get('location')).to.equal(BLOCK_ID_HEX);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await res.json()).to.deep.equal({ blockId: BLOCK_ID_HEX });
    expect(t.node.calls[0]!.request).to.deep.equal({ block: { $case: 'json', value: body } });
  });

  it('passes a binary body as raw bytes, and still answers JSON when Accept asks for the vendor type', async () => {
    const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': V1, accept: V1 },
      body: RAW,
    });
    expect(res.status).to.equal(201);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await res.json()).to.deep.equal({ blockId: BLOCK_ID_HEX });
    const req = t.node.calls[0]!.request as { block: { $case: string; value: Uint8Array } };
    expect(req.block.$case).to.equal('raw');
    expect(new Uint8Array(req.block.value)).to.deep.equal(RAW);
  });

  it('cancels the node call when the HTTP client goes away (no proof of work for nobody)', async () => {
    let cancelled!: () => void;
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    let received!: () => void;
    const wasReceived = new Promise<void>((resolve) => (received = resolve));
    t.node.handlers.submitBlock = (_req, call) =>
      new Promise(() => {
        call.signal.addEventListener('abort', () => cancelled());
        received();
      });
    const abort = new AbortController();
    const pending = fetch(`${t.gw.url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: abort.signal,
    }).catch((e: Error) => e.name);
    await wasReceived;
    abort.abort();
    expect(await pending).to.equal('AbortError');
    await wasCancelled; // the mocha timeout fails this test if the gateway never cancels
  });

  it('ignores Content-Type parameters and case', async () => {
    const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'Application/VND.iota.serializer-v1; foo=bar' },
      body: RAW,
    });
    expect(res.status).to.equal(201);
  });

  for (const ct of [
    'text/plain',
    'application/octet-stream',
    'application/vnd.iota.serializer-v2',
    'application/jsonx',
    undefined,
  ]) {
    it(`answers 415 for Content-Type ${ct ?? '(missing)'} without calling the node`, async () => {
      const headers: Record<string, string> = ct === undefined ? {} : { 'content-type': ct };
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers,
        body: ct === undefined ? RAW : '{}',
      });
      expect(res.status).to.equal(415);
      const body = (await res.json()) as { error: { code: number; message: string } };
      expect(body.error.code).to.equal(415);
      expect(body.error.message).to.match(/^invalid data provided: unsupported media type/);
      expect(t.node.calls).to.have.length(0);
    });
  }

  it('answers 400 for malformed JSON, a body not in UTF-8 and an empty body, without calling the node', async () => {
    for (const body of ['{"protocolVersion":2,', Uint8Array.of(0x7b, 0xff, 0x7d), '']) {
      const res = await fetch(`${t.gw.url}/api/core/v2/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).to.equal(400);
      const json = (await res.json()) as { error: { code: number; message: string } };
      expect(json.error.code).to.equal(400);
      expect(json.error.message).to.match(/^invalid data provided: invalid block: /);
    }
    expect(t.node.calls).to.have.length(0);
  });
});
