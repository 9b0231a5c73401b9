// kube-apiserver's LimitRanger admission plugin: on pod create, the namespace's LimitRanges of type Container give
// missing requests and limits their defaults (and say so in the `kubernetes.io/limit-ranger` annotation), then
// every Container and Pod item's min, max and maxLimitRequestRatio are checked; a PersistentVolumeClaim's storage
// request against its items' min and max. Messages are upstream's, word for word.
import { isPlainObject } from '../../apimachinery/object.ts';
import { parseQuantity } from '../../apimachinery/quantity.ts';
import { errors } from '../../apimachinery/status-error.ts';
import type { SqliteStore } from '../storage/sqlite-store.ts';

type Json = Record<string, unknown>;
type ResourceList = Record<string, string>;
const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

const record = (value: unknown): Json => (isPlainObject(value) ? value : {});
const resourceList = (value: unknown): ResourceList => Object.fromEntries(Object.entries(record(value)).map(([k, v]) => [k, String(v)]));

function limitItems(store: SqliteStore, namespace: string, type: string): Json[] {
  return store
    .list('/limitranges', namespace)
    .flatMap((stored) => {
      const limits = record(stored.object['spec'])['limits'];
      return Array.isArray(limits) ? (limits as unknown[]).map(record) : [];
    })
    .filter((item) => item['type'] === type);
}

function minConstraint(limitType: string, resource: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request[resource];
  const lim = limit[resource];
  if (req === undefined) return `minimum ${resource} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (parseQuantity(req) < parseQuantity(enforced)) return `minimum ${resource} usage per ${limitType} is ${enforced}, but request is ${req}`;
  if (lim !== undefined && parseQuantity(lim) < parseQuantity(enforced)) return `minimum ${resource} usage per ${limitType} is ${enforced}, but limit is ${lim}`;
  return undefined;
}

function maxConstraint(limitType: string, resource: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request[resource];
  const lim = limit[resource];
  if (lim === undefined) return `maximum ${resource} usage per ${limitType} is ${enforced}.  No limit is specified`;
  if (parseQuantity(lim) > parseQuantity(enforced)) return `maximum ${resource} usage per ${limitType} is ${enforced}, but limit is ${lim}`;
  if (req !== undefined && parseQuantity(req) > parseQuantity(enforced)) return `maximum ${resource} usage per ${limitType} is ${enforced}, but request is ${req}`;
  return undefined;
}

function ratioConstraint(limitType: string, resource: string, enforced: string, request: ResourceList, limit: ResourceList): string | undefined {
  const req = request[resource] === undefined ? 0 : parseQuantity(request[resource]);
  const lim = limit[resource] === undefined ? 0 : parseQuantity(limit[resource]);
  if (req === 0) return `${resource} max limit to request ratio per ${limitType} is ${enforced}, but no request is specified or request is 0`;
  if (lim === 0) return `${resource} max limit to request ratio per ${limitType} is ${enforced}, but no limit is specified or limit is 0`;
  const ratio = lim / req;
  // Go's %f: six decimals.
  if (ratio > parseQuantity(enforced)) return `${resource} max limit to request ratio per ${limitType} is ${enforced}, but provided ratio is ${ratio.toFixed(6)}`;
  return undefined;
}

/** min, max and maxLimitRequestRatio of one item against a request and limit (kube's order: min, max, ratio). */
function constraints(item: Json, limitType: string, request: ResourceList, limit: ResourceList): string[] {
  const problems: (string | undefined)[] = [];
  for (const [resource, enforced] of Object.entries(resourceList(item['min']))) problems.push(minConstraint(limitType, resource, enforced, request, limit));
  for (const [resource, enforced] of Object.entries(resourceList(item['max']))) problems.push(maxConstraint(limitType, resource, enforced, request, limit));
  for (const [resource, enforced] of Object.entries(resourceList(item['maxLimitRequestRatio']))) problems.push(ratioConstraint(limitType, resource, enforced, request, limit));
  return problems.filter((p): p is string => p !== undefined);
}

/** A PersistentVolumeClaim's max is checked against its request (upstream's maxRequestConstraint). */
function maxRequestConstraint(limitType: string, resource: string, enforced: string, request: ResourceList): string | undefined {
  const req = request[resource];
  if (req === undefined) return `maximum ${resource} usage per ${limitType} is ${enforced}.  No request is specified`;
  if (parseQuantity(req) > parseQuantity(enforced)) return `maximum ${resource} usage per ${limitType} is ${enforced}, but request is ${req}`;
  return undefined;
}

/** A sum written as Quantity.String() writes it in the format of its terms: binary (Mi, Gi) or decimal (m). */
function formatSum(value: number, like: string): string {
  if (/[KMGTPE]i$/.test(like)) {
    const units: [string, number][] = [['Ei', 2 ** 60], ['Pi', 2 ** 50], ['Ti', 2 ** 40], ['Gi', 2 ** 30], ['Mi', 2 ** 20], ['Ki', 2 ** 10]];
    const unit = units.find(([, size]) => value % size === 0 && value >= size);
    return unit ? `${value / unit[1]}${unit[0]}` : String(value);
  }
  return Number.isInteger(value) ? String(value) : `${Math.round(value * 1000)}m`;
}

/** utilerrors.NewAggregate's text: one error alone, several as [a, b]. */
function aggregate(problems: string[]): string {
  return problems.length === 1 ? problems[0]! : `[${problems.join(', ')}]`;
}

function forbidden(kind: string, name: string, problems: string[]): Error {
  return errors.forbidden(`${kind} ${JSON.stringify(name)} is forbidden: ${aggregate(problems)}`, { name, group: '', kind });
}

function containersOf(spec: Json): { list: Json[]; prefix: string }[] {
  const pick = (value: unknown) => (Array.isArray(value) ? (value as unknown[]).filter(isPlainObject) : []);
  return [
    { list: pick(spec['initContainers']), prefix: 'init container' },
    { list: pick(spec['containers']), prefix: 'container' },
  ];
}

/** The pod body as admitted: defaults merged in place (it is the request's own decoded body), then checked. */
export function admitPodLimits(store: SqliteStore, namespace: string, pod: unknown): void {
  if (!isPlainObject(pod) || !isPlainObject(pod['spec'])) return;
  const containerItems = limitItems(store, namespace, 'Container');
  const podItems = limitItems(store, namespace, 'Pod');
  if (containerItems.length === 0 && podItems.length === 0) return;
  const spec = pod['spec'];
  const metadata = isPlainObject(pod['metadata']) ? pod['metadata'] : (pod['metadata'] = {});
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : '';

  // Defaults: the items' default (limits) and defaultRequest (requests), the later item winning as upstream's map merge.
  const defaults = { limits: {} as ResourceList, requests: {} as ResourceList };
  for (const item of containerItems) {
    Object.assign(defaults.limits, resourceList(item['default']));
    Object.assign(defaults.requests, resourceList(item['defaultRequest']));
  }
  const notes: string[] = [];
  for (const { list, prefix } of containersOf(spec)) {
    for (const container of list) {
      const resources = record(container['resources']);
      const limits = record(resources['limits']);
      const requests = record(resources['requests']);
      const setLimits = Object.keys(defaults.limits).filter((r) => !(r in limits)).sort();
      const setRequests = Object.keys(defaults.requests).filter((r) => !(r in requests)).sort();
      for (const r of setLimits) limits[r] = defaults.limits[r];
      for (const r of setRequests) requests[r] = defaults.requests[r];
      if (setLimits.length + setRequests.length > 0) {
        container['resources'] = { ...resources, ...(Object.keys(limits).length > 0 ? { limits } : {}), ...(Object.keys(requests).length > 0 ? { requests } : {}) };
      }
      const containerName = String(container['name'] ?? '');
      if (setRequests.length > 0) notes.push(`${setRequests.join(', ')} request for ${prefix} ${containerName}`);
      if (setLimits.length > 0) notes.push(`${setLimits.join(', ')} limit for ${prefix} ${containerName}`);
    }
  }
  if (notes.length > 0) metadata['annotations'] = { ...record(metadata['annotations']), [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}` };

  const problems: string[] = [];
  const all = containersOf(spec).flatMap(({ list }) => list);
  for (const item of containerItems) {
    for (const container of all) {
      const resources = record(container['resources']);
      problems.push(...constraints(item, 'Container', resourceList(resources['requests']), resourceList(resources['limits'])));
    }
  }
  // A pod's usage: the sum over its containers (a resource only when every container states it).
  for (const item of podItems) {
    const sum = (field: 'requests' | 'limits'): ResourceList => {
      const lists = all.map((c) => resourceList(record(c['resources'])[field]));
      const names = new Set(lists.flatMap((l) => Object.keys(l)));
      const out: ResourceList = {};
      for (const r of names) if (lists.every((l) => l[r] !== undefined)) out[r] = formatSum(lists.reduce((total, l) => total + parseQuantity(l[r]!), 0), lists[0]![r]!);
      return out;
    };
    problems.push(...constraints(item, 'Pod', sum('requests'), sum('limits')));
  }
  if (problems.length > 0) throw forbidden('pods', name, problems);
}

/** A claim's storage request against the namespace's PersistentVolumeClaim items. */
export function admitClaimLimits(store: SqliteStore, namespace: string, claim: unknown): void {
  if (!isPlainObject(claim)) return;
  const items = limitItems(store, namespace, 'PersistentVolumeClaim');
  if (items.length === 0) return;
  const resources = record(record(claim['spec'])['resources']);
  const requests = resourceList(resources['requests']);
  const problems = items.flatMap((item) => [
    ...Object.entries(resourceList(item['min'])).map(([resource, enforced]) => minConstraint('PersistentVolumeClaim', resource, enforced, requests, {})),
    ...Object.entries(resourceList(item['max'])).map(([resource, enforced]) => maxRequestConstraint('PersistentVolumeClaim', resource, enforced, requests)),
  ]).filter((p): p is string => p !== undefined);
  const name = String(record(claim['metadata'])['name'] ?? '');
  if (problems.length > 0) throw forbidden('persistentvolumeclaims', name, problems);
}
