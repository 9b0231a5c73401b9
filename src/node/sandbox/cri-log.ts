// Container output in the CRI log format kubelet reads (`<RFC3339Nano> <stream> <P|F> <content>`), one
// file per container run, so that `kubectl logs` with --timestamps, --since and --tail can be served from
// it. Lines longer than containerd's 16 KiB are split into partial (P) records ending with a full (F) one.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

export const MAX_LOG_LINE_BYTES = 16 * 1024;
const NEWLINE = 0x0a;

// Wall-clock nanoseconds: Date.now() gives the epoch, hrtime the sub-millisecond digits.
const epochOffsetNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

function nowNs(): bigint {
  return epochOffsetNs + process.hrtime.bigint();
}

/** Go's time.RFC3339Nano in UTC: trailing zeros of the fraction dropped, and the dot with them. */
export function rfc3339Nano(ns: bigint): string {
  const seconds = ns / 1_000_000_000n;
  const fraction = (ns % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const base = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  return `${base}${fraction === '' ? '' : `.${fraction}`}Z`;
}

export type LogStream = 'stdout' | 'stderr';

export class CriLogWriter {
  private readonly file: WriteStream;
  private readonly pending: Record<LogStream, Buffer> = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
  private error: Error | undefined;

  constructor(path: string) {
    this.file = createWriteStream(path, { flags: 'a', mode: 0o640 });
    // Kept for close(): a failing disk must not crash the agent from an unhandled 'error' event.
    this.file.on('error', (error) => (this.error = error));
  }

  /** A chunk of a stream's output, stamped with the time it was read. */
  write(stream: LogStream, chunk: Buffer, ns: bigint = nowNs()): void {
    let data = this.pending[stream].length > 0 ? Buffer.concat([this.pending[stream], chunk]) : chunk;
    for (;;) {
      const newline = data.indexOf(NEWLINE);
      if (newline >= 0 && newline <= MAX_LOG_LINE_BYTES) {
        this.record(stream, 'F', data.subarray(0, newline), ns);
        data = data.subarray(newline + 1);
      } else if (data.length > MAX_LOG_LINE_BYTES) {
        this.record(stream, 'P', data.subarray(0, MAX_LOG_LINE_BYTES), ns);
        data = data.subarray(MAX_LOG_LINE_BYTES);
      } else break;
    }
    this.pending[stream] = Buffer.from(data);
  }

  /** The stream ended: an unterminated last line is still a full record, as containerd writes it. */
  endStream(stream: LogStream): void {
    if (this.pending[stream].length > 0) this.record(stream, 'F', this.pending[stream], nowNs());
    this.pending[stream] = Buffer.alloc(0);
  }

  async close(): Promise<void> {
    if (!this.file.closed) {
      this.file.end();
      await once(this.file, 'close');
    }
    if (this.error) throw this.error;
  }

  private record(stream: LogStream, tag: 'P' | 'F', content: Buffer, ns: bigint): void {
    this.file.write(Buffer.concat([Buffer.from(`${rfc3339Nano(ns)} ${stream} ${tag} `), content, Buffer.from('\n')]));
  }
}
