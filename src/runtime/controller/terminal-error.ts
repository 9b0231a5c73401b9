// An error that retrying cannot fix (invalid spec, missing permission): it is logged and counted, never requeued.

export class TerminalError extends Error {
  override readonly name = 'TerminalError' as const;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** True when err, or any error in its cause chain, is a TerminalError. */
export function isTerminal(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) {
    if (e instanceof TerminalError) return true;
  }
  return false;
}
