// Typed deployer errors: the operation/reason/codes triple upstream's lserrors carry, so the library
// can decide between "keep the phase and retry" and "unrecoverable: Failed".
import { UNRECOVERABLE_ERROR_CODES, type ErrorCode } from '../../api/constants.ts';
import { LandscaperError } from '../../ls-error.ts';

export class DeployerError extends LandscaperError {
  override readonly name = 'DeployerError' as const;
}

/** Another party finished the job (the execution's interrupt, a new job): stop without writing. */
export class InterruptedError extends Error {
  override readonly name = 'InterruptedError' as const;
}

/** Codes of err and of every DeployerError in its cause chain (upstream's CollectErrorCodes). */
export function errorCodes(err: unknown): ErrorCode[] {
  const codes = new Set<ErrorCode>();
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) {
    if (e instanceof DeployerError) for (const c of e.codes) codes.add(c);
  }
  return [...codes];
}

export function isUnrecoverable(err: unknown): boolean {
  return errorCodes(err).some((c) => UNRECOVERABLE_ERROR_CODES.includes(c));
}

export function isInterrupted(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) {
    if (e instanceof InterruptedError) return true;
  }
  return false;
}
