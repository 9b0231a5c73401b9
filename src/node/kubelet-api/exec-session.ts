// One `kubectl exec` or `kubectl attach` over a WebSocket with the Kubernetes channel protocol
// (v4/v5.channel.k8s.io): every binary message starts with its channel (0 stdin, 1 stdout, 2 stderr, 3 error,
// 4 resize: `{"Width":W,"Height":H}` for a terminal); the error channel carries a metav1.Status when the
// process ends (or, for attach, when the container ends), and v5 adds the close signal (255, channel) with
// which the client half-closes stdin.
import type { Readable } from 'node:stream';
import type { WebSocket } from 'ws';
import type { ExecProcess, ExecResult, TerminalSize } from '../sandbox/container-handle.ts';
import type { RunningContainer } from '../agent/container-runtime.ts';
import type { ExecOptions, StreamOptions } from './exec-options.ts';

export const CHANNEL_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;
const RESIZE = 4;
const CLOSE_SIGNAL = 255;

function status(body: Record<string, unknown>): Buffer {
  return Buffer.from(JSON.stringify({ metadata: {}, ...body }));
}

/** kubelet's answers on the error channel: Success, or a non-zero exit with its code as the cause. */
export function exitStatus(exitCode: number): Buffer {
  if (exitCode === 0) return status({ status: 'Success' });
  return status({
    status: 'Failure',
    message: `command terminated with non-zero exit code: exit status ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  });
}

function failureStatus(message: string): Buffer {
  return status({ status: 'Failure', message, reason: 'InternalError', code: 500 });
}

/** How much unsent output a session holds before it stops reading the process (which then blocks writing). */
const MAX_BUFFERED_BYTES = 1024 * 1024;

function send(socket: WebSocket, channel: number, data: Buffer, sent?: () => void): void {
  if (socket.readyState === socket.OPEN) socket.send(Buffer.concat([Buffer.of(channel), data]), { binary: true }, sent);
}

/** Sends a stream's output on its channel until it closes; a stream the client did not ask for is drained. */
function forward(stream: Readable, socket: WebSocket, channel: number | undefined): Promise<void> {
  return new Promise((resolve) => {
    const resume = () => {
      if (stream.isPaused() && socket.bufferedAmount < MAX_BUFFERED_BYTES) stream.resume();
    };
    stream.on('data', (chunk: Buffer) => {
      if (channel === undefined) return;
      send(socket, channel, chunk, resume);
      if (socket.bufferedAmount >= MAX_BUFFERED_BYTES) stream.pause();
    });
    stream.once('close', resolve);
    stream.once('error', () => resolve());
  });
}

/** A resize message's size; undefined for a malformed one, which changes nothing, as in kubelet. */
function terminalSize(message: Buffer): TerminalSize | undefined {
  let size: { Width?: unknown; Height?: unknown };
  try {
    size = JSON.parse(message.toString('utf8')) as typeof size;
  } catch {
    return undefined;
  }
  return typeof size.Width === 'number' && typeof size.Height === 'number' ? { columns: size.Width, rows: size.Height } : undefined;
}

async function resize(exec: ExecProcess, message: Buffer): Promise<void> {
  const size = terminalSize(message);
  if (size !== undefined) await exec.resize?.(size.columns, size.rows);
}

/** How long a terminal session waits for kubectl's first size (it sends it as soon as its streams are up). */
const FIRST_SIZE_WAIT_MS = 2_000;

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** What a session runs: exec's new process, or attach's view of the container's own. */
interface SessionProcess {
  process: ExecProcess;
  /** The client went away before the process ended. */
  abandon(): void;
  /** The error channel's last word. */
  endStatus(result: ExecResult): Buffer;
}

export function runExecSession(socket: WebSocket, handle: RunningContainer, options: ExecOptions): Promise<void> {
  return runChannelSession(socket, options, async (size) => {
    const exec = await handle.exec(options.command, { stdin: options.stdin, tty: options.tty, ...(size ? { size } : {}) });
    return { process: exec, abandon: () => killGroup(exec.pid), endStatus: (result) => exitStatus(result.exitCode) };
  }, true);
}

/** kubelet's attach: Success when it ends, whether the container exited or the client let go. */
export function runAttachSession(socket: WebSocket, handle: RunningContainer, options: StreamOptions): Promise<void> {
  return runChannelSession(socket, options, () => {
    const attached = handle.attach({ stdin: options.stdin, tty: options.tty });
    return Promise.resolve({ process: attached, abandon: () => attached.detach(), endStatus: () => status({ status: 'Success' }) });
  });
}

/** start's size: with a terminal and waitForSize, kubectl's first (an attached container's terminal exists already). */
async function runChannelSession(socket: WebSocket, options: StreamOptions, start: (size: TerminalSize | undefined) => Promise<SessionProcess>, waitForSize = false): Promise<void> {
  const closeSignal = socket.protocol === 'v5.channel.k8s.io';
  // The client waits for a first message on the lowest channel it reads before it starts its streams.
  send(socket, options.stdout ? STDOUT : options.stderr ? STDERR : ERROR, Buffer.alloc(0));
  // Input may arrive while the process starts: it is held until there is a stdin to give it to.
  const early: Buffer[] = [];
  // A terminal gets kubectl's size before its command starts: a command that asks at once sees it.
  let sized: (size: TerminalSize | undefined) => void = () => undefined;
  const waiting = options.tty === true && waitForSize;
  const firstSize = waiting ? new Promise<TerminalSize | undefined>((resolve) => (sized = resolve)) : Promise.resolve(undefined);
  const timer = waiting ? setTimeout(() => sized(undefined), FIRST_SIZE_WAIT_MS) : undefined;
  let deliver = (data: Buffer) => {
    early.push(data);
    if (data[0] === RESIZE) sized(terminalSize(data.subarray(1)));
  };
  socket.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary && data.length > 0) deliver(data);
  });
  socket.once('close', () => sized(undefined));
  let started: SessionProcess;
  try {
    const size = await firstSize;
    clearTimeout(timer);
    started = await start(size);
  } catch (error) {
    send(socket, ERROR, failureStatus((error as Error).message));
    socket.close(1000);
    return;
  }
  const exec = started.process;
  const stdin = exec.stdin;
  stdin?.on('error', () => undefined);
  // Input after a resize waits until the terminal has its new size, as after a terminal's own (synchronous)
  // resize: a command typed after the window changed sees the new size.
  let pending: Promise<void> = Promise.resolve();
  const inOrder = (step: () => unknown) => {
    pending = pending.then(step).then(
      () => undefined,
      () => undefined,
    );
  };
  deliver = (data) => {
    const channel = data[0];
    if (channel === STDIN) inOrder(() => stdin?.write(data.subarray(1)));
    else if (channel === RESIZE) inOrder(() => resize(exec, data.subarray(1)));
    else if (channel === CLOSE_SIGNAL && closeSignal && data[1] === STDIN) inOrder(() => stdin?.end());
  };
  for (const data of early.splice(0)) deliver(data);
  let finished = false;
  // The client went away (maybe while the process started): nothing reads the process any more.
  const abandon = () => {
    stdin?.destroy();
    // A paused output would never end.
    exec.stdout.destroy();
    exec.stderr.destroy();
    if (!finished) started.abandon();
  };
  if (socket.readyState !== socket.OPEN) abandon();
  else socket.once('close', abandon);
  const [result] = await Promise.all([exec.exited, forward(exec.stdout, socket, options.stdout ? STDOUT : undefined), forward(exec.stderr, socket, options.stderr ? STDERR : undefined)]);
  // Its process group is gone: a later kill could hit a reused id.
  finished = true;
  send(socket, ERROR, started.endStatus(result));
  socket.close(1000);
}
