// The agent's ends of a launched process's stdio. The helper starts the process (a fork from the agent's own
// event loop is what it exists to avoid), so the process's stdin and report channel cannot be pipes the agent
// made: instead the helper connects once per descriptor to a Unix socket the agent listens on, writes that
// descriptor's one-time token, and hands the connection to the process. The socket lives in a directory only
// its owner may enter (mkdtemp makes it 0700), and a connection without a token the agent is waiting for is
// closed at once.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** 32 hex digits, then a newline. */
const TOKEN_LENGTH = 32;

/** `bosun-launch-<pid>-XXXXXX`: the pid of the process whose socket it holds. */
const DIR_PREFIX = 'bosun-launch-';

/**
 * The directory goes when its process exits, but not when it is killed (SIGKILL, a crash): the next agent removes
 * the directories of processes that are gone.
 */
function removeStaleDirs(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of names) {
    const pid = /^bosun-launch-(\d+)-[^/]+$/.exec(name)?.[1];
    if (pid === undefined || isRunning(Number(pid))) continue;
    try {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    } catch {
      // another user's, or removed by another agent meanwhile
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

interface Expected {
  resolve: (socket: Socket) => void;
}

export class LaunchChannels {
  private server: Server | undefined;
  private socketPath: string | undefined;
  private readonly expected = new Map<string, Expected>();

  /** The socket's path; the server starts on first use and never holds the agent open. */
  get path(): string {
    if (this.socketPath === undefined) {
      removeStaleDirs();
      const dir = mkdtempSync(join(tmpdir(), `${DIR_PREFIX}${process.pid}-`));
      this.socketPath = join(dir, 'channels.sock');
      this.server = createServer({ allowHalfOpen: false }, (socket) => this.accept(socket));
      this.server.listen(this.socketPath);
      this.server.unref();
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
    return this.socketPath;
  }

  /** A token for one descriptor, and the connection that will carry it; cancel() when it will not come. */
  expect(): { token: string; connection: Promise<Socket>; cancel(): void } {
    const token = randomBytes(TOKEN_LENGTH / 2).toString('hex');
    let cancel!: () => void;
    const connection = new Promise<Socket>((resolve, reject) => {
      this.expected.set(token, { resolve });
      cancel = () => {
        if (this.expected.delete(token)) reject(new Error('the launch ended before its channel connected'));
      };
    });
    // A cancelled launch may never look at its channel.
    connection.catch(() => undefined);
    return { token, connection, cancel };
  }

  /** Reads the token (and nothing after it: that is the process's) and hands the connection to its launch. */
  private accept(socket: Socket): void {
    socket.on('error', () => undefined);
    const onReadable = () => {
      const head = socket.read(TOKEN_LENGTH + 1) as Buffer | null;
      if (head === null) return;
      socket.off('readable', onReadable).off('end', onEnd);
      const token = head.toString('latin1', 0, TOKEN_LENGTH);
      const waiter = head.length === TOKEN_LENGTH + 1 && head[TOKEN_LENGTH] === 0x0a ? this.expected.get(token) : undefined;
      if (waiter === undefined) {
        socket.destroy();
        return;
      }
      this.expected.delete(token);
      waiter.resolve(socket);
    };
    const onEnd = () => socket.destroy();
    socket.on('readable', onReadable).once('end', onEnd);
  }
}
