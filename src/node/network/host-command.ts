// Running the host's network tools (iproute2's ip, util-linux's unshare, mount's umount) as root: argv arrays,
// never a shell, and a fixed environment so that nothing of the agent's own environment reaches them.
import { spawn } from 'node:child_process';

const COMMAND_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' };

/** A command that could not start or exited non-zero; stderr is the tool's own explanation. */
export class HostCommandError extends Error {
  override readonly name = 'HostCommandError' as const;
  constructor(
    readonly argv: readonly string[],
    readonly stderr: string,
    /** The spawn error's code (ENOENT: the tool is not installed), when it did not start. */
    readonly spawnCode?: string,
  ) {
    super(`${argv.join(' ')}: ${stderr.trim() || 'failed'}`);
  }
}

/** Runs argv with stdin as its input; resolves with its stdout. */
export function runHostCommand(argv: readonly string[], stdin = ''): Promise<string> {
  const [program, ...args] = argv;
  if (program === undefined) return Promise.reject(new Error('runHostCommand needs a program'));
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { env: COMMAND_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A tool that exits without reading its input makes this write fail (EPIPE); its exit status says why.
    child.stdin.on('error', () => undefined);
    child.stdin.end(stdin);
    child.once('error', (error: NodeJS.ErrnoException) => reject(new HostCommandError(argv, error.message, error.code)));
    child.once('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString('utf8'));
      else reject(new HostCommandError(argv, Buffer.concat(stderr).toString('utf8') || `exited with ${signal ?? code}`));
    });
  });
}

// iproute2 splits batch lines on blanks and gives quotes, backslashes and '#' meaning: words are checked so
// that a value can never become a second word or a comment.
const BATCH_WORD = /^[A-Za-z0-9_.:/@=-]+$/;

/** The input of `ip -batch -`: one command per line, each an argv without the leading `ip`. */
export function ipBatchScript(commands: readonly (readonly string[])[]): string {
  return commands
    .map((words) => {
      const bad = words.find((word) => !BATCH_WORD.test(word));
      if (bad !== undefined) throw new Error(`"${bad}" cannot be a word of an ip batch command`);
      return `${words.join(' ')}\n`;
    })
    .join('');
}

/** The tool said the thing to remove is not there (a veth, an address, a mount): removal is already done. */
export function isAlreadyGone(error: unknown): boolean {
  return (
    error instanceof HostCommandError &&
    /Cannot find device|No such device|does not exist|Cannot assign requested address|not mounted|no mount point specified|No such file or directory/.test(error.stderr)
  );
}

/** The tool said the thing to create exists already. */
export function isAlreadyThere(error: unknown): boolean {
  return error instanceof HostCommandError && /File exists|Address already assigned/.test(error.stderr);
}
