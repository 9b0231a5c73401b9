// Every host process the node agent starts is started by a helper process (helper.mjs), not by the agent's own
// event loop: the one-shot host commands (ip, unshare, mount, umount, runc state/start/kill/delete, nft) and the
// launched ones with stdio of their own (a sandbox's setup, execs, conmon; launch-channels.ts). Starting a process
// from Node forks the whole process: the loop that the API server, the controllers and the agent share stops for
// the copy of its page tables, 2.5 ms a spawn at ~330 MiB RSS here and 10 ms on a loaded machine, about a dozen
// times per pod. The helper is a bare Node process (~40 MiB), whose forks are cheap, and the agent only writes a
// line to it and reads one back.
//
// Why a process and not a worker thread: measured on the 2-core machine, 300 commands 10 at a time from a
// 244 MiB process (`ip -batch -` of nothing): spawned directly the main loop was busy 1.1–1.2 s (p99 loop delay
// 39–48 ms); from a worker thread 150–240 ms (the fork still copies the whole process, and the main thread
// takes the copy-on-write faults after it) and the process used 450–570 ms of CPU; through the helper 25 ms
// (p99 loop delay 5 ms) and 30 ms of the agent's CPU, with the burst done sooner (2.6–2.8 ms a command
// against 3.4–4.1 ms).
//
// The helper starts on the first command and ends after IDLE_MS without one and without a launched process
// still running, so an idle agent holds no second process. It runs in its own session: a Ctrl-C meant for
// `bosun up` must not kill it while the agent still unmounts and deletes on its way out. When it dies, every
// command it had not answered fails with HelperExitedError (its caller's error, never a silent loss: the command
// may or may not have run, so it is not repeated), every launched process it still watched is reported lost (its
// exit status is unknown), and the next command starts a new helper.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LaunchChannels } from './launch-channels.ts';

export interface CommandRequest {
  argv: readonly string[];
  stdin: string;
  /** The command's working directory (default: the helper's, the agent's at the helper's start). */
  cwd?: string;
}

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The command did not start (ENOENT: not installed). */
  spawnError?: { code?: string; message: string };
}

/** What a launched process's descriptor is: a connection to the agent, or /dev/null (none, above 2). */
export type LaunchStdio = 'channel' | 'ignore';

export interface LaunchRequest {
  argv: readonly string[];
  /** The process's whole environment. */
  env: Record<string, string | undefined>;
  /** Descriptors 0, 1, 2 and any after them. */
  stdio: readonly LaunchStdio[];
  /** Its working directory (default: the helper's, the agent's at the helper's start). */
  cwd?: string;
}

export interface LaunchedExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The helper ended while the process ran: its exit status is unknown (it may still run). */
  lost?: string;
}

/** A process the helper started: the leader of its own session, its stdio connected to the agent. */
export interface LaunchedProcess {
  pid: number;
  /** The agent's end of each 'channel' descriptor; null for 'ignore'. */
  stdio: (Socket | null)[];
  exited: Promise<LaunchedExit>;
}

/** The helper ended before it answered; whether the command ran is unknown. */
export class HelperExitedError extends Error {
  override readonly name = 'HelperExitedError' as const;
}

const HELPER_SCRIPT = fileURLToPath(new URL('./helper.mjs', import.meta.url));
const IDLE_MS = 10_000;
// What the agent reads of a dying helper's stderr, for the error.
const STDERR_TAIL = 2000;

/** One request's answers: true once it owes nothing more. */
interface Waiter {
  answer: (message: Record<string, unknown>) => boolean;
  fail: (error: HelperExitedError) => void;
}

/** The launch did not start; the error says why (a spawn error, or the helper's end). */
export class LaunchError extends Error {
  override readonly name = 'LaunchError' as const;
  constructor(
    message: string,
    /** The spawn error's code (ENOENT: the program does not exist), when the process did not start. */
    readonly spawnCode?: string,
  ) {
    super(message);
  }
}

/** One helper process and the commands it owes an answer. */
class HelperProcess {
  private readonly waiters = new Map<number, Waiter>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private stderrTail = '';
  private ended = false;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;

  constructor(
    env: Record<string, string>,
    private readonly idleMs: number,
    private readonly channels: LaunchChannels,
    private readonly onEnd: (helper: HelperProcess) => void,
  ) {
    this.child = spawn(process.execPath, [HELPER_SCRIPT], { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    // A helper that is gone makes this write fail (EPIPE); its exit says why.
    this.child.stdin.on('error', () => undefined);
    this.child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL)));
    createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on('line', (line) => this.answer(line));
    this.child.once('error', (error) => this.end(`the host command helper could not start: ${error.message}`));
    this.child.once('close', (code, signal) => this.end(`the host command helper exited with ${signal ?? code}${this.stderrTail.trim() ? `: ${this.stderrTail.trim()}` : ''}`));
    // Only the commands under way keep the agent alive (as their own processes would), not an idle helper.
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as Partial<{ unref(): void }>).unref?.();
  }

  run(request: CommandRequest): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      this.send(
        { argv: request.argv, stdin: request.stdin, ...(request.cwd === undefined ? {} : { cwd: request.cwd }) },
        {
          answer: (message) => {
            const { id: _id, ...outcome } = message;
            resolve(outcome as unknown as CommandResult);
            return true;
          },
          fail: reject,
        },
      );
    });
  }

  /** Resolves once the process runs and its channels are connected; rejects with LaunchError. */
  launch(request: LaunchRequest): Promise<LaunchedProcess> {
    const expected = request.stdio.map((kind) => (kind === 'channel' ? this.channels.expect() : undefined));
    const cancelChannels = () => expected.forEach((channel) => channel?.cancel());
    let reportExit!: (exit: LaunchedExit) => void;
    const exited = new Promise<LaunchedExit>((resolve) => (reportExit = resolve));
    const started = new Promise<number>((resolve, reject) => {
      let pid: number | undefined;
      this.send(
        {
          argv: request.argv,
          ...(request.cwd === undefined ? {} : { cwd: request.cwd }),
          launch: { socket: this.channels.path, stdio: expected.map((channel) => channel?.token ?? null), env: request.env },
        },
        {
          answer: (message) => {
            const spawnError = message.spawnError as { code?: string; message: string } | undefined;
            if (spawnError !== undefined) {
              // Rejected before the channels, so that the launch fails with this error.
              reject(new LaunchError(spawnError.message, spawnError.code));
              cancelChannels();
              return true;
            }
            if (typeof message.pid === 'number' && pid === undefined) {
              pid = message.pid;
              resolve(pid);
              return false;
            }
            reportExit({ code: message.code as number | null, signal: message.signal as NodeJS.Signals | null });
            return true;
          },
          fail: (error) => {
            if (pid === undefined) reject(new LaunchError(error.message));
            else reportExit({ code: null, signal: null, lost: error.message });
            cancelChannels();
          },
        },
      );
    });
    return Promise.all([started, Promise.all(expected.map((channel) => channel?.connection ?? Promise.resolve(null)))]).then(
      ([pid, stdio]) => ({ pid, stdio, exited }),
      (error: Error) => {
        // A channel that did connect belongs to nobody now.
        for (const channel of expected) void channel?.connection.then((socket) => socket.destroy(), () => undefined);
        throw error;
      },
    );
  }

  private send(request: Record<string, unknown>, waiter: Waiter): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const id = this.nextId++;
    this.waiters.set(id, waiter);
    if (this.waiters.size === 1) this.setBusy(true);
    this.child.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
  }

  private answer(line: string): void {
    let message: Record<string, unknown> & { id: number };
    try {
      message = JSON.parse(line) as Record<string, unknown> & { id: number };
    } catch {
      return; // not an answer; the commands it owes fail when it exits
    }
    const waiter = this.waiters.get(message.id);
    if (waiter === undefined || !waiter.answer(message)) return;
    this.waiters.delete(message.id);
    if (this.waiters.size === 0) {
      this.setBusy(false);
      this.idleTimer = setTimeout(() => this.retire(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** The helper (its exit and its answers) holds the agent's event loop open while commands are under way. */
  private setBusy(busy: boolean): void {
    const stdout = this.child.stdout as Partial<{ ref(): void; unref(): void }>;
    if (busy) {
      this.child.ref();
      stdout.ref?.();
    } else {
      this.child.unref();
      stdout.unref?.();
    }
  }

  /** Idle: end-of-file ends the helper, and the next command starts another. */
  private retire(): void {
    this.markEnded();
    this.child.stdin.end();
  }

  private markEnded(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd(this);
  }

  private end(message: string): void {
    this.markEnded();
    clearTimeout(this.idleTimer);
    const waiters = [...this.waiters.values()];
    this.waiters.clear();
    for (const waiter of waiters) waiter.fail(new HelperExitedError(message));
  }

  get isEnded(): boolean {
    return this.ended;
  }
}

/** Runs one-shot commands in a helper process, started when needed and ended when idle. */
export class CommandHelper {
  private current: HelperProcess | undefined;
  private readonly channels = new LaunchChannels();

  constructor(
    /** Every command's environment (the helper's own). */
    private readonly env: Record<string, string>,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** Resolves with the command's outcome, whatever its exit; rejects with HelperExitedError only. */
  run(request: CommandRequest): Promise<CommandResult> {
    return this.helper().run(request);
  }

  /**
   * Starts a process in its own session, its stdio connected to this process or to /dev/null, and reports its
   * exit; resolves once it runs. The helper's one-shot commands' environment does not apply: env is the whole of it.
   */
  launch(request: LaunchRequest): Promise<LaunchedProcess> {
    return this.helper().launch(request);
  }

  private helper(): HelperProcess {
    if (this.current === undefined || this.current.isEnded) {
      this.current = new HelperProcess(this.env, this.idleMs, this.channels, (ended) => {
        if (this.current === ended) this.current = undefined;
      });
    }
    return this.current;
  }
}
