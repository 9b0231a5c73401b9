// SPDY/3.1 frames (draft 3.1, section 2.2): their byte layout, written and parsed, the header blocks left as
// they travel (compressed; header-compression.ts turns them into name/value pairs and back).
export const SPDY_VERSION = 3;

export const FrameType = {
  SynStream: 1,
  SynReply: 2,
  RstStream: 3,
  Settings: 4,
  Ping: 6,
  GoAway: 7,
  Headers: 8,
  WindowUpdate: 9,
} as const;

export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;

/** RST_STREAM status codes used here. */
export const RstStatus = { ProtocolError: 1, InvalidStream: 2, RefusedStream: 3, Cancel: 5, InternalError: 6 } as const;

export type Frame =
  | { type: 'data'; streamId: number; flags: number; data: Buffer }
  | { type: 'synStream'; streamId: number; associatedTo: number; priority: number; flags: number; headerBlock: Buffer }
  | { type: 'synReply'; streamId: number; flags: number; headerBlock: Buffer }
  | { type: 'headers'; streamId: number; flags: number; headerBlock: Buffer }
  | { type: 'rstStream'; streamId: number; status: number }
  | { type: 'settings'; flags: number; entries: { flags: number; id: number; value: number }[] }
  | { type: 'ping'; id: number }
  | { type: 'goAway'; lastGoodStreamId: number; status: number }
  | { type: 'windowUpdate'; streamId: number; delta: number };

export class SpdyProtocolError extends Error {
  override readonly name = 'SpdyProtocolError' as const;
}

/** The largest payload a frame's 24-bit length can carry. */
export const MAX_FRAME_PAYLOAD = 0xffffff;
const STREAM_ID_MASK = 0x7fffffff;

function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head.writeUInt32BE(((flags & 0xff) << 24) | payload.length, 4);
  return Buffer.concat([head, payload]);
}

function words(...values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => buffer.writeUInt32BE(value >>> 0, i * 4));
  return buffer;
}

export function encodeFrame(frame: Frame): Buffer {
  switch (frame.type) {
    case 'data': {
      if (frame.data.length > MAX_FRAME_PAYLOAD) throw new SpdyProtocolError(`a data frame carries at most ${MAX_FRAME_PAYLOAD} bytes`);
      const head = Buffer.alloc(8);
      head.writeUInt32BE(frame.streamId & STREAM_ID_MASK, 0);
      head.writeUInt32BE((((frame.flags & 0xff) << 24) | frame.data.length) >>> 0, 4);
      return Buffer.concat([head, frame.data]);
    }
    case 'synStream': {
      const fixed = Buffer.alloc(10);
      fixed.writeUInt32BE(frame.streamId & STREAM_ID_MASK, 0);
      fixed.writeUInt32BE(frame.associatedTo & STREAM_ID_MASK, 4);
      fixed.writeUInt8((frame.priority & 0x7) << 5, 8);
      return controlFrame(FrameType.SynStream, frame.flags, Buffer.concat([fixed, frame.headerBlock]));
    }
    case 'synReply':
      return controlFrame(FrameType.SynReply, frame.flags, Buffer.concat([words(frame.streamId & STREAM_ID_MASK), frame.headerBlock]));
    case 'headers':
      return controlFrame(FrameType.Headers, frame.flags, Buffer.concat([words(frame.streamId & STREAM_ID_MASK), frame.headerBlock]));
    case 'rstStream':
      return controlFrame(FrameType.RstStream, 0, words(frame.streamId & STREAM_ID_MASK, frame.status));
    case 'settings':
      return controlFrame(FrameType.Settings, frame.flags, words(frame.entries.length, ...frame.entries.flatMap((e) => [((e.flags & 0xff) << 24) | (e.id & 0xffffff), e.value])));
    case 'ping':
      return controlFrame(FrameType.Ping, 0, words(frame.id));
    case 'goAway':
      return controlFrame(FrameType.GoAway, 0, words(frame.lastGoodStreamId & STREAM_ID_MASK, frame.status));
    case 'windowUpdate':
      return controlFrame(FrameType.WindowUpdate, 0, words(frame.streamId & STREAM_ID_MASK, frame.delta & STREAM_ID_MASK));
  }
}

function need(payload: Buffer, bytes: number, what: string): void {
  if (payload.length < bytes) throw new SpdyProtocolError(`${what} frame too short: ${payload.length} bytes`);
}

/** One control frame's payload, or undefined for a type SPDY/3.1 peers must ignore (CREDENTIAL, unknown). */
function parseControl(type: number, flags: number, payload: Buffer): Frame | undefined {
  switch (type) {
    case FrameType.SynStream:
      need(payload, 10, 'SYN_STREAM');
      return {
        type: 'synStream',
        streamId: payload.readUInt32BE(0) & STREAM_ID_MASK,
        associatedTo: payload.readUInt32BE(4) & STREAM_ID_MASK,
        priority: payload.readUInt8(8) >> 5,
        flags,
        headerBlock: payload.subarray(10),
      };
    case FrameType.SynReply:
    case FrameType.Headers:
      need(payload, 4, type === FrameType.SynReply ? 'SYN_REPLY' : 'HEADERS');
      return { type: type === FrameType.SynReply ? 'synReply' : 'headers', streamId: payload.readUInt32BE(0) & STREAM_ID_MASK, flags, headerBlock: payload.subarray(4) };
    case FrameType.RstStream:
      need(payload, 8, 'RST_STREAM');
      return { type: 'rstStream', streamId: payload.readUInt32BE(0) & STREAM_ID_MASK, status: payload.readUInt32BE(4) };
    case FrameType.Settings: {
      need(payload, 4, 'SETTINGS');
      const count = payload.readUInt32BE(0);
      need(payload, 4 + count * 8, 'SETTINGS');
      const entries = Array.from({ length: count }, (_, i) => {
        const word = payload.readUInt32BE(4 + i * 8);
        return { flags: word >>> 24, id: word & 0xffffff, value: payload.readUInt32BE(8 + i * 8) };
      });
      return { type: 'settings', flags, entries };
    }
    case FrameType.Ping:
      need(payload, 4, 'PING');
      return { type: 'ping', id: payload.readUInt32BE(0) };
    case FrameType.GoAway:
      need(payload, 8, 'GOAWAY');
      return { type: 'goAway', lastGoodStreamId: payload.readUInt32BE(0) & STREAM_ID_MASK, status: payload.readUInt32BE(4) };
    case FrameType.WindowUpdate:
      need(payload, 8, 'WINDOW_UPDATE');
      return { type: 'windowUpdate', streamId: payload.readUInt32BE(0) & STREAM_ID_MASK, delta: payload.readUInt32BE(4) & STREAM_ID_MASK };
    default:
      return undefined;
  }
}

/** Cuts a byte stream into frames, whatever the chunks it arrives in. */
export class FrameParser {
  private pending: Buffer = Buffer.alloc(0);

  /** The complete frames the bytes so far hold; an incomplete tail waits for the next push. */
  push(chunk: Buffer): Frame[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Frame[] = [];
    while (this.pending.length >= 8) {
      const length = this.pending.readUInt32BE(4) & 0xffffff;
      if (this.pending.length < 8 + length) break;
      const first = this.pending.readUInt32BE(0);
      const flags = this.pending.readUInt8(4);
      const payload = this.pending.subarray(8, 8 + length);
      this.pending = this.pending.subarray(8 + length);
      if ((first & 0x80000000) === 0) {
        frames.push({ type: 'data', streamId: first & STREAM_ID_MASK, flags, data: payload });
        continue;
      }
      const version = (first >>> 16) & 0x7fff;
      if (version !== SPDY_VERSION) throw new SpdyProtocolError(`unsupported SPDY version ${version}`);
      const frame = parseControl(first & 0xffff, flags, payload);
      if (frame) frames.push(frame);
    }
    return frames;
  }
}
