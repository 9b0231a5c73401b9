// Containers from OCI runtime specs, run by runc under conmon. Each container's bundle and record live in
// <state>/containers/<id>; conmon keeps it running, logging and reporting its exit without the agent, so an agent
// that restarts lists what is there and adopts it (same pid, log continued) instead of starting it again.
import { createHash, randomUUID } from 'node:crypto';
import { access, constants, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExecOptions, ExecProcess, TerminalSize } from '../sandbox/container-handle.ts';
import { createUnderConmon } from './conmon.ts';
import { OciRuntimeError, OciRuntimeUnavailableError } from './errors.ts';
import { ExitWatcher } from './exit-watcher.ts';
import type { OciSpec } from './runtime-spec.ts';
import { tracePodStart } from '../pod-start-trace.ts';
import { HostCommandError, launchHostProcess, runHostCommand } from '../host-commands/host-command.ts';

/** What the agent records about a container, to find it again after a restart. */
export interface ContainerRecord {
  podUid: string;
  containerName: string;
  attempt: number;
  logPath: string;
  /** The image's StopSignal (default SIGTERM). */
  stopSignal?: string;
  /** What the container's user (the agent) needs to clean up after it: the image it holds, its mounted root file system and scratch directory. */
  image?: { imageID: string; rootfs: string; scratchDir: string };
  createdAt: string;
  startedAt?: string;
}

export interface OciExit {
  exitCode: number;
  reason: 'Completed' | 'Error' | 'OOMKilled';
  startedAt?: Date;
  finishedAt: Date;
}

export interface OciRuntimeOptions {
  stateDir: string;
  runc?: string;
  conmon?: string;
  /** How long a create may take before it is abandoned (default 30 s). */
  createTimeoutMs?: number;
}

/** A container id runc and conmon accept, short enough for conmon's attach socket path. */
export function containerId(podUid: string, containerName: string, attempt: number): string {
  return createHash('sha256').update(`${podUid}/${containerName}/${attempt}`).digest('hex').slice(0, 32);
}

async function findProgram(name: string, debianPackage: string): Promise<string> {
  for (const dir of (process.env['PATH'] ?? '/usr/sbin:/usr/bin:/sbin:/bin').split(':')) {
    const path = join(dir, name);
    try {
      await access(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  throw new OciRuntimeUnavailableError(`${name} is not installed: running images needs it (Debian: apt-get install ${debianPackage})`);
}

export class OciRuntime {
  private constructor(
    private readonly runcBinary: string,
    private readonly conmonBinary: string,
    private readonly dirs: { containers: string; exits: string; runcRoot: string; sockets: string },
    private readonly exits: ExitWatcher,
    private readonly createTimeoutMs: number,
  ) {}

  /** Checks that runc and conmon are there and makes the state directories. */
  static async open(options: OciRuntimeOptions): Promise<OciRuntime> {
    const [runc, conmon] = await Promise.all([options.runc ?? findProgram('runc', 'runc'), options.conmon ?? findProgram('conmon', 'conmon')]);
    const dirs = {
      containers: join(options.stateDir, 'containers'),
      exits: join(options.stateDir, 'exits'),
      runcRoot: join(options.stateDir, 'runc'),
      sockets: join(options.stateDir, 'sockets'),
    };
    await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true, mode: 0o700 })));
    return new OciRuntime(runc, conmon, dirs, new ExitWatcher(dirs.exits), options.createTimeoutMs ?? 30_000);
  }

  /** Creates and starts a container; resolves once its process runs. */
  async start(spec: OciSpec, record: Omit<ContainerRecord, 'createdAt' | 'startedAt'>, options: { stdin?: boolean } = {}): Promise<OciContainer> {
    const id = containerId(record.podUid, record.containerName, record.attempt);
    const bundle = join(this.dirs.containers, id);
    // A leftover of an earlier try of this attempt; looked for first, as `runc delete` costs a process start.
    if (await this.hasLeftover(id)) await this.remove(id);
    await mkdir(join(bundle, 'persist'), { recursive: true, mode: 0o700 });
    const full: ContainerRecord = { ...record, createdAt: new Date().toISOString() };
    await Promise.all([writeFile(join(bundle, 'config.json'), JSON.stringify(spec)), writeFile(join(bundle, 'record.json'), JSON.stringify(full))]);
    tracePodStart(record.podUid, 'bundle');
    const terminal = spec.process['terminal'] === true;
    let pid: number;
    try {
      pid = await createUnderConmon({
        conmon: this.conmonBinary,
        runc: this.runcBinary,
        runcRoot: this.dirs.runcRoot,
        id,
        bundle,
        logPath: record.logPath,
        exitDir: this.dirs.exits,
        persistDir: join(bundle, 'persist'),
        socketDir: this.dirs.sockets,
        pidFile: join(bundle, 'container.pid'),
        conmonPidFile: join(bundle, 'conmon.pid'),
        stdin: options.stdin === true,
        terminal,
        timeoutMs: this.createTimeoutMs,
      });
    } catch (error) {
      await this.remove(id);
      throw error;
    }
    tracePodStart(record.podUid, 'runc-create');
    await this.runc(['start', id]);
    tracePodStart(record.podUid, 'runc-start');
    full.startedAt = new Date().toISOString();
    await writeFile(join(bundle, 'record.json'), JSON.stringify(full));
    tracePodStart(record.podUid, 'record');
    return new OciContainer(this, id, full, pid);
  }

  /** Every container this runtime holds, running or exited: what an agent adopts after a restart. */
  async list(): Promise<OciContainer[]> {
    const ids = await readdir(this.dirs.containers).catch(() => [] as string[]);
    const found = await Promise.all(
      ids.map(async (id) => {
        try {
          const record = JSON.parse(await readFile(join(this.dirs.containers, id, 'record.json'), 'utf8')) as ContainerRecord;
          const pid = Number.parseInt(await readFile(join(this.dirs.containers, id, 'container.pid'), 'utf8'), 10);
          return new OciContainer(this, id, record, pid);
        } catch {
          await this.remove(id); // never got as far as a process: nothing to adopt
          return undefined;
        }
      }),
    );
    return found.filter((c): c is OciContainer => c !== undefined);
  }

  /** Kills (if needed) and deletes a container and its files. */
  async remove(id: string): Promise<void> {
    await this.runc(['delete', '--force', id]).catch((error: unknown) => {
      if (!/does not exist|not exist/.test(String((error as Error).message))) throw error;
    });
    await Promise.all([rm(join(this.dirs.containers, id), { recursive: true, force: true }), rm(join(this.dirs.exits, id), { force: true })]);
  }

  /** Whether anything of the container is there: its bundle directory or runc's state of it. */
  private async hasLeftover(id: string): Promise<boolean> {
    const found = await Promise.all([join(this.dirs.containers, id), join(this.dirs.runcRoot, id), join(this.dirs.exits, id)].map((path) => stat(path).then(() => true, () => false)));
    return found.includes(true);
  }

  /** @internal */
  async runc(args: string[]): Promise<string> {
    try {
      return await runHostCommand([this.runcBinary, `--root=${this.dirs.runcRoot}`, ...args]);
    } catch (error) {
      const stderr = error instanceof HostCommandError ? error.stderr.trim() : '';
      throw new OciRuntimeError(`runc ${args[0] ?? ''} failed: ${stderr || (error as Error).message}`);
    }
  }

  /** @internal */
  waitExit(id: string) {
    return this.exits.wait(id);
  }

  /** @internal */
  execArgs(id: string, argv: string[], options: ExecOptions, processFile?: string): string[] {
    if (processFile !== undefined) return [`--root=${this.dirs.runcRoot}`, 'exec', '--process', processFile, id];
    return [`--root=${this.dirs.runcRoot}`, 'exec', ...(options.tty === true ? ['--tty'] : []), id, ...argv];
  }

  /**
   * A terminal exec's process, as `runc exec --tty` makes it from the container's (its user, environment,
   * capabilities), plus the terminal's size: runc sizes the terminal before the command starts only from the
   * process's consoleSize; the size it copies from its own terminal comes after the start, so a command that asks
   * at once would see 0x0.
   */
  async writeExecProcess(id: string, argv: string[], size: TerminalSize): Promise<string> {
    const bundle = join(this.dirs.containers, id);
    const spec = JSON.parse(await readFile(join(bundle, 'config.json'), 'utf8')) as OciSpec;
    const process_ = { ...spec.process, args: argv, terminal: true, consoleSize: { height: Math.trunc(size.rows), width: Math.trunc(size.columns) } };
    const file = join(bundle, `exec-${randomUUID()}.json`);
    await writeFile(file, JSON.stringify(process_), { mode: 0o600 });
    return file;
  }

  /** @internal */
  get runcPath(): string {
    return this.runcBinary;
  }

  /** @internal */
  persistDir(id: string): string {
    return join(this.dirs.containers, id, 'persist');
  }

  close(): void {
    this.exits.close();
  }
}

export class OciContainer {
  readonly exited: Promise<OciExit>;
  private running = true;

  constructor(
    private readonly runtime: OciRuntime,
    readonly id: string,
    readonly record: ContainerRecord,
    /** The container's main process on the host. */
    readonly pid: number,
  ) {
    this.exited = runtime.waitExit(id).then(async ({ exitCode, finishedAt }) => {
      this.running = false;
      // conmon writes "oom" into the persist dir when the container's cgroup saw an OOM kill.
      const oom = await stat(join(runtime.persistDir(id), 'oom')).then(
        () => true,
        () => false,
      );
      const reason = oom ? 'OOMKilled' : exitCode === 0 ? 'Completed' : 'Error';
      return { exitCode, reason, finishedAt, ...(record.startedAt ? { startedAt: new Date(record.startedAt) } : {}) };
    });
  }

  get isRunning(): boolean {
    return this.running;
  }

  async signal(signal: string): Promise<void> {
    if (!this.running) return;
    await this.runtime.runc(['kill', this.id, signal]).catch((error: unknown) => {
      // Exited between the check and the kill: nothing left to signal.
      if (this.running && !/not running|container not running|process already finished/.test(String((error as Error).message))) throw error;
    });
  }

  /** The image's StopSignal (or SIGTERM), then SIGKILL to every process after the grace period, as kubelet. */
  async stop(graceMs: number): Promise<OciExit> {
    await this.signal(this.record.stopSignal ?? 'SIGTERM');
    const ended = await Promise.race([this.exited.then(() => true), sleep(graceMs).then(() => false)]);
    if (!ended) {
      await this.runtime.runc(['kill', '--all', this.id, 'SIGKILL']).catch((error: unknown) => {
        if (this.running) throw error;
      });
    }
    return this.exited;
  }

  /** A process in the container (exec probes, kubectl exec), as runc exec runs it. */
  async exec(argv: string[], options: ExecOptions = {}): Promise<ExecProcess> {
    if (!this.running) throw new OciRuntimeError(`container ${this.record.containerName} is not running`);
    const processFile = options.tty === true && options.size ? await this.runtime.writeExecProcess(this.id, argv, options.size) : undefined;
    const args = this.runtime.execArgs(this.id, argv, options, processFile);
    // runc wants a terminal on its own stdin for --tty: script(1) gives it one and copies it to our pipes. runc
    // copies its own terminal's size to the container's after the start (and at SIGWINCH), so that one is sized too.
    const runc = [this.runtime.runcPath, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
    const sized = options.size ? `stty rows ${Math.trunc(options.size.rows)} cols ${Math.trunc(options.size.columns)}; exec ${runc}` : runc;
    // Started by the command helper, off the agent's event loop (host-commands/command-helper.ts says why).
    const child = await launchHostProcess({
      argv: options.tty === true ? ['script', '-qfec', sized, '/dev/null'] : [this.runtime.runcPath, ...args],
      env: process.env,
      stdio: [options.tty === true || options.stdin === true ? 'channel' : 'ignore', 'channel', 'channel'],
    }).catch((error: Error) => {
      throw new OciRuntimeError(`runc exec did not start: ${error.message}`);
    });
    const [stdin, stdout, stderr] = child.stdio;
    if (stdout == null || stderr == null) throw new OciRuntimeError('runc exec started without output channels');
    const exited = child.exited.then(({ code, signal }) => {
      if (processFile !== undefined) void rm(processFile, { force: true }).catch(() => undefined);
      return { exitCode: code ?? 128, signal };
    });
    return { pid: child.pid, stdin: stdin ?? null, stdout, stderr, exited };
  }

  /** Removes the exited container's runc state and files. */
  remove(): Promise<void> {
    return this.runtime.remove(this.id);
  }
}
