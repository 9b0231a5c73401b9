// Reading the CRI log back as kubelet does for `kubectl logs`: records parsed from `<RFC3339Nano> <stream>
// <P|F> <content>` lines, a stream's partial (P) records joined with the full (F) record that ends them, each
// assembled line carrying the time of its first record.
import type { LogStream } from '../sandbox/cri-log.ts';

export interface LogLine {
  /** Nanoseconds since the epoch. */
  ns: bigint;
  stream: LogStream;
  /** The line's content with its newline. */
  content: Buffer;
}

const NEWLINE = 0x0a;
const RFC3339 = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/** RFC 3339 with up to nine fraction digits, as nanoseconds since the epoch; undefined when malformed. */
export function parseRfc3339Nano(text: string): bigint | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}${match[3]}`);
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** kubelet's timestamp prefix (timeFormatOut): RFC 3339 in UTC with exactly nine fraction digits. */
export function kubeletTimestamp(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}.${fraction}Z`;
}

/** Turns the bytes of a CRI log, fed in any chunks, into assembled lines. */
export class CriLineDecoder {
  private rest = Buffer.alloc(0);
  private readonly partial = new Map<LogStream, { ns: bigint; parts: Buffer[] }>();

  push(chunk: Buffer): LogLine[] {
    const data = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    const lines: LogLine[] = [];
    let start = 0;
    for (let newline = data.indexOf(NEWLINE, start); newline >= 0; newline = data.indexOf(NEWLINE, start)) {
      const line = this.record(data.subarray(start, newline));
      if (line) lines.push(line);
      start = newline + 1;
    }
    this.rest = Buffer.from(data.subarray(start));
    return lines;
  }

  // A malformed record is skipped, as kubelet's parser skips what it cannot parse.
  private record(raw: Buffer): LogLine | undefined {
    const first = raw.indexOf(0x20);
    const second = first < 0 ? -1 : raw.indexOf(0x20, first + 1);
    const third = second < 0 ? -1 : raw.indexOf(0x20, second + 1);
    const tagEnd = third < 0 ? raw.length : third;
    if (second < 0) return undefined;
    const ns = parseRfc3339Nano(raw.subarray(0, first).toString('latin1'));
    const stream = raw.subarray(first + 1, second).toString('latin1');
    const tag = raw.subarray(second + 1, tagEnd).toString('latin1');
    if (ns === undefined || (stream !== 'stdout' && stream !== 'stderr') || (tag !== 'P' && tag !== 'F')) return undefined;
    const content = third < 0 ? Buffer.alloc(0) : raw.subarray(third + 1);
    const pending = this.partial.get(stream);
    if (tag === 'P') {
      if (pending) pending.parts.push(Buffer.from(content));
      else this.partial.set(stream, { ns, parts: [Buffer.from(content)] });
      return undefined;
    }
    this.partial.delete(stream);
    const parts = pending ? [...pending.parts, content] : [content];
    return { ns: pending?.ns ?? ns, stream, content: Buffer.concat([...parts, Buffer.from('\n')]) };
  }
}
