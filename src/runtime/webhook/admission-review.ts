// The webhook server's side of AdmissionReview v1: the request decoded and checked field by field, so that a malformed
// body is a clear 400 and never reaches a handler, and the handler's answer encoded (controller-runtime's
// admission.Request and admission.Response wrap the admission/v1 shapes the same way).
import {
  ADMISSION_OPERATIONS,
  ADMISSION_REVIEW_API_VERSION,
  ADMISSION_REVIEW_KIND,
  type AdmissionOperation,
  type AdmissionResponseStatus,
  type UserInfo,
} from '../../apimachinery/admission-review.ts';
import type * as admissionv1 from '../../apimachinery/admission-review.ts';
import type { GroupVersionKind, GroupVersionResource } from '../../apimachinery/group-version.ts';
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import type { JsonPatchOperation } from '../../client/client.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** What a handler sees: the request with null objects and options left out and dryRun always set. */
export type AdmissionRequest<T extends KubeObject = KubeObject> = Omit<admissionv1.AdmissionRequest<T>, 'object' | 'oldObject' | 'dryRun' | 'options'> & {
  /** Absent on DELETE. */
  object?: T;
  /** Set on UPDATE and DELETE. */
  oldObject?: T;
  dryRun: boolean;
  options?: Record<string, unknown>;
};

/** What a handler returns; build it with allowed(), denied(), patched(). */
export type AdmissionResponse = Pick<admissionv1.AdmissionResponse, 'allowed' | 'warnings' | 'auditAnnotations'> & {
  /** Becomes response.status: the code and message the API server reports on a denial. */
  result?: { code: number; message: string; reason?: string; causes?: StatusCause[] };
  /** JSONPatch against the request's object (mutating webhooks only). */
  patch?: JsonPatchOperation[];
};

/** The body is not an AdmissionReview v1 request. */
export class AdmissionReviewError extends Error {
  override readonly name = 'AdmissionReviewError' as const;
}

type Json = Record<string, unknown>;

function str(obj: Json, key: string, where: string, required: boolean): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) throw new AdmissionReviewError(`${where}.${key} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new AdmissionReviewError(`${where}.${key} must be a string`);
  return v;
}

function gvk(value: unknown, where: string): GroupVersionKind {
  if (!isPlainObject(value)) throw new AdmissionReviewError(`${where} must be an object`);
  return { group: str(value, 'group', where, false) ?? '', version: str(value, 'version', where, true) ?? '', kind: str(value, 'kind', where, true) ?? '' };
}

function gvr(value: unknown, where: string): GroupVersionResource {
  if (!isPlainObject(value)) throw new AdmissionReviewError(`${where} must be an object`);
  return { group: str(value, 'group', where, false) ?? '', version: str(value, 'version', where, true) ?? '', resource: str(value, 'resource', where, true) ?? '' };
}

function object(value: unknown, where: string): KubeObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw new AdmissionReviewError(`${where} must be an object`);
  // Handlers read metadata without guarding: an object without it is normalized, not rejected.
  if (value['metadata'] !== undefined && !isPlainObject(value['metadata'])) throw new AdmissionReviewError(`${where}.metadata must be an object`);
  return { ...value, metadata: (value['metadata'] as KubeObject['metadata'] | undefined) ?? {} };
}

function userInfo(value: unknown): UserInfo {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw new AdmissionReviewError('request.userInfo must be an object');
  return value as UserInfo;
}

/** Parses and checks a request body; throws AdmissionReviewError with what is wrong. */
export function decodeAdmissionReview(body: string): AdmissionRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    throw new AdmissionReviewError(`body is not JSON: ${messageOf(err)}`);
  }
  if (!isPlainObject(parsed)) throw new AdmissionReviewError('body must be a JSON object');
  if (parsed['apiVersion'] !== ADMISSION_REVIEW_API_VERSION || parsed['kind'] !== ADMISSION_REVIEW_KIND) {
    throw new AdmissionReviewError(`expected apiVersion ${ADMISSION_REVIEW_API_VERSION} and kind ${ADMISSION_REVIEW_KIND}, got ${JSON.stringify(parsed['apiVersion'])} ${JSON.stringify(parsed['kind'])}`);
  }
  const r = parsed['request'];
  if (!isPlainObject(r)) throw new AdmissionReviewError('request is required');
  const uid = str(r, 'uid', 'request', true);
  if (!uid) throw new AdmissionReviewError('request.uid must not be empty');
  const operation = str(r, 'operation', 'request', true) ?? '';
  if (!(ADMISSION_OPERATIONS as readonly string[]).includes(operation)) {
    throw new AdmissionReviewError(`request.operation ${JSON.stringify(operation)} is not one of ${ADMISSION_OPERATIONS.join(', ')}`);
  }
  if (r['dryRun'] !== undefined && r['dryRun'] !== null && typeof r['dryRun'] !== 'boolean') throw new AdmissionReviewError('request.dryRun must be a boolean');
  if (r['options'] !== undefined && r['options'] !== null && !isPlainObject(r['options'])) throw new AdmissionReviewError('request.options must be an object');
  const req: AdmissionRequest = {
    uid,
    kind: gvk(r['kind'], 'request.kind'),
    resource: gvr(r['resource'], 'request.resource'),
    operation: operation as AdmissionOperation,
    userInfo: userInfo(r['userInfo']),
    dryRun: r['dryRun'] === true,
  };
  const optional = {
    subResource: str(r, 'subResource', 'request', false),
    requestSubResource: str(r, 'requestSubResource', 'request', false),
    name: str(r, 'name', 'request', false),
    namespace: str(r, 'namespace', 'request', false),
    requestKind: r['requestKind'] === undefined || r['requestKind'] === null ? undefined : gvk(r['requestKind'], 'request.requestKind'),
    requestResource: r['requestResource'] === undefined || r['requestResource'] === null ? undefined : gvr(r['requestResource'], 'request.requestResource'),
    object: object(r['object'], 'request.object'),
    oldObject: object(r['oldObject'], 'request.oldObject'),
    options: isPlainObject(r['options']) ? r['options'] : undefined,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined && value !== '') Object.assign(req, { [key]: value });
  return req;
}

/** The AdmissionReview the API server expects back, with the request's uid echoed, as JSON text. */
export function encodeAdmissionReview(uid: string, response: AdmissionResponse): string {
  return JSON.stringify(admissionReviewOf(uid, response));
}

/** The AdmissionReview the API server expects back, with the request's uid echoed. */
export function admissionReviewOf(uid: string, response: AdmissionResponse): admissionv1.AdmissionReview {
  const out: admissionv1.AdmissionResponse = { uid, allowed: response.allowed };
  if (response.result) {
    const { code, message, reason, causes } = response.result;
    const status: AdmissionResponseStatus = {
      metadata: {},
      status: response.allowed ? 'Success' : 'Failure',
      code,
      message,
      ...(reason ? { reason } : {}),
      ...(causes && causes.length > 0 ? { details: { causes } } : {}),
    };
    out.status = status;
  }
  if (response.patch && response.patch.length > 0) {
    out.patchType = 'JSONPatch';
    out.patch = Buffer.from(JSON.stringify(response.patch), 'utf8').toString('base64');
  }
  if (response.warnings && response.warnings.length > 0) out.warnings = response.warnings;
  if (response.auditAnnotations) out.auditAnnotations = response.auditAnnotations;
  return { apiVersion: ADMISSION_REVIEW_API_VERSION, kind: ADMISSION_REVIEW_KIND, response: out };
}
