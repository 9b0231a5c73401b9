// The deployer's interruption: another party finished the job (the execution's interrupt, a new job), so the
// deployer stops without writing. What a failure means otherwise is the family's one error model (../../ls-error.ts).

/** Another party finished the job (the execution's interrupt, a new job): stop without writing. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError' as const;
}

export function isInterrupted(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) {
    if (e instanceof InterruptedError) return true;
  }
  return false;
}
