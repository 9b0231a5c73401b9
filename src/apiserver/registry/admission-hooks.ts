// Admission as the registry calls it, the way genericregistry.Store takes it: mutating admission on the decoded
// object, then validation (createValidation/updateValidation/deleteValidation) of the object about to be stored.
// The webhook dispatcher implements the hooks; built-in validating admission (PodSecurity) is synchronous, so a
// write no webhook applies to still runs to its end at once. The server's own controllers write without either.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { UserInfo } from '../auth/user-info.ts';
import type { ResourceType } from './resource-type.ts';
import type { DeleteOptions, WriteOptions } from './write-types.ts';

export interface AdmissionRequest {
  /** Who asked for the write (webhooks see it as request.userInfo). */
  readonly user: UserInfo;
  readonly operation: 'CREATE' | 'UPDATE' | 'DELETE';
  readonly type: ResourceType;
  /** `''` for the main resource, else e.g. `status`. */
  readonly subresource: string;
  /** The name from the request: empty for a create with generateName. */
  readonly name: string;
  /** The request's namespace (cluster-scoped: empty). */
  readonly namespace: string;
  readonly object: KubeObject | undefined;
  readonly oldObject: KubeObject | undefined;
  readonly options: WriteOptions | DeleteOptions;
}

export interface AdmissionHooks {
  /** The object the write goes on with (the same one when nothing changed it), and warnings for the client. */
  mutate(request: AdmissionRequest): Promise<{ object: KubeObject | undefined; warnings: string[] }>;
  /** Refuses by throwing; else warnings for the client. */
  validate(request: AdmissionRequest): Promise<string[]>;
}

/** A write as built-in validating admission sees it: after the strategy's validation, before it is stored. */
export interface BuiltinAdmissionRequest {
  readonly type: ResourceType;
  readonly operation: 'CREATE' | 'UPDATE';
  readonly subresource: string;
  readonly object: KubeObject;
  readonly oldObject: KubeObject | undefined;
}

/** Built-in validating admission plugins (kube-apiserver's PodSecurity): refuses by throwing; else warnings. */
export interface BuiltinValidation {
  validate(request: BuiltinAdmissionRequest): string[];
}
