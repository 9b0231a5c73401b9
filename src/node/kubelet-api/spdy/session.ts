// The server side of a SPDY/3.1 session over any byte stream: a raw socket after `Upgrade: SPDY/3.1`, or the
// bytes of a WebSocket's binary messages (kubectl 1.30+ tunnels SPDY inside `SPDY/3.1+portforward.k8s.io`).
// The client opens every stream (SYN_STREAM); each one is handed to onStream as a Duplex once its headers are
// decoded, and the handler accepts it with reply(). No flow control is enforced or announced: Go's spdystream,
// which kubectl and kubelet use, sends no WINDOW_UPDATE and ignores them, and so does this session; back
// pressure comes from the transport instead (a stream that is not read pauses the whole session, as a blocked
// spdystream frame worker does).
import { Duplex, type Duplex as DuplexStream } from 'node:stream';
import { encodeFrame, FLAG_FIN, FLAG_UNIDIRECTIONAL, FrameParser, RstStatus, SpdyProtocolError, type Frame } from './frames.ts';
import { HeaderCompressor, HeaderDecompressor, type SpdyHeaders } from './header-compression.ts';

export class SpdyStream extends Duplex {
  private replied = false;
  private sentFin = false;

  constructor(
    private readonly session: SpdySession,
    readonly id: number,
    readonly headers: SpdyHeaders,
  ) {
    super({ allowHalfOpen: true });
  }

  /** The first value of a request header (names are lower case). */
  header(name: string): string | undefined {
    return this.headers.get(name.toLowerCase())?.[0];
  }

  /** Accepts the stream (SYN_REPLY); the client waits for this before it sends or reads. */
  reply(headers: SpdyHeaders = new Map()): void {
    if (this.replied) return;
    this.replied = true;
    this.session.send(async (compressor) => encodeFrame({ type: 'synReply', streamId: this.id, flags: 0, headerBlock: await compressor.compress(headers) }));
  }

  /** Ends the stream abruptly both ways (RST_STREAM). */
  reset(status: number = RstStatus.Cancel): void {
    if (!this.destroyed) this.session.send(() => encodeFrame({ type: 'rstStream', streamId: this.id, status }));
    this.destroy();
  }

  override _read(): void {
    this.session.resumeReading();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.session.sendData(this.id, chunk, 0, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.sentFin = true;
    this.session.sendData(this.id, Buffer.alloc(0), FLAG_FIN, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.session.forget(this.id);
    callback(error);
  }

  /** Whether our half is closed (FIN sent). */
  get finished(): boolean {
    return this.sentFin;
  }
}

type FrameWriter = (compressor: HeaderCompressor) => Buffer | Promise<Buffer>;

export class SpdySession {
  private readonly streams = new Map<number, SpdyStream>();
  private readonly parser = new FrameParser();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  /** Frames go out in the order they were sent, header compression included. */
  private outgoing: Promise<void> = Promise.resolve();
  /** Incoming frames are handled one at a time, in order (a SYN_STREAM's headers decode asynchronously). */
  private incoming: Promise<void> = Promise.resolve();
  private lastStreamId = 0;
  private closed = false;
  readonly done: Promise<void>;

  constructor(
    private readonly transport: DuplexStream,
    private readonly onStream: (stream: SpdyStream) => void,
    initial: Buffer = Buffer.alloc(0),
  ) {
    let finished!: () => void;
    this.done = new Promise((resolve) => (finished = resolve));
    transport.on('data', (chunk: Buffer) => this.receive(chunk));
    transport.once('close', () => {
      this.teardown();
      finished();
    });
    transport.on('end', () => this.close());
    transport.on('error', () => this.teardown());
    if (initial.length > 0) this.receive(initial);
  }

  /** Queues a frame; encoding runs in turn, so header blocks leave in the order they were compressed. */
  send(writer: FrameWriter, written?: (error?: Error | null) => void): void {
    this.outgoing = this.outgoing.then(async () => {
      if (this.closed || this.transport.destroyed) return written?.(new Error('the SPDY session is closed'));
      const bytes = await writer(this.compressor);
      if (this.transport.write(bytes)) written?.();
      else this.transport.once('drain', () => written?.());
    }).catch((error: unknown) => {
      written?.(error as Error);
      this.teardown();
    });
  }

  sendData(streamId: number, data: Buffer, flags: number, written: (error?: Error | null) => void): void {
    this.send(() => encodeFrame({ type: 'data', streamId, flags, data }), written);
  }

  forget(streamId: number): void {
    this.streams.delete(streamId);
    // A stream that stopped the transport and is gone would keep it stopped for ever; its frames are dropped now.
    this.resumeReading();
  }

  resumeReading(): void {
    if (this.transport.isPaused()) this.transport.resume();
  }

  /** GOAWAY, then the transport ends once queued frames are out. */
  close(): void {
    if (this.closed) return;
    this.send(() => encodeFrame({ type: 'goAway', lastGoodStreamId: this.lastStreamId, status: 0 }));
    this.outgoing = this.outgoing.then(() => {
      this.closed = true;
      this.transport.end();
    });
  }

  private teardown(): void {
    this.closed = true;
    for (const stream of this.streams.values()) stream.destroy();
    this.streams.clear();
    this.compressor.close();
    this.decompressor.close();
    if (!this.transport.destroyed) this.transport.destroy();
  }

  private receive(chunk: Buffer): void {
    let frames: Frame[];
    try {
      frames = this.parser.push(chunk);
    } catch {
      // Unparseable bytes: the session cannot go on (spdystream drops the connection too).
      this.teardown();
      return;
    }
    for (const frame of frames) {
      this.incoming = this.incoming.then(() => this.handle(frame)).catch(() => this.teardown());
    }
  }

  private async handle(frame: Frame): Promise<void> {
    switch (frame.type) {
      case 'synStream': {
        // Decoded even for a refused stream: the decompressor's state must follow every block.
        const headers = await this.decompressor.decompress(frame.headerBlock);
        if (frame.streamId % 2 === 0 || frame.streamId <= this.lastStreamId) {
          this.send(() => encodeFrame({ type: 'rstStream', streamId: frame.streamId, status: RstStatus.ProtocolError }));
          return;
        }
        this.lastStreamId = frame.streamId;
        const stream = new SpdyStream(this, frame.streamId, headers);
        this.streams.set(frame.streamId, stream);
        if ((frame.flags & FLAG_FIN) !== 0) stream.push(null);
        if ((frame.flags & FLAG_UNIDIRECTIONAL) !== 0) stream.end();
        this.onStream(stream);
        return;
      }
      case 'synReply':
      case 'headers':
        await this.decompressor.decompress(frame.headerBlock);
        return;
      case 'data': {
        const stream = this.streams.get(frame.streamId);
        if (!stream) return;
        if (frame.data.length > 0 && !stream.push(frame.data)) this.transport.pause();
        if ((frame.flags & FLAG_FIN) !== 0) stream.push(null);
        return;
      }
      case 'rstStream':
        this.streams.get(frame.streamId)?.destroy();
        return;
      case 'ping':
        // Client pings are odd; answering with the same id is the reply.
        if (frame.id % 2 === 1) this.send(() => encodeFrame(frame));
        return;
      case 'goAway':
        this.close();
        return;
      case 'settings':
      case 'windowUpdate':
        return;
      default:
        throw new SpdyProtocolError('unexpected frame');
    }
  }
}
