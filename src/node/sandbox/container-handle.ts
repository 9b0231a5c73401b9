// A running (or finished) container: its pid, its exit, stop with a grace period, exec of further processes
// inside its namespaces and cgroup, and attach to its own output (and stdin, for a container that keeps one).
// The handle owns the run's output: it copies the FIFOs into the CRI log and, at exit, reads the OOM counter,
// kills leftovers and removes the run's cgroups and files.
import { EventEmitter, once } from 'node:events';
import { readlink } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { constants as osConstants } from 'node:os';
import { PassThrough, Writable, type Readable } from 'node:stream';
import type { ContainerCgroup } from './cgroup-tree.ts';
import type { ContainerView } from './container-view.ts';
import { CriLogWriter, type LogStream } from './cri-log.ts';
import { DEFAULT_PATH } from './environment.ts';
import { ContainerNotRunningError, ExecStartError, SandboxStartTimeoutError } from './errors.ts';
import type { HostTools } from './host-tools.ts';
import { OutputCopy } from './output-copy.ts';
import { readKernelFile } from './kernel-file.ts';
import { removeRunDir, type RunDir } from './run-dir.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { CONTAINER_SETUP, CONTAINER_STAGE0, JOIN_CGROUPS } from './scripts.ts';
import { SetupReport } from './setup-report.ts';
import { launchHostProcess, runHostCommand } from '../host-commands/host-command.ts';

/** containerd's exit code for a container whose process never started. */
const START_ERROR_EXIT_CODE = 128;
/** What a stdinOnce container may write before its first attach and still have it replayed there. */
const MAX_KEPT_FOR_FIRST_ATTACH = 1024 * 1024;

export interface ContainerExit {
  /** As kubelet reports it: 128 + the signal number when a signal ended the process. */
  exitCode: number;
  signal: NodeJS.Signals | null;
  reason: 'Completed' | 'Error' | 'OOMKilled' | 'StartError';
  message?: string;
  startedAt?: Date;
  finishedAt: Date;
  /** Cleanup after the exit failed (a process that would not die, an unremovable cgroup). */
  cleanupError?: Error;
}

export interface ExecResult {
  exitCode: number;
  signal: NodeJS.Signals | null;
}

export interface ExecProcess {
  pid: number | undefined;
  stdin: Writable | null;
  stdout: Readable;
  stderr: Readable;
  exited: Promise<ExecResult>;
  /**
   * With a terminal: sets its size (kubectl's resize messages); resolves once set, or at once while the
   * terminal does not exist yet (it gets the size when the command first writes).
   */
  resize?(columns: number, rows: number): Promise<void>;
}

export interface ExecOptions {
  stdin?: boolean;
  /** Runs the command on a pseudo-terminal (kubectl exec -t): its output, stderr included, comes on stdout. */
  tty?: boolean;
  /** With tty: the terminal's size from the start (kubectl's first resize), before the command can ask for it. */
  size?: TerminalSize;
}

export interface TerminalSize {
  columns: number;
  rows: number;
}

export interface AttachOptions {
  /** Writes reach the container's stdin, if it keeps one (kube's stdin: true); otherwise there is none. */
  stdin?: boolean;
  /** Resize messages reach the container's terminal, if it has one (kube's tty: true). */
  tty?: boolean;
}

export interface AttachedProcess extends ExecProcess {
  /** Ends this attach, leaving the container running; with stdinOnce the container's stdin closes. */
  detach(): void;
}

/** What exec needs to enter the container as its own process did. */
export interface ExecContext {
  tools: HostTools;
  cgroup: ContainerCgroup;
  view: ContainerView;
  /** nsenter's namespace options (-m -u -i -C, -p unless hostPID, -n with a pod network namespace). */
  namespaces: string[];
  workingDir: string;
  /** credentials.ts identityCommand: setpriv (and a user namespace) up to env. */
  identity: string[];
  env: Record<string, string>;
}

export interface LaunchRequest extends ExecContext {
  /** Arguments of CONTAINER_STAGE0. */
  stage0Args: string[];
  run: RunDir;
  logPath: string;
  /** How long the setup may take to start the command before it is killed and launch rejects. */
  startTimeoutMs: number;
  /** Keep the setup's stdin pipe as the container's stdin; once: the first attach that lets go closes it. */
  stdin?: { once: boolean };
  /** The command runs on a terminal (argv wrapped by onTerminal): attach may resize it. */
  tty?: boolean;
}

function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  return code ?? 128 + (signal ? osConstants.signals[signal] : 0);
}

/**
 * The container's final command: setpriv runs env -i so only the container's process sees its variables;
 * env searches the container's PATH, so argv[0] stays as the spec wrote it.
 */
export function finalCommand(tools: HostTools, identity: string[], env: Record<string, string>, argv: string[]): string[] {
  return [...identity, tools.env, '-i', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...argv];
}

// The helpers run with a fixed environment, whatever the container's.
const HELPER_ENV = { PATH: DEFAULT_PATH };
// bash sources ~/.bashrc when its stdin is a socket ("run by rshd"), as Node's stdio pipes are: no host rc
// file may run in a root helper.
const HELPER_BASH = ['--norc', '-c'];

const OUTPUT_STREAMS: LogStream[] = ['stdout', 'stderr'];

/** argv as one sh command line, each word single-quoted. */
function shellWords(argv: string[]): string {
  return argv.map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
}

/** argv on a pseudo-terminal: script(1) on the container's own devpts; -e passes the exit status on. */
export function onTerminal(tools: HostTools, argv: string[]): string[] {
  return [tools.script, '-q', '-e', '-c', shellWords(argv), '/dev/null'];
}

/** The first process under root whose stdin is a pseudo-terminal: the command script(1) started. */
async function terminalHolder(root: number): Promise<number | undefined> {
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    const stdin = await readlink(`/proc/${pid}/fd/0`).catch(() => '');
    if (stdin.startsWith('/dev/pts/')) return pid;
    const children = await readKernelFile(`/proc/${pid}/task/${pid}/children`).catch(() => '');
    queue.push(...children.split(' ').filter((word) => word !== '').map(Number));
  }
  return undefined;
}

/**
 * Sets the terminal's size with stty on the holder's stdin, opened through /proc from the host, which makes the
 * kernel send SIGWINCH to the terminal's foreground group. A size given before the terminal exists is applied
 * when the command first writes (by then script has made it). One stty at a time, each taking the newest size,
 * so the last size sent is the one that stays (kubectl attach sends size+1, then the size, to force a redraw).
 */
export function terminalResizer(tools: Pick<HostTools, 'stty'>, root: number, output: Readable): (columns: number, rows: number) => Promise<void> {
  let wanted: { columns: number; rows: number } | undefined;
  let applying: Promise<void> = Promise.resolve();
  const applyNow = async () => {
    const size = wanted;
    const holder = await terminalHolder(root);
    if (size === undefined || holder === undefined) return;
    // Best effort: the command may be gone already.
    await runHostCommand([tools.stty, '-F', `/proc/${holder}/fd/0`, 'rows', String(size.rows), 'cols', String(size.columns)]).catch(() => undefined);
  };
  const apply = (): Promise<void> => {
    applying = applying.then(applyNow).catch(() => undefined);
    return applying;
  };
  output.once('data', () => void apply());
  return (columns, rows) => {
    if (!Number.isInteger(columns) || !Number.isInteger(rows) || columns <= 0 || rows <= 0 || columns > 0xffff || rows > 0xffff) return Promise.resolve();
    wanted = { columns, rows };
    return apply();
  };
}

function killProcessGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

export class ContainerHandle {
  /** The container's main process on the host (pid 1 in its PID namespace); undefined if it never started. */
  pid: number | undefined;
  private running = true;
  private exit!: Promise<ContainerExit>;
  /** The live output as it goes to the log ('stdout', 'stderr'), and 'done' once all of it has. */
  private readonly output = new EventEmitter();
  /** The container's stdin (kube's stdin: true): the setup's pipe, kept open after the go-ahead. */
  private stdin: Writable | undefined;
  private stdinOnce = false;
  /**
   * A container made for one attacher (stdin with stdinOnce, as `kubectl run -i` makes it): what it writes
   * before that first attach, kept for it, up to a cap. Kubelet's attach shows only what comes after it, so a
   * quick command's output is lost whenever kubectl attaches a moment after the start; here it is not.
   */
  private beforeFirstAttach: { stream: 'stdout' | 'stderr'; chunk: Buffer }[] | undefined;
  private beforeFirstAttachBytes = 0;
  private tty = false;

  private constructor(private readonly context: ExecContext | undefined) {}

  /** A container whose command cannot be started (kubelet's StartError); nothing was spawned. */
  static startError(message: string): ContainerHandle {
    const handle = new ContainerHandle(undefined);
    handle.running = false;
    handle.exit = Promise.resolve({ exitCode: START_ERROR_EXIT_CODE, signal: null, reason: 'StartError', message, finishedAt: new Date() });
    return handle;
  }

  /**
   * Spawns the container and resolves once its command runs or its setup failed; rejects with
   * SandboxStartTimeoutError when the setup did not get that far within startTimeoutMs.
   */
  static async launch(request: LaunchRequest): Promise<ContainerHandle> {
    const handle = new ContainerHandle(request);
    await handle.run(request);
    return handle;
  }

  get exited(): Promise<ContainerExit> {
    return this.exit;
  }

  /** Whether the run's main process still lives (false from its exit on, while the handle cleans up). */
  get isRunning(): boolean {
    return this.running && this.pid !== undefined;
  }

  /**
   * The main PID once it runs the container's own command. The setup reports "exec" just before its last
   * steps (exec setpriv, exec env, exec the command: the same PID throughout), so for a moment after the
   * start the process may still be one of those; /proc offers no event for an exec, so this re-reads its
   * command line with exponential backoff (1 ms doubling to 50 ms, for at most 2 s). Undefined once it exited.
   */
  async commandPid(): Promise<number | undefined> {
    const context = this.context;
    const pid = this.pid;
    if (context === undefined || pid === undefined) return undefined;
    const envWords = Object.entries(context.env).map(([k, v]) => `${k}=${v}`);
    const inSandboxChain = (words: string[]) =>
      (words[0] === context.tools.sh && words[1] === '-c' && words[2] === CONTAINER_SETUP) ||
      context.identity.some((word, start) => word === words[0] && context.identity.slice(start).every((w, i) => words[i] === w)) ||
      (words[0] === context.tools.env && words[1] === '-i' && envWords.every((word, i) => words[i + 2] === word));
    const deadline = Date.now() + 2000;
    for (let delayMs = 1; this.running; delayMs = Math.min(50, delayMs * 2)) {
      const words = (await readKernelFile(`/proc/${pid}/cmdline`).catch(() => '')).split('\0');
      if (!inSandboxChain(words) || Date.now() > deadline) return this.running ? pid : undefined;
      await sleep(delayMs);
    }
    return undefined;
  }

  /** The run's cgroups (one directory per hierarchy); undefined for a run that never started. */
  get cgroup(): ContainerCgroup | undefined {
    return this.context?.cgroup;
  }

  private run(request: LaunchRequest): Promise<void> {
    this.tty = request.tty === true;
    const log = new CriLogWriter(request.logPath);
    const outputs: OutputCopy[] = [];
    let startedAt: Date | undefined;
    let outputError: string | undefined;
    let timedOut = false;
    let reported!: () => void;
    const setup = new Promise<void>((resolve) => (reported = resolve));
    // The setup's stdin carries the go-ahead, its stderr the setup's report: connections to this process, since
    // the command helper starts it (a fork from this event loop would stop the loop for milliseconds).
    const launched = launchHostProcess({
      argv: [request.tools.bash, ...HELPER_BASH, CONTAINER_STAGE0, 'bosun-sandbox', ...request.stage0Args],
      env: HELPER_ENV,
      stdio: ['channel', 'ignore', 'channel'],
    });
    let stdin: Socket | undefined;
    let reportChannel: Socket | undefined;
    let reportClosed: Promise<unknown> = Promise.resolve();
    const report = new SetupReport({
      pid: (pid) => {
        this.pid = pid;
        if (stdin === undefined) return;
        try {
          for (const stream of OUTPUT_STREAMS) {
            outputs.push(
              new OutputCopy(stream, stream === 'stdout' ? request.run.stdoutFifo : request.run.stderrFifo, log, (chunk) => {
                this.keepForFirstAttach(stream, chunk);
                this.output.emit(stream, chunk);
              }),
            );
          }
          if (request.stdin) {
            // The channel stays open: after the go-ahead it is the container's stdin.
            stdin.write('\n');
            this.stdin = stdin;
            this.stdinOnce = request.stdin.once;
            if (this.stdinOnce) this.beforeFirstAttach = [];
          } else stdin.end('\n');
        } catch (error) {
          // Without its output the container must not run: end-of-file instead of the go-ahead stops the setup.
          outputError = `cannot read the container's output: ${(error as Error).message}`;
          stdin.end();
        }
      },
      exec: () => {
        startedAt = new Date();
        reported();
      },
    });
    // A setup step that blocks (a mount, a namespace file that is a FIFO) must not block start for ever. The
    // setup leads its own process group, which holds the setup's steps and, through the waiter, the setup.
    let leader: number | undefined;
    const startTimer = setTimeout(() => {
      timedOut = true;
      if (leader !== undefined) killProcessGroup(leader);
    }, request.startTimeoutMs);
    void setup.then(() => clearTimeout(startTimer));
    const exited = launched.then(
      async (child): Promise<[number | null, NodeJS.Signals | null, string?]> => {
        leader = child.pid;
        if (timedOut) killProcessGroup(child.pid);
        [stdin, , reportChannel] = child.stdio as [Socket, null, Socket];
        // A setup that died before reading its go-ahead makes this write fail (EPIPE); its exit says why.
        stdin.on('error', () => undefined);
        reportChannel.setEncoding('utf8');
        reportChannel.on('data', (chunk: string) => report.write(chunk));
        reportClosed = once(reportChannel, 'close');
        const exit = await child.exited;
        return exit.lost === undefined ? [exit.code, exit.signal] : [null, null, `the node agent lost the sandbox's exit status: ${exit.lost}`];
      },
      (error: Error): [null, null, string] => [null, null, error.message],
    );
    this.exit = exited.then(async ([code, signal, lostOrFailed]) => {
      this.running = false;
      const finishedAt = new Date();
      let oomKills = 0;
      let cleanupError: Error | undefined;
      try {
        oomKills = await request.cgroup.oomKills();
        // Leftovers (a hostPID container's daemons, the setup of a killed waiter, a container whose exit was
        // lost) would hold the setup channel and the FIFOs open: kill them first.
        await request.cgroup.destroy();
      } catch (error) {
        cleanupError = error as Error;
        // A survivor may hold the setup channel open for ever.
        reportChannel?.destroy();
      }
      stdin?.destroy();
      await reportClosed.catch(() => undefined);
      report.end();
      reported();
      // Every copy exists by now (the pid line came before the channel closed), and nothing in the container
      // writes any more: what is in the FIFOs is all there is.
      await Promise.all(outputs.map((output) => output.finish()));
      this.beforeFirstAttach = undefined;
      this.output.emit('done');
      await log.close().catch((error: Error) => (cleanupError ??= error));
      await removeRunDir(request.run).catch((error: Error) => (cleanupError ??= error));
      const cleanup = cleanupError ? { cleanupError } : {};
      if (startedAt === undefined) {
        const message = lostOrFailed ?? outputError ?? (report.message || `the sandbox setup failed with exit code ${exitCodeOf(code, signal)}`);
        return { exitCode: START_ERROR_EXIT_CODE, signal: null, reason: 'StartError', message, finishedAt, ...cleanup };
      }
      const exitCode = exitCodeOf(code, signal);
      const reason = oomKills > 0 ? 'OOMKilled' : exitCode === 0 ? 'Completed' : 'Error';
      return { exitCode, signal, reason, startedAt, finishedAt, ...(lostOrFailed === undefined ? {} : { message: lostOrFailed }), ...cleanup };
    });
    return setup.then(async () => {
      // The timer fires only before the setup reported (reporting clears it first), so it killed the setup.
      if (!timedOut) return;
      // The kill ends the waiter, whose exit cleans up; start reports the failure once nothing is left.
      await this.exit;
      const said = report.message === '' ? '' : `; it said: ${report.message}`;
      throw new SandboxStartTimeoutError(`the sandbox setup did not start the command within ${request.startTimeoutMs} ms${said}`);
    });
  }

  private signal(signal: NodeJS.Signals): void {
    if (!this.running || this.pid === undefined) return;
    try {
      process.kill(this.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }

  /**
   * SIGTERM, then SIGKILL once graceMs have passed. As in a pod, a pid 1 without a SIGTERM handler ignores
   * SIGTERM, so such a container always takes the whole grace period.
   */
  async stop(graceMs: number): Promise<ContainerExit> {
    this.signal('SIGTERM');
    const timer = setTimeout(() => this.signal('SIGKILL'), graceMs);
    try {
      return await this.exit;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs argv in the container's namespaces and cgroup, as its user (exec probes, kubectl exec). */
  async exec(argv: string[], options: ExecOptions = {}): Promise<ExecProcess> {
    const context = this.context;
    if (!this.running || this.pid === undefined || context === undefined) throw new ContainerNotRunningError('the container is not running');
    const [command] = argv;
    if (command === undefined) throw new ExecStartError('exec: no command given');
    if (command.includes('=')) throw new ExecStartError(`exec: "${command}": a command name containing "=" cannot be run`);
    await context.view.lookPath(command, context.env.PATH ?? DEFAULT_PATH, context.workingDir);
    const { tools } = context;
    const run = options.tty ? onTerminal(tools, argv) : argv;
    const nsenter = [tools.nsenter, '-t', String(this.pid), ...context.namespaces, `--wdns=${context.workingDir}`, '--', ...finalCommand(tools, context.identity, context.env, run)];
    const child = await launchHostProcess({
      argv: [tools.bash, ...HELPER_BASH, JOIN_CGROUPS, 'bosun-exec', ...context.cgroup.procsFiles, '--', ...nsenter],
      env: HELPER_ENV,
      // Without stdin the process reads end-of-file at once, as with kubectl exec without -i.
      stdio: [options.stdin ? 'channel' : 'ignore', 'channel', 'channel'],
    }).catch((error: Error) => {
      throw new ExecStartError(`exec: ${error.message}`);
    });
    const [stdin, stdout, stderr] = child.stdio as [Socket | null, Socket, Socket];
    const exited = child.exited.then(({ code, signal }) => ({ exitCode: exitCodeOf(code, signal), signal }));
    const started: ExecProcess = { pid: child.pid, stdin, stdout, stderr, exited };
    if (options.tty) started.resize = terminalResizer(tools, child.pid, stdout);
    return started;
  }

  private keepForFirstAttach(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (!this.beforeFirstAttach) return;
    if (this.beforeFirstAttachBytes + chunk.length > MAX_KEPT_FOR_FIRST_ATTACH) {
      this.beforeFirstAttach = undefined; // more than an attacher could have missed by a moment: the log has it
      return;
    }
    this.beforeFirstAttach.push({ stream, chunk });
    this.beforeFirstAttachBytes += chunk.length;
  }

  /**
   * Follows the container's live output (not the log: what it writes from now on; a stdinOnce container's first
   * attach also gets what it wrote before) until it exits or detach() is called, with its stdin when it keeps one and the caller asks. As kubelet's attach, the end is always a
   * success: exited resolves with exit code 0 whether the container ended or the client let go.
   */
  attach(options: AttachOptions = {}): AttachedProcess {
    const context = this.context;
    if (!this.running || this.pid === undefined || context === undefined) throw new ContainerNotRunningError('the container is not running');
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const toStdout = (chunk: Buffer) => stdout.write(chunk);
    const toStderr = (chunk: Buffer) => stderr.write(chunk);
    let ended!: () => void;
    const exited = new Promise<ExecResult>((resolve) => (ended = () => resolve({ exitCode: 0, signal: null })));
    const pipe = options.stdin ? this.stdin : undefined;
    const releaseStdin = () => {
      // stdinOnce: the first attach that had stdin closes it when it lets go.
      if (pipe && this.stdinOnce) pipe.end();
    };
    let attached = true;
    const finish = () => {
      if (!attached) return;
      attached = false;
      this.output.off('stdout', toStdout).off('stderr', toStderr).off('done', finish);
      stdout.end();
      stderr.end();
      ended();
    };
    // What the container wrote before its one attacher came, then (in the same turn: nothing lost or doubled)
    // the live output.
    for (const { stream, chunk } of this.beforeFirstAttach ?? []) (stream === 'stdout' ? stdout : stderr).write(chunk);
    this.beforeFirstAttach = undefined;
    this.output.on('stdout', toStdout).on('stderr', toStderr).once('done', finish);
    const stdin = pipe
      ? new Writable({
          write: (chunk: Buffer, _encoding, callback) => {
            if (!attached || !pipe.writable) return callback();
            pipe.write(chunk, () => callback());
          },
          final: (callback) => {
            releaseStdin();
            callback();
          },
        })
      : null;
    const process: AttachedProcess = {
      pid: this.pid,
      stdin,
      stdout,
      stderr,
      exited,
      detach: () => {
        if (attached) releaseStdin();
        finish();
      },
    };
    if (options.tty && this.tty) process.resize = terminalResizer(context.tools, this.pid, stdout);
    return process;
  }
}
