// Copies one of a container's output FIFOs into its CRI log while the container runs.
//
// A FIFO cannot be trusted to report end-of-file: Linux shows EPOLLHUP only to a reader that was opened while
// a writer existed (or has seen one since), so a reader opened after the last writer closed waits for ever,
// and what was written is gone with the last writer. The setup therefore waits for the agent's go-ahead
// before the container runs (scripts.ts), and the copy ends when the agent says so: once the container's
// processes are dead, finish() reads what is left and closes, whether end-of-file was seen or not.
import { constants as fsConstants, openSync, readSync } from 'node:fs';
import { Socket } from 'node:net';
import type { CriLogWriter, LogStream } from './cri-log.ts';

// A pipe holds 64 KiB unless resized.
const DRAIN_CHUNK_BYTES = 64 * 1024;

export class OutputCopy {
  private readonly fd: number;
  private readonly socket: Socket;
  /** Resolves once the copy has closed, after its last record went to the log. */
  readonly done: Promise<void>;

  /**
   * Opens the FIFO without blocking (a writer need not exist yet); throws if it cannot be opened. onChunk sees
   * every chunk as it goes to the log (attach follows the live output).
   */
  constructor(
    private readonly stream: LogStream,
    fifo: string,
    private readonly log: CriLogWriter,
    private readonly onChunk: (chunk: Buffer) => void = () => undefined,
  ) {
    this.fd = openSync(fifo, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    this.socket = new Socket({ fd: this.fd, readable: true, writable: false });
    this.socket.on('data', (chunk: Buffer) => {
      log.write(stream, chunk);
      onChunk(chunk);
    });
    this.socket.once('error', () => this.socket.destroy());
    this.done = new Promise((resolve) => {
      this.socket.once('close', () => {
        log.endStream(stream);
        resolve();
      });
    });
  }

  /**
   * Every writer in the container is gone: copies what is still in the pipe and closes. A writer that
   * escaped the container's cgroup (a privileged process) may still hold the FIFO; what it writes later is
   * dropped, as the container has exited.
   */
  finish(): Promise<void> {
    // A destroyed socket has closed its descriptor, whose number may already be reused.
    if (this.socket.destroyed) return this.done;
    const buffer = Buffer.alloc(DRAIN_CHUNK_BYTES);
    for (;;) {
      let length: number;
      try {
        length = readSync(this.fd, buffer);
      } catch {
        // EAGAIN: empty, with a writer outside the container still holding it open.
        break;
      }
      if (length === 0) break;
      const chunk = Buffer.from(buffer.subarray(0, length));
      this.log.write(this.stream, chunk);
      this.onChunk(chunk);
    }
    this.socket.destroy();
    return this.done;
  }
}
