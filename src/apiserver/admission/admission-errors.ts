// The errors admission answers with, as kube-apiserver words and codes them: a webhook's denial (its own Status,
// see webhook/errors.ToStatusErr and responsewriters.ErrorToAPIStatus), a failed call under failurePolicy Fail
// (500 InternalError), dry run refused (400), a failed matchCondition (403).
import type { AdmissionResponseStatus } from '../../apimachinery/admission-review.ts';
import type { Status, StatusDetails } from '../../apimachinery/object.ts';
import { StatusError, type ResourceName, type StatusReason } from '../../apimachinery/status-error.ts';

/** A Status answered exactly as a webhook shaped it: reason may be empty, status and details pass through. */
export class WebhookStatusError extends StatusError {
  readonly status: string;

  constructor(code: number, status: string, reason: string, message: string, details: StatusDetails | undefined) {
    super(code, reason as StatusReason, message, details);
    this.status = status;
  }

  override toStatus(): Status {
    const status: Record<string, unknown> = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: this.status, message: this.message };
    if (this.reason) status['reason'] = this.reason;
    if (this.details) status['details'] = this.details;
    status['code'] = this.code;
    return status as unknown as Status;
  }
}

/** `admission webhook "NAME" denied the request: MESSAGE`, with the webhook's code (500 when it gave none). */
export function webhookDenied(webhookName: string, result: AdmissionResponseStatus | undefined): WebhookStatusError {
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const message = typeof result?.message === 'string' && result.message !== '' ? result.message : undefined;
  const reason = typeof result?.reason === 'string' ? result.reason : '';
  const text = message !== undefined ? `${deniedBy}: ${message}` : reason !== '' ? `${deniedBy}: ${reason}` : `${deniedBy} without explanation`;
  const status = typeof result?.status === 'string' && result.status !== '' ? result.status : 'Failure';
  const given = typeof result?.code === 'number' && Number.isInteger(result.code) ? result.code : 0;
  // ErrorToAPIStatus: no code means 200 for a "Success" status and 500 otherwise.
  const code = given !== 0 ? given : status === 'Success' ? 200 : 500;
  // JSON may carry null where the type says absent.
  const details = result?.details ?? undefined;
  return new WebhookStatusError(code, status, reason, text, details);
}

/** apierrors.NewInternalError: 500, `Internal error occurred: …`, the message repeated as the one cause. */
export function internalError(message: string): StatusError {
  return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });
}

/** A webhook that could not be called (or answered nonsense) under failurePolicy Fail. */
export function webhookCallFailed(webhookName: string, reason: string): StatusError {
  return internalError(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
}

export function dryRunUnsupported(webhookName: string): StatusError {
  return new StatusError(400, 'BadRequest', `admission webhook ${JSON.stringify(webhookName)} does not support dry run`);
}

/** apierrors.NewForbidden, as a matchCondition that fails to evaluate under failurePolicy Fail answers. */
export function admissionForbidden(resource: ResourceName, name: string, detail: string): StatusError {
  const qualified = resource.group ? `${resource.resource}.${resource.group}` : resource.resource;
  return new StatusError(403, 'Forbidden', `${qualified} ${JSON.stringify(name)} is forbidden: ${detail}`, { name, group: resource.group, kind: resource.resource });
}
