/**
 * The node's NodeMux server against malicious frames over a real gRPC stream (proto/mux.proto,
 * src/node/grpc/mux-server.ts, docs/decisions.md §24): metadata grpc-js refuses, an unexpected failure, bytes that do
 * not decode. The call fails, the stream and the process go on.
 */
import { expect } from 'chai';
import { status as Status } from '@grpc/grpc-js';
import { FrameKind, type MetadataEntry } from '../../src/grpc/gen/mux.ts';
import { answered, batch, byId, call, exchange, failOnUncaught, serve, until } from './mux-limits-support.ts';

describe('NodeMux server under malicious frames (a real gRPC stream)', () => {
  failOnUncaught();

  it(
    'metadata grpc-js refuses (bad key, control characters, not UTF-8): INVALID_ARGUMENT naming the key; ' +
      'the stream and the process go on',
    async () => {
      const rig = await serve({ getInfoV3: answered('ok') });
      const raw = exchange(rig.port);
      try {
        raw.read();
        const bad = (key: string, value: Uint8Array): MetadataEntry[] => [
          { key: 'x-fine', value: Buffer.from('1') },
          { key, value },
        ];
        raw.write(
          batch([
            call(1, 'GetInfoV3', bad('Bad Key!', Buffer.from('v'))),
            call(2, 'GetInfoV3', bad('x-text', Buffer.from('a\nb'))),
            call(3, 'GetInfoV3', bad('x-utf8', Uint8Array.of(0xff))),
            call(4, 'GetInfoV3', bad('x-bytes-bin', Buffer.from('a\nb'))),
          ]),
        );
        await until(() => raw.frames.length === 4);
        const frames = byId(raw.frames);
        for (const [id, key] of [
          [1, 'Bad Key!'],
          [2, 'x-text'],
          [3, 'x-utf8'],
        ] as const) {
          expect(frames.get(id)).to.include({
            kind: FrameKind.FRAME_KIND_FAILURE,
            statusCode: Status.INVALID_ARGUMENT,
          });
          expect(frames.get(id)!.statusDetails).to.include(JSON.stringify(key));
        }
        expect(frames.get(4)!.kind).to.equal(FrameKind.FRAME_KIND_ANSWER); // any bytes are fine in a -bin value
        raw.write(batch([call(5, 'GetInfoV3')]));
        await until(() => raw.frames.length === 5);
        expect(raw.frames[4]).to.include({ kind: FrameKind.FRAME_KIND_ANSWER, callId: 5 });
        expect(rig.errors).to.deep.equal([]);
      } finally {
        raw.close();
        rig.stop();
      }
    },
  );

  it(
    'an unexpected failure while dispatching a frame: that call INTERNAL, logged once; ' +
      'bytes that do not decode end only their stream',
    async () => {
      const service = { getInfoV3: answered('ok') };
      const throwing = (): never => {
        throw new Error('a service that throws');
      };
      Object.defineProperty(service, 'getTips', { enumerable: true, get: throwing });
      const rig = await serve(service);
      const raw = exchange(rig.port);
      const garbled = exchange(rig.port);
      try {
        raw.read();
        raw.write(batch([call(1, 'GetTips'), call(2, 'GetTips'), call(3, 'GetInfoV3')]));
        await until(() => raw.frames.length === 3);
        const frames = byId(raw.frames);
        for (const id of [1, 2])
          expect(frames.get(id)).to.include({
            kind: FrameKind.FRAME_KIND_FAILURE,
            statusCode: Status.INTERNAL,
            statusDetails: 'Internal error',
          });
        expect(frames.get(3)!.kind).to.equal(FrameKind.FRAME_KIND_ANSWER);
        expect(rig.errors).to.have.length(1);
        expect(rig.errors[0]).to.match(/a frame of call 1 failed unexpectedly .*a service that throws/);

        garbled.read();
        // a frame cut short
        garbled.write(Buffer.concat([batch([call(7, 'GetInfoV3')]), Buffer.from([0x0a, 0x40, 0x08])]));
        await until(() => garbled.status !== undefined);
        expect(garbled.status).to.include({ code: Status.INTERNAL, details: 'Error deserializing request' });
        raw.write(batch([call(4, 'GetInfoV3')]));
        await until(() => raw.frames.length === 4);
        expect(raw.frames[3]).to.include({ kind: FrameKind.FRAME_KIND_ANSWER, callId: 4 });
      } finally {
        raw.close();
        garbled.close();
        rig.stop();
      }
    },
  );
});
