// The files and directories a command is given on its command line: read, or one line saying which and why
// not (instead of a raw ENOENT with its stack).
import { readFileSync, statSync } from 'node:fs';

export class InputFileError extends Error {
  override readonly name = 'InputFileError' as const;
}

const REASONS: Record<string, string> = {
  ENOENT: 'does not exist',
  EACCES: 'is not readable (permission denied)',
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'is not a directory',
};

function explain(role: string, path: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === undefined ? undefined : REASONS[code];
  return reason === undefined ? (error as Error) : new InputFileError(`${role} ${path} ${reason}`);
}

/** The text of the file `path` ("-": standard input); `role` names it in errors ("template file"). */
export function readInputFile(role: string, path: string): string {
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (error) {
    throw explain(role, path, error);
  }
}

/** Checks that `path` is a directory; `role` names it in errors ("blueprint directory"). */
export function checkInputDirectory(role: string, path: string): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    throw explain(role, path, error);
  }
  if (!isDirectory) throw new InputFileError(`${role} ${path} is not a directory`);
}
