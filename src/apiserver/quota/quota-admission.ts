// kube-apiserver's ResourceQuota admission, run synchronously with the store's write (ObjectService.commit): a
// create that would take a namespace's usage past a quota's hard limit is Forbidden with kube's "exceeded quota"
// message; a pod lacking a request or limit a quota tracks is refused ("must specify"). Because the check reads
// the stored objects and the write follows in the same turn, concurrent creates cannot overshoot. After each
// write in a namespace with quotas, their status (hard, used) is recounted from the stored objects, which is what
// kube's admission charges and its resourcequota controller recalculates.
import type { ResourceQuota } from '../../apimachinery/api/index.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';
import { countedKey, formatUsage, missingCompute, usageOf } from './quota-usage.ts';
import { parseQuantity } from '../../apimachinery/quantity.ts';

const QUOTAS = '/resourcequotas';

/** The storage key whose objects a quota resource counts. */
function keyFor(resource: string): string | undefined {
  const counted = countedKey(resource);
  if (counted !== undefined) return counted;
  if (resource === 'requests.storage') return '/persistentvolumeclaims';
  const [kind, name] = resource.includes('.') ? resource.split('.', 2) : ['requests', resource];
  return (kind === 'requests' || kind === 'limits') && (name === 'cpu' || name === 'memory' || name === 'ephemeral-storage') ? '/pods' : undefined;
}

function used(store: SqliteStore, namespace: string, resource: string, except?: string): number {
  const key = keyFor(resource);
  if (key === undefined) return 0;
  return store
    .list(key, namespace)
    .filter((stored) => stored.object.metadata.name !== except)
    .reduce((sum, stored) => sum + usageOf(key, stored.object, resource), 0);
}

const pretty = (entries: [string, string][]): string => entries.map(([k, v]) => `${k}=${v}`).join(',');

/** Throws kube-apiserver's 403 when creating `object` under `key` would exceed a quota of its namespace. */
export function checkQuota(store: SqliteStore, key: string, resource: string, object: KubeObject): void {
  const namespace = object.metadata.namespace ?? '';
  if (namespace === '' || key === QUOTAS) return;
  const name = object.metadata.name ?? '';
  const forbidden = (message: string) => errors.forbidden(`${resource} "${name}" is forbidden: ${message}`, { name, kind: resource });
  for (const stored of store.list(QUOTAS, namespace)) {
    const quota = stored.object as ResourceQuota;
    const hard = Object.entries(quota.spec?.hard ?? {}).sort(([a], [b]) => a.localeCompare(b));
    if (key === '/pods') {
      const missing = missingCompute(object, hard.map(([r]) => r));
      if (missing.length > 0) throw forbidden(`failed quota: ${quota.metadata.name ?? ''}: must specify ${missing.join('; ')}`);
    }
    const failed = hard
      .filter(([resource]) => keyFor(resource) === key)
      .map(([resource, limit]) => ({ resource, limit: String(limit), requested: usageOf(key, object, resource), used: used(store, namespace, resource, name) }))
      .filter((f) => f.requested > 0 && f.used + f.requested > parseQuantity(f.limit));
    if (failed.length > 0) {
      throw forbidden(
        `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${pretty(failed.map((f) => [f.resource, formatUsage(f.resource, f.requested)]))}, used: ${pretty(failed.map((f) => [f.resource, formatUsage(f.resource, f.used)]))}, limited: ${pretty(failed.map((f) => [f.resource, f.limit]))}`,
      );
    }
  }
}

/** Recounts status.hard and status.used of the namespace's quotas from the stored objects; writes those that changed. */
export function refreshQuotas(store: SqliteStore, namespace: string): void {
  if (namespace === '') return;
  for (const stored of store.list(QUOTAS, namespace)) {
    const quota = stored.object as ResourceQuota;
    const hard = { ...quota.spec?.hard };
    const usage = Object.fromEntries(Object.keys(hard).map((resource) => [resource, formatUsage(resource, used(store, namespace, resource))]));
    const status = { hard, used: usage };
    if (JSON.stringify(quota.status) === JSON.stringify(status)) continue;
    store.write(QUOTAS, namespace, quota.metadata.name ?? '', 'MODIFIED', (revision) => {
      const next = structuredClone(quota);
      next.status = status;
      next.metadata.resourceVersion = String(revision);
      return next;
    });
  }
}
