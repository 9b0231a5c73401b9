// admission.k8s.io AdmissionReview (k8s.io/api/admission/v1/types.go) as it travels as JSON: the request the API
// server POSTs to an admission webhook and the response it expects back. The API server builds requests and checks
// responses; a webhook server decodes requests and encodes responses. Both use these shapes.
import type { GroupVersionKind, GroupVersionResource } from './group-version.ts';
import type { KubeObject, ListMeta, StatusDetails } from './object.ts';

export const ADMISSION_GROUP = 'admission.k8s.io';
export const ADMISSION_REVIEW_KIND = 'AdmissionReview';
export const ADMISSION_REVIEW_API_VERSION = `${ADMISSION_GROUP}/v1` as const;

/** The versions there are, newest (preferred) first. v1beta1 is the same shape; only v1 answers are checked for uid,
 * kind and patchType. */
export const ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type AdmissionReviewVersion = (typeof ADMISSION_REVIEW_VERSIONS)[number];

export const ADMISSION_OPERATIONS = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;
export type AdmissionOperation = (typeof ADMISSION_OPERATIONS)[number];

/** authentication.k8s.io/v1 UserInfo: who made the request. */
export interface UserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/** AdmissionRequest, fields in Go's order: empty strings are left out (omitempty), absent objects are null. */
export interface AdmissionRequest<T extends KubeObject = KubeObject> {
  uid: string;
  /** What the webhook's rule matched (differs from request* under matchPolicy Equivalent). */
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
  /** Null on DELETE. */
  object?: T | null;
  /** Set on UPDATE and DELETE. */
  oldObject?: T | null;
  dryRun?: boolean;
  /** CreateOptions, UpdateOptions, DeleteOptions as sent. */
  options?: Record<string, unknown> | null;
}

/** metav1.Status in response.status: a webhook may leave out any field. */
export interface AdmissionResponseStatus {
  metadata?: ListMeta;
  status?: string;
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** The only patch type admission knows. */
export type PatchType = 'JSONPatch';

export interface AdmissionResponse {
  /** The request's uid, echoed. */
  uid: string;
  allowed: boolean;
  /** The code and message the API server reports on a denial. */
  status?: AdmissionResponseStatus;
  /** Base64 of a JSON patch against the request's object (mutating webhooks only). */
  patch?: string;
  patchType?: PatchType;
  auditAnnotations?: Record<string, string>;
  warnings?: string[];
}

export interface AdmissionReview {
  apiVersion: string;
  kind: typeof ADMISSION_REVIEW_KIND;
  request?: AdmissionRequest;
  response?: AdmissionResponse;
}
