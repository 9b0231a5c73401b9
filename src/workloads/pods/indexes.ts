// Indexes the workload controllers add to the shared informers (once, whoever registers first).
import type { KubeObject } from '../../apimachinery/object.ts';
import type { IndexFunc, Informer } from '../../runtime/index.ts';
import type { Pod } from '../../apimachinery/api/index.ts';

/** Pods by spec.nodeName; unscheduled pods file under ''. */
export const POD_NODE_INDEX = 'workloads/spec.nodeName';

export const podNodeIndex: IndexFunc<Pod> = (pod) => pod.spec?.nodeName ?? '';

export function ensureIndex<T extends KubeObject>(informer: Informer<T>, name: string, fn: IndexFunc<T>): void {
  if (!informer.store.indexNames().includes(name)) informer.addIndexer(name, fn);
}
