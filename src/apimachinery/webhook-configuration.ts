// admissionregistration.k8s.io/v1: ValidatingWebhookConfiguration and MutatingWebhookConfiguration
// (k8s.io/api/admissionregistration/v1/types.go) as JSON carries them. Fields Go leaves out when unset are optional:
// a client may omit them, and the API server fills in their defaults when it stores the object.
import type { LabelSelectorObject } from './label-selector.ts';
import type { KubeObject } from './object.ts';

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

export interface RuleWithOperations {
  operations: OperationType[];
  apiGroups: string[];
  apiVersions: string[];
  /** Plural names: `pods`, `pods/status`, `pods/*`, `*`, `*\/status`, `*\/*` (a plain name does not match its subresources). */
  resources: string[];
  /** Defaults to `*`. */
  scope?: ScopeType;
}

export interface ServiceReference {
  namespace: string;
  name: string;
  path?: string;
  /** Defaults to 443. */
  port?: number;
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
  /** Fully qualified, e.g. installations.validation.landscaper.gardener.cloud. */
  name: string;
  clientConfig: WebhookClientConfig;
  rules?: RuleWithOperations[];
  /** Defaults to Fail. */
  failurePolicy?: FailurePolicy;
  /** Defaults to Equivalent. */
  matchPolicy?: MatchPolicy;
  /** Defaults to `{}` (everything). */
  namespaceSelector?: LabelSelectorObject;
  /** Defaults to `{}` (everything). */
  objectSelector?: LabelSelectorObject;
  sideEffects?: SideEffectClass;
  /** 1–30; defaults to 10. */
  timeoutSeconds?: number;
  admissionReviewVersions: string[];
  matchConditions?: MatchCondition[];
}

export interface MutatingWebhook extends ValidatingWebhook {
  /** Defaults to Never. */
  reinvocationPolicy?: ReinvocationPolicy;
}

export type ValidatingWebhookConfiguration = KubeObject & { webhooks?: ValidatingWebhook[] };
export type MutatingWebhookConfiguration = KubeObject & { webhooks?: MutatingWebhook[] };
