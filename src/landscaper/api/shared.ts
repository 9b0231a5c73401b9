// Building blocks shared by the Landscaper kinds (apis/core/v1alpha1/types_shared.go, types_times.go).
import type { ErrorCode } from './constants.ts';

/** Any JSON value (Go's AnyJSON / RawExtension): schemaless. */
export type AnyJSON = null | boolean | number | string | AnyJSON[] | { [key: string]: AnyJSON };
export type JSONObject = { [key: string]: AnyJSON };

export interface ObjectReference {
  name: string;
  namespace?: string;
}

export interface TypedObjectReference extends ObjectReference {
  apiVersion: string;
  kind: string;
}

/** A Secret key (secretRef of data imports, targets). */
export interface SecretReference extends ObjectReference {
  key?: string;
}

export interface ConfigMapReference extends ObjectReference {
  key?: string;
}

export interface LocalSecretReference {
  name: string;
  key?: string;
}

/** Go duration string ("10m", "1h30m"); "none" means 0 (disables timeouts). */
export type Duration = string;

export type ConditionStatus = 'True' | 'False' | 'Unknown' | 'Progressing';

export interface Condition {
  type: string;
  status: ConditionStatus;
  lastTransitionTime: string;
  lastUpdateTime: string;
  reason: string;
  message: string;
  codes?: ErrorCode[];
}

/** status.lastError (apis/errors: timestamps follow the UpdatedError rule). */
export interface LsError {
  operation: string;
  lastTransitionTime: string;
  lastUpdateTime: string;
  reason: string;
  message: string;
  codes?: ErrorCode[];
}

export interface TransitionTimes {
  triggerTime?: string;
  initTime?: string;
  waitTime?: string;
  finishedTime?: string;
}

export interface NamedObjectReference {
  name: string;
  ref: ObjectReference;
}
