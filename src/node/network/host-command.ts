// What the pod network makes of the host's tools' words: ip batches, and the answers that mean "already done".
import { HostCommandError } from '../host-commands/host-command.ts';

// The network's modules (and the service proxy) reach the host command runner through this file.
export { HostCommandError, runHostCommand } from '../host-commands/host-command.ts';

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
