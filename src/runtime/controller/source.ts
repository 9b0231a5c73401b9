// What a controller needs from an informer (src/runtime/informer/informer.ts): its cache to fetch from
// and its change handlers. Structural, so tests can hand in a small in-memory source.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Informer } from '../informer/informer.ts';
import type { ReadonlyStore } from '../informer/store.ts';

export type WatchSource<T extends KubeObject = KubeObject> = Pick<Informer<T>, 'addEventHandler' | 'hasSynced' | 'waitForSync'> & {
  readonly store: Pick<ReadonlyStore<T>, 'get'>;
};

/** A change as predicates see it. */
export interface ObjectEvent<T extends KubeObject = KubeObject> {
  type: 'added' | 'modified' | 'deleted';
  /** The object after the change (for 'deleted', its last known state). */
  object: T;
  /** The object before the change, for 'modified' (the same object on a periodic resync). */
  old?: T;
}
