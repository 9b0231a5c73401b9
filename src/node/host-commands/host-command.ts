// Running the host's tools as root (iproute2's ip, util-linux's unshare, mount and umount, runc, nft): argv arrays,
// never a shell, and a fixed environment so that nothing of the agent's own environment reaches them. They run
// in the command helper (command-helper.ts), off the agent's event loop, as do the sandboxes' setup processes
// (launchHostProcess).
import { CommandHelper, type CommandResult, type LaunchedProcess, type LaunchRequest } from './command-helper.ts';

const COMMAND_ENV = { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LC_ALL: 'C' };

const helper = new CommandHelper(COMMAND_ENV);

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

export interface HostCommandOptions {
  /** The command's working directory. */
  cwd?: string;
}

/** Runs argv with stdin as its input; resolves with its stdout, rejects with HostCommandError. */
export async function runHostCommand(argv: readonly string[], stdin = '', options: HostCommandOptions = {}): Promise<string> {
  if (argv[0] === undefined) throw new Error('runHostCommand needs a program');
  let result: CommandResult;
  try {
    result = await helper.run({ argv, stdin, ...options });
  } catch (error) {
    throw new HostCommandError(argv, (error as Error).message);
  }
  if (result.spawnError) throw new HostCommandError(argv, result.spawnError.message, result.spawnError.code);
  if (result.code === 0) return result.stdout;
  throw new HostCommandError(argv, result.stderr || `exited with ${result.signal ?? result.code}`);
}

/**
 * Starts a long-lived host process through the helper (a sandbox's setup): resolves once it runs, with the
 * agent's ends of its stdio; rejects with LaunchError when it did not start.
 */
export function launchHostProcess(request: LaunchRequest): Promise<LaunchedProcess> {
  if (request.argv[0] === undefined) return Promise.reject(new Error('launchHostProcess needs a program'));
  return helper.launch(request);
}
