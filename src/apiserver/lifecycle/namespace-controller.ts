// Namespace deletion: a deleted Namespace is Terminating until its content is gone, then its `kubernetes`
// finalizer is removed and it disappears. Conditions on its status name what it is still waiting for.
import type { KubeObject } from '../../apimachinery/object.ts';
import { nowTime } from '../../apimachinery/time.ts';
import type { StoreEvent } from '../storage/sqlite-store.ts';
import { ServerController, type ServerParts } from './server-controller.ts';

const namespaces = '/namespaces';

export class NamespaceController extends ServerController {
  constructor(parts: ServerParts) {
    super(parts);
    for (const ns of this.store.list(namespaces)) if (ns.object.metadata.deletionTimestamp) this.queue.add(ns.object.metadata.name ?? '');
    this.listen();
  }

  protected observe(event: StoreEvent): void {
    if (event.resource === namespaces) {
      if (event.type !== 'DELETED' && event.current.object.metadata.deletionTimestamp) this.queue.add(event.current.object.metadata.name ?? '');
      return;
    }
    if (event.type === 'DELETED' && event.namespace) {
      const ns = this.store.get(namespaces, '', event.namespace);
      if (ns?.object.metadata.deletionTimestamp) this.queue.add(event.namespace);
    }
  }

  protected process(name: string): void {
    const ns = this.store.get(namespaces, '', name);
    const nsType = this.registry.byStorageKey(namespaces);
    if (!ns || !nsType || !ns.object.metadata.deletionTimestamp) return;
    let remaining = 0;
    const finalizers = new Map<string, number>();
    for (const resource of this.store.resources()) {
      const type = this.registry.byStorageKey(resource);
      if (!type?.namespaced) continue;
      for (const stored of this.store.list(resource, name)) {
        remaining++;
        for (const f of stored.object.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
        if (!stored.object.metadata.deletionTimestamp) this.objects.delete(type, name, stored.object.metadata.name ?? '', { propagationPolicy: 'Background' });
      }
    }
    const stillThere = this.store.resources().reduce((n, r) => n + (this.registry.byStorageKey(r)?.namespaced ? this.store.list(r, name).length : 0), 0);
    const current = this.store.get(namespaces, '', name);
    if (!current) return;
    if (stillThere === 0) {
      this.objects.mutate(nsType, current, (o) => {
        const spec = (o['spec'] ?? {}) as { finalizers?: string[] };
        o['spec'] = { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== 'kubernetes') };
      });
      return;
    }
    this.objects.mutate(nsType, current, (o) => setConditions(o, remaining, finalizers));
  }

}

function setConditions(ns: KubeObject, remaining: number, finalizers: Map<string, number>): void {
  const status = (ns['status'] ?? {}) as { phase?: string; conditions?: { type: string; status: string; reason: string; message: string; lastTransitionTime: string }[] };
  const content = {
    type: 'NamespaceContentRemaining',
    status: 'True',
    reason: 'SomeResourcesRemain',
    message: `Some resources are remaining: ${remaining} resource instances`,
  };
  const pending = {
    type: 'NamespaceFinalizersRemaining',
    status: finalizers.size > 0 ? 'True' : 'False',
    reason: finalizers.size > 0 ? 'SomeFinalizersRemain' : 'ContentHasNoFinalizers',
    message:
      finalizers.size > 0
        ? `Some content in the namespace has finalizers remaining: ${[...finalizers].map(([f, n]) => `${f} in ${n} resource instances`).join(', ')}`
        : 'All content-preserving finalizers finished',
  };
  const others = (status.conditions ?? []).filter((c) => c.type !== content.type && c.type !== pending.type);
  const keep = (c: typeof content) => {
    const old = status.conditions?.find((x) => x.type === c.type);
    return { ...c, lastTransitionTime: old && old.status === c.status ? old.lastTransitionTime : nowTime() };
  };
  ns['status'] = { ...status, phase: 'Terminating', conditions: [...others, keep(content), keep(pending)] };
}
