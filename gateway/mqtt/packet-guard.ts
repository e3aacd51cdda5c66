/**
 * The MQTT packet size limit of the event API. aedes' parser (mqtt-packet) buffers a packet until its announced
 * remaining length (up to 256 MB) has arrived, and the WebSocket's `maxPayload` only bounds one WebSocket message, not
 * one MQTT packet: a client announcing a huge PUBLISH and streaming it in small messages would make the gateway hold it
 * all. So the bytes a client sends pass a guard first, between the WebSocket stream and aedes: it reads each packet's
 * fixed header as it streams by (the type byte and the 1-4 bytes of the remaining length, MQTT 3.1.1 §2.2) and skips
 * the rest, holding nothing but the header's few counters; when a packet announces more than the limit (or a malformed
 * length), the connection is destroyed before any of that packet's body reaches aedes.
 */
import { Duplex } from 'node:stream';

/** Largest remaining length MQTT can express (4 length bytes); anything longer is malformed. */
const MAX_LENGTH_BYTES = 4;

/** Scans a client's byte stream packet by packet; `feed` says when a packet breaks the limit. */
export class PacketScanner {
  /** Body bytes of the current packet still to skip. */
  private skip = 0;
  /** -1: the next byte is a packet's type byte; otherwise the number of remaining-length bytes read so far. */
  private lengthBytes = -1;
  private length = 0;

  constructor(readonly maxPacketBytes: number) {}

  /** Undefined while every packet seen keeps to the limit; else why the stream must be cut. */
  feed(chunk: Uint8Array): string | undefined {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      const byte = chunk[i++]!;
      if (this.lengthBytes < 0) {
        this.lengthBytes = 0;
        this.length = 0;
        continue;
      }
      this.length += (byte & 0x7f) * 128 ** this.lengthBytes++;
      if (this.length > this.maxPacketBytes)
        return `an MQTT packet of at least ${this.length} bytes (at most ${this.maxPacketBytes})`;
      if ((byte & 0x80) !== 0) {
        if (this.lengthBytes === MAX_LENGTH_BYTES) return 'a malformed MQTT remaining length';
        continue;
      }
      this.skip = this.length;
      this.lengthBytes = -1;
    }
    return undefined;
  }
}

/**
 * `inner` (the WebSocket stream) as aedes sees it: writes go straight through; reads pass the scanner first and, on the
 * first packet over the limit, `onRefused` is told and both streams are destroyed (which terminates the WebSocket).
 */
export class PacketGuard extends Duplex {
  constructor(
    private readonly inner: Duplex,
    scanner: PacketScanner,
    onRefused: (reason: string) => void,
  ) {
    super({ allowHalfOpen: false });
    inner.on('data', (chunk: Buffer) => {
      if (this.destroyed) return;
      const refused = scanner.feed(chunk);
      if (refused !== undefined) {
        onRefused(refused);
        this.destroy();
      } else if (!this.push(chunk)) inner.pause();
    });
    inner.on('end', () => this.push(null));
    inner.on('error', (err: Error) => this.destroy(err));
    inner.on('close', () => this.destroy());
  }

  override _read(): void {
    this.inner.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.inner.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.inner.end(callback);
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.inner.destroy(err ?? undefined);
    callback(err);
  }
}
