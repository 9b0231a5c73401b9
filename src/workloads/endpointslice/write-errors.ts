// How the endpoint controllers classify a failed write, shared by the endpointslice and endpoints controllers.
import { ForbiddenError, InvalidError } from '../../client/errors.ts';

/** A create refused because the namespace is being deleted: nothing in it will be needed again. */
export function isNamespaceTerminating(err: unknown): boolean {
  return err instanceof ForbiddenError && (err.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}

/**
 * A write the API server rejects as invalid or forbidden fails the same way until the Service, its pods or the
 * permissions change; the first two wake the Service anyway, so it is not retried on a timer.
 */
export function unretriable(err: unknown): boolean {
  return err instanceof InvalidError || err instanceof ForbiddenError;
}
