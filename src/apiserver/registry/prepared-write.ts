// A write whose outcome is computed (defaulted, validated, server-owned fields set) but not yet stored. Validating
// admission looks at it between prepare and commit; commit refuses it (StaleWriteError) if the object changed meanwhile.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { StoredObject } from '../storage/sqlite-store.ts';
import type { ResourceType } from './resource-type.ts';

export type PreparedWrite = PreparedCreate | PreparedUpdate;

export interface PreparedCreate {
  readonly kind: 'create';
  readonly type: ResourceType;
  readonly object: KubeObject;
  readonly dryRun: boolean;
}

export interface PreparedUpdate {
  readonly kind: 'update';
  readonly type: ResourceType;
  readonly current: StoredObject;
  readonly object: KubeObject;
  readonly dryRun: boolean;
  /** `noop`: nothing changed; `remove`: the last finalizer of a deleted object went, so the object goes. */
  readonly outcome: 'write' | 'noop' | 'remove';
}

export interface PreparedDelete {
  readonly type: ResourceType;
  readonly current: StoredObject;
  /** `remove` deletes now; `mark` sets deletionTimestamp (finalizers remain); `unchanged` is a repeated delete. */
  readonly outcome: 'remove' | 'mark' | 'unchanged';
  /** The marked object, for `mark`. */
  readonly next: KubeObject | undefined;
  readonly dryRun: boolean;
}
