// Which changes of a terrakojo object wake its own controller.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Predicate } from '../../runtime/index.ts';
import { annotationChanged, generationChanged, labelChanged, or } from '../../runtime/index.ts';

/**
 * Everything but a status-only update: a controller's own status writes (a failure it reports, say) must not
 * wake it again at once and so undo its backoff. Spec (generation), labels, annotations (the webhook's
 * sync-requested-at, last-sha), finalizers and deletion do.
 */
export function notStatusOnly<T extends KubeObject>(): Predicate<T> {
  return or<T>(
    generationChanged(),
    labelChanged(),
    annotationChanged(),
    (e) =>
      e.type === 'modified' &&
      e.old !== undefined &&
      (e.old.metadata.deletionTimestamp !== e.object.metadata.deletionTimestamp || String(e.old.metadata.finalizers) !== String(e.object.metadata.finalizers)),
  );
}
