// kubectl attach to an image's container: conmon owns the container's stdio (so that it outlives the agent) and
// offers it only on a SOCK_SEQPACKET socket, which Node cannot open. What conmon writes to the CRI log is the
// container's output as it comes, so attach follows the log from its current end: inotify wakes it when the file
// grows, the container's exit (or detach) ends it. There is no stdin and no terminal resize through it.
import { watch } from 'node:fs';
import { open } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { CriLineDecoder } from '../../kubelet-api/cri-log-lines.ts';
import type { AttachedProcess, ExecResult } from '../../sandbox/container-handle.ts';

const READ_CHUNK = 64 * 1024;

/** fromStart: the whole log, then what comes (a stdinOnce container's first attach, which must not miss its start). */
export function attachToLog(logPath: string, pid: number, exited: Promise<unknown>, fromStart = false): AttachedProcess {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let ended!: (result: ExecResult) => void;
  const done = new Promise<ExecResult>((resolve) => (ended = resolve));
  const stop = new AbortController();
  const follow = async () => {
    const file = await open(logPath, 'r');
    const decoder = new CriLineDecoder();
    let position = fromStart ? 0 : (await file.stat()).size;
    // Set by inotify and by the exit; stays set until the next read, so nothing that comes during a read is lost.
    let changed: boolean;
    let wake = () => undefined as void;
    const poke = () => {
      changed = true;
      wake();
    };
    const watcher = watch(logPath, poke);
    let over = false;
    void exited.then(() => {
      over = true;
      poke();
    });
    stop.signal.addEventListener('abort', poke, { once: true });
    const buffer = Buffer.alloc(READ_CHUNK);
    try {
      while (!stop.signal.aborted) {
        // Read once more after the exit: conmon has written all the output by then.
        const lastRead = over;
        changed = false;
        for (let n = (await file.read(buffer, 0, READ_CHUNK, position)).bytesRead; n > 0; n = (await file.read(buffer, 0, READ_CHUNK, position)).bytesRead) {
          position += n;
          for (const line of decoder.push(buffer.subarray(0, n))) (line.stream === 'stderr' ? stderr : stdout).write(line.content);
        }
        if (lastRead) return;
        if (!changed) await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      watcher.close();
      await file.close();
    }
  };
  void follow()
    .catch(() => undefined)
    .finally(() => {
      stdout.end();
      stderr.end();
      // kubelet's attach ends in success, whether the container ended or the client let go.
      ended({ exitCode: 0, signal: null });
    });
  return { pid, stdin: null, stdout, stderr, exited: done, detach: () => stop.abort() };
}
