// The answers a handler gives, named as controller-runtime names them (admission.Allowed, Denied, Errored,
// Patched), so that a reader who knows one knows the other.
import type { StatusCause } from '../../apimachinery/object.ts';
import type { JsonPatchOperation } from '../../client/client.ts';
import type { AdmissionResponse } from './admission-review.ts';

const REASONS: Record<number, string> = { 400: 'BadRequest', 403: 'Forbidden', 409: 'Conflict', 422: 'Invalid', 500: 'InternalError' };

export function allowed(message = ''): AdmissionResponse {
  return message ? { allowed: true, result: { code: 200, message } } : { allowed: true };
}

/**
 * Rejects the request. The API server reports `admission webhook "NAME" denied the request: MESSAGE` with
 * `code` as the HTTP status (403 by default, as controller-runtime's Denied).
 */
export function denied(message: string, code = 403, causes?: StatusCause[]): AdmissionResponse {
  const reason = REASONS[code];
  return { allowed: false, result: { code, message, ...(reason ? { reason } : {}), ...(causes ? { causes } : {}) } };
}

/** Allows the request with a JSONPatch against the object (mutating webhooks). No operations is a plain allow. */
export function patched(operations: readonly JsonPatchOperation[], message = ''): AdmissionResponse {
  const response = allowed(message);
  return operations.length > 0 ? { ...response, patch: [...operations] } : response;
}

/** The same response with warnings the API server passes to the client (kubectl prints them). */
export function withWarnings(response: AdmissionResponse, ...warnings: string[]): AdmissionResponse {
  return { ...response, warnings: [...(response.warnings ?? []), ...warnings] };
}
