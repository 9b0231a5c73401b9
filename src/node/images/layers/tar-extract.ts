// GNU tar (Essential on Debian) writes the entries: Node has no API for xattrs (file capabilities, overlayfs's
// opaque marker) nor for device nodes, and tar sets owner, mode, mtime and xattrs in the right order (a chown
// after setting a capability would clear it).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

const IN_FLIGHT_BYTES = 4 << 20;

export const TAR_XATTR_FLAGS = ['--xattrs', "--xattrs-include=*", '--numeric-owner'];

export class TarExtraction {
  private stderr = '';
  private failure: Error | undefined;
  private readonly closed: Promise<[number | null, NodeJS.Signals | null]>;

  private constructor(private readonly child: ChildProcessByStdio<Writable, null, Readable>) {
    child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderr += text));
    // A dead tar shows up as EPIPE here; its exit status says why.
    child.stdin.on('error', (error) => (this.failure ??= error));
    child.on('error', (error) => (this.failure ??= error));
    this.closed = new Promise((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
  }

  /** `tar -x` into `directory`, as root: owners, modes, xattrs and device nodes as the archive says. */
  static start(directory: string): TarExtraction {
    const child = spawn('tar', ['-x', '-f', '-', '-C', directory, ...TAR_XATTR_FLAGS, '--same-owner', '--same-permissions', '--warning=no-unknown-keyword'], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    return new TarExtraction(child);
  }

  async write(bytes: Buffer): Promise<void> {
    if (this.failure) throw await this.error();
    // Waiting for 'drain' at the pipe's 16 KiB mark costs a round trip per chunk; a few MiB in flight do not.
    if (!this.child.stdin.write(bytes) && this.child.stdin.writableLength > IN_FLIGHT_BYTES) {
      await Promise.race([once(this.child.stdin, 'drain'), this.closed]);
    }
  }

  /** Ends the archive and waits for tar. */
  async finish(): Promise<void> {
    this.child.stdin.end(Buffer.alloc(1024));
    const [code] = await this.closed;
    if (code !== 0 || this.failure) throw await this.error();
  }

  abort(): Promise<unknown> {
    this.child.kill('SIGKILL');
    return this.closed;
  }

  private async error(): Promise<Error> {
    const [code, signal] = await this.closed;
    const detail = this.stderr.trim() || this.failure?.message || `exit ${code ?? signal}`;
    return new Error(`tar could not write the layer: ${detail}`);
  }
}
