/**
 * The mux wire helpers (src/grpc/mux.ts): the writer's batches and its backpressure against a stream that holds it
 * back, method names on the wire, metadata as frame entries (and the entries refused), a batch read frame by frame.
 */
import { expect } from 'chai';
import { EventEmitter } from 'node:events';
import { Metadata } from '@grpc/grpc-js';
import { MuxBatch } from '../../src/grpc/gen/mux.ts';
import {
  BatchReader,
  frame,
  frameBytes,
  FrameKind,
  FrameWriter,
  InvalidMetadataError,
  MAX_MESSAGE_BYTES,
  metadataOf,
  METHOD_OF,
  servicePath,
  WIRE_NAME,
  type MuxFrame,
} from '../../src/grpc/mux.ts';

/** A stream that records batches, says false to write() while `full`, and calls back writes when told. */
class FakeSink extends EventEmitter {
  batches: MuxFrame[][] = [];
  full = false;
  ended = false;
  held: (() => void)[] = [];
  holdCallbacks = false;

  write(batch: MuxBatch, callback: () => void): boolean {
    this.batches.push(batch.frames);
    expect(MuxBatch.encode(batch).finish().length).to.be.at.most(MAX_MESSAGE_BYTES);
    if (this.holdCallbacks) this.held.push(callback);
    else callback();
    return !this.full;
  }

  end(): void {
    this.ended = true;
  }
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const call = (id: number, bytes = 10): MuxFrame =>
  frame(FrameKind.FRAME_KIND_CALL, id, new Uint8Array(bytes), 'GetBlock', 5);

describe('mux wire helpers', () => {
  it('writes the frames of one turn as one batch, dropping those not wanted any more', async () => {
    const sink = new FakeSink();
    const writer = new FrameWriter(sink, (f) => f.callId !== 2);
    for (const id of [1, 2, 3]) writer.push(call(id), frameBytes(call(id)));
    expect(sink.batches).to.have.length(0);
    await tick();
    expect(sink.batches.map((b) => b.map((f) => f.callId))).to.deep.equal([[1, 3]]);
    expect(writer.pendingBytes).to.equal(0);
  });

  it('keeps each batch within the message limit', async () => {
    const sink = new FakeSink();
    const writer = new FrameWriter(sink);
    for (let id = 1; id <= 5; id++)
      writer.push(call(id, MAX_MESSAGE_BYTES / 3), frameBytes(call(id, MAX_MESSAGE_BYTES / 3)));
    await tick();
    expect(sink.batches.map((b) => b.length)).to.deep.equal([2, 2, 1]);
  });

  it('holds back while write() says false until drain, and while too many bytes are not written through', async () => {
    const sink = new FakeSink();
    const writer = new FrameWriter(sink);
    sink.full = true;
    writer.push(call(1), 60);
    await tick();
    writer.push(call(2), 60);
    await tick();
    expect(sink.batches).to.have.length(1);
    expect(writer.waiting).to.equal(true);
    sink.full = false;
    sink.emit('drain');
    await tick();
    expect(sink.batches.map((b) => b[0]!.callId)).to.deep.equal([1, 2]);

    sink.holdCallbacks = true;
    const big = MAX_MESSAGE_BYTES / 2 + 1;
    for (let id = 3; id <= 6; id++) writer.push(call(id, big), frameBytes(call(id, big)));
    await tick();
    expect(sink.batches).to.have.length(4); // two large batches under way: more than the bytes allowed in flight
    expect(writer.waiting).to.equal(true);
    for (const done of sink.held.splice(0)) done();
    await tick();
    expect(sink.batches).to.have.length(6);
  });

  it('ends the stream once everything queued is written; after close() nothing more goes out', async () => {
    const sink = new FakeSink();
    const writer = new FrameWriter(sink);
    writer.push(call(1), 60);
    writer.endWhenWritten();
    await tick();
    expect([sink.batches.length, sink.ended]).to.deep.equal([1, true]);
    const closed = new FrameWriter(sink);
    closed.close();
    closed.push(call(2), 60);
    await tick();
    expect(sink.batches).to.have.length(1);
  });

  it('names every NodeService method by its path on the wire, both ways', () => {
    expect(WIRE_NAME.getBlock).to.equal('GetBlock');
    expect(METHOD_OF.get('GetIncludedBlockMetadata')).to.equal('getIncludedBlockMetadata');
    for (const [method, name] of Object.entries(WIRE_NAME)) expect(METHOD_OF.get(name)).to.equal(method);
    expect(servicePath('Nope')).to.equal('/ledger.v1.NodeService/Nope');
  });

  it('reads metadata entries: every value in order, text as text, -bin values as bytes', () => {
    const md = new Metadata();
    md.add('x-a', 'one');
    md.add('x-a', 'two');
    md.add('x-b-bin', Buffer.from([0, 255]));
    const entries = [
      { key: 'x-a', value: Buffer.from('one') },
      { key: 'x-a', value: Buffer.from('two') },
      { key: 'x-b-bin', value: Uint8Array.of(0, 255) },
    ];
    expect(metadataOf(entries).toJSON()).to.deep.equal(md.toJSON());
    expect(metadataOf([]).toJSON()).to.deep.equal({});
  });

  it('refuses entries grpc-js would throw on, naming the key, instead of throwing from inside grpc-js', () => {
    const text = (key: string, value: string) => ({ key, value: Buffer.from(value) });
    for (const [entry, key] of [
      [text('Bad Key!', 'v'), 'Bad Key!'],
      [text('', 'v'), ''],
      [text(':path', '/x'), ':path'],
      [text('x-a', 'a\nb'), 'x-a'],
      [text('x-a', 'caf\u00e9'), 'x-a'],
      [{ key: 'x-a', value: Uint8Array.of(0xff) }, 'x-a'],
    ] as const) {
      expect(() => metadataOf([text('x-ok', 'fine'), entry])).to.throw(InvalidMetadataError, JSON.stringify(key));
    }
    expect(() => metadataOf([text('x'.repeat(1000) + '!', 'v')])).to.throw(
      InvalidMetadataError,
      /\(key "x{64}\.\.\."\)$/,
    );
    expect(metadataOf([{ key: 'x-raw-bin', value: Buffer.from('a\nb') }]).get('x-raw-bin')).to.deep.equal([
      Buffer.from('a\nb'),
    ]);
  });

  it('reads a batch one frame at a time, as MuxBatch.decode reads it whole', () => {
    const frames = [
      call(1),
      frame(FrameKind.FRAME_KIND_CANCEL, 2),
      { ...call(3), metadata: [{ key: 'x-a', value: Buffer.from('v') }] },
    ];
    const bytes = MuxBatch.encode({ frames }).finish();
    const reader = new BatchReader(bytes);
    const read: MuxFrame[] = [];
    for (let f = reader.next(); f !== undefined; f = reader.next()) read.push(f);
    expect(read).to.deep.equal(MuxBatch.decode(bytes).frames);
    expect(read.map((f) => f.callId)).to.deep.equal([1, 2, 3]);
    expect(reader.next()).to.equal(undefined);
    expect(new BatchReader(new Uint8Array(0)).next()).to.equal(undefined);
    expect(() => new BatchReader(Uint8Array.of(0x0a, 0x40, 0x08)).next()).to.throw();
  });
});
