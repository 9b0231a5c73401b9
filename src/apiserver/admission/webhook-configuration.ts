// admissionregistration.k8s.io/v1: the shapes of ValidatingWebhookConfiguration and MutatingWebhookConfiguration
// (k8s.io/api/admissionregistration/v1/types.go), as stored once defaulted, and the names the server serves them under.
import type { LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import type { KubeObject } from '../../apimachinery/object.ts';

export const ADMISSION_REGISTRATION_GROUP = 'admissionregistration.k8s.io';
export const ADMISSION_REGISTRATION_VERSION = 'v1';
export const VALIDATING_WEBHOOK_CONFIGURATION_KIND = 'ValidatingWebhookConfiguration';
export const MUTATING_WEBHOOK_CONFIGURATION_KIND = 'MutatingWebhookConfiguration';
export const VALIDATING_WEBHOOK_CONFIGURATIONS = 'validatingwebhookconfigurations';
export const MUTATING_WEBHOOK_CONFIGURATIONS = 'mutatingwebhookconfigurations';

export const OPERATION_TYPES = ['*', 'CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const;
export type OperationType = (typeof OPERATION_TYPES)[number];
export const SCOPE_TYPES = ['Cluster', 'Namespaced', '*'] as const;
export type ScopeType = (typeof SCOPE_TYPES)[number];
export const FAILURE_POLICIES = ['Ignore', 'Fail'] as const;
export type FailurePolicy = (typeof FAILURE_POLICIES)[number];
export const MATCH_POLICIES = ['Exact', 'Equivalent'] as const;
export type MatchPolicy = (typeof MATCH_POLICIES)[number];
/** v1 accepts only these two (v1beta1's Unknown and Some are gone). */
export const SIDE_EFFECT_CLASSES = ['None', 'NoneOnDryRun'] as const;
export type SideEffectClass = (typeof SIDE_EFFECT_CLASSES)[number];
export const REINVOCATION_POLICIES = ['Never', 'IfNeeded'] as const;
export type ReinvocationPolicy = (typeof REINVOCATION_POLICIES)[number];
/** The AdmissionReview versions the server can send, in its order of preference. */
export const ADMISSION_REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;

export interface RuleWithOperations {
  operations: OperationType[];
  apiGroups: string[];
  apiVersions: string[];
  /** `pods`, `pods/status`, `pods/*`, `*`, `*\/status`, `*\/*`. */
  resources: string[];
  scope: ScopeType;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port: number;
}

export interface WebhookClientConfig {
  url?: string;
  service?: ServiceReference;
  /** Base64 of a PEM bundle; when absent the system roots are trusted. */
  caBundle?: string;
}

export interface MatchCondition {
  name: string;
  expression: string;
}

export interface ValidatingWebhook {
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  failurePolicy: FailurePolicy;
  matchPolicy: MatchPolicy;
  namespaceSelector: LabelSelectorObject;
  objectSelector: LabelSelectorObject;
  sideEffects: SideEffectClass;
  timeoutSeconds: number;
  admissionReviewVersions: string[];
  matchConditions?: MatchCondition[];
}

export interface MutatingWebhook extends ValidatingWebhook {
  reinvocationPolicy: ReinvocationPolicy;
}

export type ValidatingWebhookConfiguration = KubeObject & { webhooks?: ValidatingWebhook[] };
export type MutatingWebhookConfiguration = KubeObject & { webhooks?: MutatingWebhook[] };

/** Requests on these kinds never reach webhooks, so a broken webhook can always be removed (k8s does the same). */
export function isWebhookConfigurationKind(group: string, kind: string): boolean {
  return (
    group === ADMISSION_REGISTRATION_GROUP &&
    (kind === VALIDATING_WEBHOOK_CONFIGURATION_KIND ||
      kind === MUTATING_WEBHOOK_CONFIGURATION_KIND ||
      kind === 'ValidatingAdmissionPolicy' ||
      kind === 'ValidatingAdmissionPolicyBinding' ||
      kind === 'MutatingAdmissionPolicy' ||
      kind === 'MutatingAdmissionPolicyBinding')
  );
}
