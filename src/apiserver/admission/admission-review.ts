// The API server's side of AdmissionReview: building the request it POSTs to a webhook and the checks the answer must
// pass (webhook/request/admissionreview.go: CreateV1AdmissionReview and VerifyAdmissionResponse, same error texts).
import {
  ADMISSION_GROUP,
  ADMISSION_REVIEW_API_VERSION,
  ADMISSION_REVIEW_KIND,
  type AdmissionOperation,
  type AdmissionRequest,
  type AdmissionResponseStatus,
  type AdmissionReview,
  type AdmissionReviewVersion,
  type UserInfo,
} from '../../apimachinery/admission-review.ts';
import { formatGroupVersionKind, parseApiVersion, type GroupVersionKind, type GroupVersionResource } from '../../apimachinery/group-version.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';

/** A webhook's answer once checked: the patch decoded, absent fields made empty. */
export interface CheckedAdmissionResponse {
  allowed: boolean;
  result: AdmissionResponseStatus | undefined;
  /** The decoded JSON patch (mutating webhooks only). */
  patch: Buffer | undefined;
  patchType: string;
  warnings: string[];
}

/** An answer that is not a valid AdmissionReview: the text after `received invalid webhook response: `. */
export class InvalidAdmissionResponseError extends Error {
  override readonly name = 'InvalidAdmissionResponseError' as const;
}

export interface AdmissionRequestInput {
  uid: string;
  /** What the webhook's rule matched (differs from request* under matchPolicy Equivalent). */
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  subResource: string;
  requestKind: GroupVersionKind;
  requestResource: GroupVersionResource;
  requestSubResource: string;
  name: string;
  namespace: string;
  operation: AdmissionOperation;
  userInfo: UserInfo;
  object: KubeObject | undefined;
  oldObject: KubeObject | undefined;
  dryRun: boolean;
  options: Record<string, unknown> | undefined;
}

export function admissionRequest(input: AdmissionRequestInput): AdmissionRequest {
  // Go's field order, leaving out the empty strings omitempty would drop.
  const request: Record<string, unknown> = { uid: input.uid, kind: input.kind, resource: input.resource };
  if (input.subResource) request['subResource'] = input.subResource;
  request['requestKind'] = input.requestKind;
  request['requestResource'] = input.requestResource;
  if (input.requestSubResource) request['requestSubResource'] = input.requestSubResource;
  if (input.name) request['name'] = input.name;
  if (input.namespace) request['namespace'] = input.namespace;
  request['operation'] = input.operation;
  request['userInfo'] = input.userInfo;
  request['object'] = input.object ?? null;
  request['oldObject'] = input.oldObject ?? null;
  request['dryRun'] = input.dryRun;
  request['options'] = input.options ?? null;
  return request as unknown as AdmissionRequest;
}

export function admissionReview(version: AdmissionReviewVersion, request: AdmissionRequest): AdmissionReview {
  return { kind: ADMISSION_REVIEW_KIND, apiVersion: `${ADMISSION_GROUP}/${version}`, request };
}

/** The kind an answer claims to be, as Go prints it. */
function gvkString(apiVersion: unknown, kind: unknown): string {
  return formatGroupVersionKind({ ...parseApiVersion(typeof apiVersion === 'string' ? apiVersion : ''), kind: typeof kind === 'string' ? kind : '' });
}

function decodePatch(patch: unknown): Buffer | undefined {
  if (patch === undefined || patch === null || patch === '') return undefined;
  // []byte in Go: JSON carries it as base64, and a value that is not base64 fails to decode.
  if (typeof patch !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(patch) || patch.length % 4 !== 0) {
    throw new InvalidAdmissionResponseError('illegal base64 data in response.patch');
  }
  return Buffer.from(patch, 'base64');
}

function warningsOf(response: Record<string, unknown>): string[] {
  const warnings = response['warnings'];
  return Array.isArray(warnings) ? warnings.filter((w): w is string => typeof w === 'string') : [];
}

function resultOf(response: Record<string, unknown>): AdmissionResponseStatus | undefined {
  const result = response['status'];
  return isPlainObject(result) ? (result as AdmissionResponseStatus) : undefined;
}

/** Checks a webhook's answer; throws InvalidAdmissionResponseError with kube-apiserver's wording. */
export function verifyAdmissionResponse(version: AdmissionReviewVersion, uid: string, mutating: boolean, review: unknown): CheckedAdmissionResponse {
  if (!isPlainObject(review)) throw new InvalidAdmissionResponseError('webhook response was absent');
  const response = review['response'];
  if (!isPlainObject(response)) throw new InvalidAdmissionResponseError('webhook response was absent');
  const allowed = response['allowed'] === true;
  if (version === 'v1beta1') {
    // v1beta1 answers were never checked for uid or kind; a patch is always a JSON patch.
    const patch = mutating ? decodePatch(response['patch']) : undefined;
    return { allowed, result: resultOf(response), patch, patchType: patch ? 'JSONPatch' : '', warnings: warningsOf(response) };
  }
  if (response['uid'] !== uid) {
    throw new InvalidAdmissionResponseError(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof response['uid'] === 'string' ? response['uid'] : '')}`);
  }
  if (review['apiVersion'] !== ADMISSION_REVIEW_API_VERSION || review['kind'] !== ADMISSION_REVIEW_KIND) {
    throw new InvalidAdmissionResponseError(`expected webhook response of ${ADMISSION_REVIEW_API_VERSION}, Kind=${ADMISSION_REVIEW_KIND}, got ${gvkString(review['apiVersion'], review['kind'])}`);
  }
  const rawPatch = response['patch'];
  const hasPatch = typeof rawPatch === 'string' && rawPatch !== '';
  const patchType = response['patchType'];
  const hasPatchType = patchType !== undefined && patchType !== null;
  if (!mutating) {
    if (hasPatch) throw new InvalidAdmissionResponseError('validating webhook may not return response.patch');
    if (hasPatchType) throw new InvalidAdmissionResponseError('validating webhook may not return response.patchType');
    return { allowed, result: resultOf(response), patch: undefined, patchType: '', warnings: warningsOf(response) };
  }
  if (hasPatch && !hasPatchType) throw new InvalidAdmissionResponseError('webhook returned response.patch but not response.patchType');
  if (!hasPatch && hasPatchType) throw new InvalidAdmissionResponseError('webhook returned response.patchType but not response.patch');
  if (hasPatchType && (typeof patchType !== 'string' || patchType === '')) {
    throw new InvalidAdmissionResponseError(`webhook returned invalid response.patchType of ${JSON.stringify(typeof patchType === 'string' ? patchType : String(patchType))}`);
  }
  return {
    allowed,
    result: resultOf(response),
    patch: decodePatch(rawPatch),
    patchType: typeof patchType === 'string' ? patchType : '',
    warnings: warningsOf(response),
  };
}
