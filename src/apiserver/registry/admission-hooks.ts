// Admission as the registry calls it, the way genericregistry.Store takes it: mutating admission on the decoded
// object, then validation (createValidation/updateValidation/deleteValidation) of the object about to be stored.
// The webhook dispatcher implements it; the server's own controllers write without it.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceType } from './resource-type.ts';
import type { DeleteOptions, WriteOptions } from './write-types.ts';

export interface AdmissionRequest {
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
