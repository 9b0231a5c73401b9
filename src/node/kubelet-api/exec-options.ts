// The query of /exec (core/v1 PodExecOptions): the command and which streams the client attaches.
import { KubeletRequestError } from './errors.ts';

export interface ExecOptions {
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

function flag(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  return value === '1' || value === 'true';
}

export function parseExecOptions(query: URLSearchParams): ExecOptions {
  const options = { command: query.getAll('command'), stdin: flag(query, 'stdin'), stdout: flag(query, 'stdout'), stderr: flag(query, 'stderr'), tty: flag(query, 'tty') };
  if (options.command.length === 0) throw new KubeletRequestError(400, 'command: Required value: you must specify a command');
  if (!options.stdin && !options.stdout && !options.stderr) throw new KubeletRequestError(400, 'you must specify at least 1 of stdin, stdout, stderr');
  return options;
}
