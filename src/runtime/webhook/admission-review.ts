// AdmissionReview v1 (admission.k8s.io/v1): the request the API server POSTs to a webhook, decoded and
// checked field by field so that a malformed body is a clear 400 and never reaches a handler.
import type { KubeObject, StatusCause } from '../../apimachinery/object.ts';
import type { JsonPatchOperation } from '../../client/client.ts';

export const ADMISSION_REVIEW_API_VERSION = 'admission.k8s.io/v1';

export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';
const OPERATIONS: readonly string[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** What a handler sees. `object` is absent on DELETE; `oldObject` is set on UPDATE and DELETE. */
export interface AdmissionRequest<T extends KubeObject = KubeObject> {
  uid: string;
  kind: GroupVersionKind;
  resource: GroupVersionResource;
  /** 'status', 'scale', … when the write goes to a subresource. */
  subResource?: string;
  requestKind?: GroupVersionKind;
  requestResource?: GroupVersionResource;
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: AdmissionOperation;
  userInfo: UserInfo;
  object?: T;
  oldObject?: T;
  dryRun: boolean;
  /** CreateOptions, UpdateOptions, … as sent. */
  options?: Record<string, unknown>;
}

/** What a handler returns; build it with allowed(), denied(), patched(). */
export interface AdmissionResponse {
  allowed: boolean;
  /** Becomes response.status: the code and message the API server reports on a denial. */
  result?: { code: number; message: string; reason?: string; causes?: StatusCause[] };
  /** JSONPatch against the request's object (mutating webhooks only). */
  patch?: JsonPatchOperation[];
  warnings?: string[];
  auditAnnotations?: Record<string, string>;
}

/** The body is not an AdmissionReview v1 request. */
export class AdmissionReviewError extends Error {
  override readonly name = 'AdmissionReviewError' as const;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
  if (!isRecord(value)) throw new AdmissionReviewError(`${where} must be an object`);
  return { group: str(value, 'group', where, false) ?? '', version: str(value, 'version', where, true) ?? '', kind: str(value, 'kind', where, true) ?? '' };
}

function gvr(value: unknown, where: string): GroupVersionResource {
  if (!isRecord(value)) throw new AdmissionReviewError(`${where} must be an object`);
  return { group: str(value, 'group', where, false) ?? '', version: str(value, 'version', where, true) ?? '', resource: str(value, 'resource', where, true) ?? '' };
}

function object(value: unknown, where: string): KubeObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw new AdmissionReviewError(`${where} must be an object`);
  // Handlers read metadata without guarding: an object without it is normalized, not rejected.
  if (value['metadata'] !== undefined && !isRecord(value['metadata'])) throw new AdmissionReviewError(`${where}.metadata must be an object`);
  return { ...value, metadata: (value['metadata'] as KubeObject['metadata'] | undefined) ?? {} };
}

function userInfo(value: unknown): UserInfo {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new AdmissionReviewError('request.userInfo must be an object');
  return value as UserInfo;
}

/** Parses and checks a request body; throws AdmissionReviewError with what is wrong. */
export function decodeAdmissionReview(body: string): AdmissionRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (err) {
    throw new AdmissionReviewError(`body is not JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isRecord(parsed)) throw new AdmissionReviewError('body must be a JSON object');
  if (parsed['apiVersion'] !== ADMISSION_REVIEW_API_VERSION || parsed['kind'] !== 'AdmissionReview') {
    throw new AdmissionReviewError(`expected apiVersion ${ADMISSION_REVIEW_API_VERSION} and kind AdmissionReview, got ${JSON.stringify(parsed['apiVersion'])} ${JSON.stringify(parsed['kind'])}`);
  }
  const r = parsed['request'];
  if (!isRecord(r)) throw new AdmissionReviewError('request is required');
  const uid = str(r, 'uid', 'request', true);
  if (!uid) throw new AdmissionReviewError('request.uid must not be empty');
  const operation = str(r, 'operation', 'request', true) ?? '';
  if (!OPERATIONS.includes(operation)) throw new AdmissionReviewError(`request.operation ${JSON.stringify(operation)} is not one of ${OPERATIONS.join(', ')}`);
  if (r['dryRun'] !== undefined && r['dryRun'] !== null && typeof r['dryRun'] !== 'boolean') throw new AdmissionReviewError('request.dryRun must be a boolean');
  if (r['options'] !== undefined && r['options'] !== null && !isRecord(r['options'])) throw new AdmissionReviewError('request.options must be an object');
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
    options: isRecord(r['options']) ? r['options'] : undefined,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined && value !== '') Object.assign(req, { [key]: value });
  return req;
}

/** The AdmissionReview the API server expects back, with the request's uid echoed. */
export function encodeAdmissionReview(uid: string, response: AdmissionResponse): string {
  const out: Json = { uid, allowed: response.allowed };
  if (response.result) {
    const { code, message, reason, causes } = response.result;
    out['status'] = {
      metadata: {},
      status: response.allowed ? 'Success' : 'Failure',
      code,
      message,
      ...(reason ? { reason } : {}),
      ...(causes && causes.length > 0 ? { details: { causes } } : {}),
    };
  }
  if (response.patch && response.patch.length > 0) {
    out['patchType'] = 'JSONPatch';
    out['patch'] = Buffer.from(JSON.stringify(response.patch), 'utf8').toString('base64');
  }
  if (response.warnings && response.warnings.length > 0) out['warnings'] = response.warnings;
  if (response.auditAnnotations) out['auditAnnotations'] = response.auditAnnotations;
  return JSON.stringify({ apiVersion: ADMISSION_REVIEW_API_VERSION, kind: 'AdmissionReview', response: out });
}
