// Streams a container's CRI log as `kubectl logs` shows it: assembled lines, filtered by since, the last
// tailLines of what is there, with kubelet's timestamp prefix when asked, cut at limitBytes. With follow it
// keeps going while the run lasts: inotify (fs.watch) wakes it when the file grows, the run's exit ends it
// after a last read (the handle resolves its exit only once the log file is closed, so nothing is missed).
import { watch } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { CriLineDecoder, kubeletTimestamp, type LogLine } from './cri-log-lines.ts';
import type { LogOptions } from './log-options.ts';

export interface LogStreamRequest {
  path: string;
  /** The log file, opened for reading; closed when the stream ends. */
  file: FileHandle;
  options: LogOptions;
  /** The run's exit while it still runs; undefined for a run that is over (follow then ends at once). */
  running: Promise<unknown> | undefined;
  sink: Writable;
  /** Aborted when the client went away. */
  signal: AbortSignal;
}

const READ_CHUNK = 64 * 1024;

class LineSink {
  private remaining: number;

  constructor(
    private readonly sink: Writable,
    private readonly options: LogOptions,
  ) {
    this.remaining = options.limitBytes ?? Number.POSITIVE_INFINITY;
  }

  get full(): boolean {
    return this.remaining <= 0;
  }

  async write(lines: LogLine[]): Promise<void> {
    const since = this.options.sinceNs;
    const chunks: Buffer[] = [];
    for (const line of lines) {
      if (this.full) break;
      if (since !== undefined && line.ns < since) continue;
      let bytes = this.options.timestamps ? Buffer.concat([Buffer.from(`${kubeletTimestamp(line.ns)} `), line.content]) : line.content;
      if (bytes.length > this.remaining) bytes = bytes.subarray(0, this.remaining);
      this.remaining -= bytes.length;
      chunks.push(bytes);
    }
    if (chunks.length === 0) return;
    if (!this.sink.write(Buffer.concat(chunks))) await once(this.sink, 'drain');
  }
}

export async function streamLog(request: LogStreamRequest): Promise<void> {
  const { options, signal, file } = request;
  // Woken by inotify when the file changes; `changed` stays set until the next read, so an event that comes
  // while a read is under way is not lost.
  let changed = false;
  let wake: () => void = () => undefined;
  const watcher = options.follow && request.running ? watch(request.path, () => ((changed = true), wake())) : undefined;
  const decoder = new CriLineDecoder();
  const sink = new LineSink(request.sink, options);
  const buffer = Buffer.alloc(READ_CHUNK);
  let position = 0;
  const readAvailable = async (): Promise<LogLine[]> => {
    const lines: LogLine[] = [];
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, READ_CHUNK, position);
      if (bytesRead === 0) return lines;
      position += bytesRead;
      lines.push(...decoder.push(buffer.subarray(0, bytesRead)));
    }
  };
  try {
    const initial = await readAvailable();
    const tail = options.tailLines;
    await sink.write(tail === undefined ? initial : tail === 0 ? [] : initial.slice(-tail));
    if (!watcher || !request.running) return;
    let exited = false;
    const ended = () => ((exited = true), wake());
    void request.running.then(ended, ended);
    const aborted = () => wake();
    signal.addEventListener('abort', aborted);
    try {
      while (!signal.aborted && !sink.full) {
        if (!changed && !exited) await new Promise<void>((resolve) => (wake = resolve));
        if (signal.aborted) return;
        const wasExited = exited;
        changed = false;
        await sink.write(await readAvailable());
        if (wasExited) return;
      }
    } finally {
      signal.removeEventListener('abort', aborted);
    }
  } finally {
    watcher?.close();
    await file.close();
  }
}
