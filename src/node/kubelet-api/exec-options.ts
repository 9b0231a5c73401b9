// The query of /exec and /attach (core/v1 PodExecOptions, PodAttachOptions): which streams the client
// attaches, and exec's command.
import { KubeletRequestError } from './errors.ts';

export interface StreamOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export interface ExecOptions extends StreamOptions {
  command: string[];
}

function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value === '1' || value === 'true';
}

export function parseStreamOptions(query: URLSearchParams): StreamOptions {
  const options = { stdin: flag(query, 'stdin'), stdout: flag(query, 'stdout'), stderr: flag(query, 'stderr'), tty: flag(query, 'tty') };
  if (!options.stdin && !options.stdout && !options.stderr) throw new KubeletRequestError(400, 'you must specify at least 1 of stdin, stdout, stderr');
  return options;
}

export function parseExecOptions(query: URLSearchParams): ExecOptions {
  const command = query.getAll('command');
  if (command.length === 0) throw new KubeletRequestError(400, 'command: Required value: you must specify a command');
  return { command, ...parseStreamOptions(query) };
}
