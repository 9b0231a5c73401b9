// A KubeClient over a map, for the cluster-scoped webhook configurations: get, list (label selector),
// create, update (resourceVersion precondition), delete (uid/resourceVersion preconditions). It can also
// pretend not to serve a resource at all, as an API server without admissionregistration does.
import type { KubeList, KubeObject, Status } from '../../../src/apimachinery/object.ts';
import { matchesLabels, parseLabelSelector } from '../../../src/apimachinery/label-selector.ts';
import type { DeleteOptions, KubeClient, ListOptions, ResourceRef, ResourceTarget } from '../../../src/client/client.ts';
import { AlreadyExistsError, ConflictError, NotFoundError } from '../../../src/client/errors.ts';

function status(code: number, reason: string, message: string): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason, message };
}

export interface MemoryClient extends KubeClient {
  readonly objects: Map<string, KubeObject>;
  readonly writes: string[];
  /** Resources that answer 404 to everything. */
  readonly unserved: Set<string>;
}

export function memoryClient(): MemoryClient {
  const objects = new Map<string, KubeObject>();
  const writes: string[] = [];
  const unserved = new Set<string>();
  let rv = 1;
  const ref = (t: ResourceTarget) => t as ResourceRef;
  const key = (t: ResourceTarget, name: string) => `${ref(t).resource}/${name}`;
  const check = (t: ResourceTarget, name = '') => {
    if (unserved.has(ref(t).resource)) throw new NotFoundError(status(404, 'NotFound', 'the server could not find the requested resource'));
    return key(t, name);
  };
  const clone = <T>(o: T): T => structuredClone(o);
  const notImplemented = (): never => {
    throw new Error('not implemented by the memory client');
  };
  const client: MemoryClient = {
    objects,
    writes,
    unserved,
    defaultNamespace: undefined,
    resolve: async (t) => ref(t),
    async get<T extends KubeObject>(t: ResourceTarget, name: string) {
      const obj = objects.get(check(t, name));
      if (!obj) throw new NotFoundError(status(404, 'NotFound', `${ref(t).resource} "${name}" not found`));
      return clone(obj) as T;
    },
    async list<T extends KubeObject>(t: ResourceTarget, options: ListOptions = {}) {
      check(t);
      const selector = options.labelSelector ? parseLabelSelector(options.labelSelector) : [];
      const items = [...objects.entries()].filter(([k, o]) => k.startsWith(`${ref(t).resource}/`) && matchesLabels(selector, o.metadata.labels)).map(([, o]) => clone(o) as T);
      return { apiVersion: 'v1', kind: 'List', metadata: {}, items } as KubeList<T>;
    },
    async create<T extends KubeObject>(t: ResourceTarget, obj: T) {
      const k = check(t, obj.metadata.name);
      if (objects.has(k)) throw new AlreadyExistsError(status(409, 'AlreadyExists', `${k} already exists`));
      const stored = { ...clone(obj), metadata: { ...clone(obj.metadata), uid: `uid-${rv}`, resourceVersion: String(++rv) } };
      objects.set(k, stored);
      writes.push(`create ${k}`);
      return clone(stored) as T;
    },
    async update<T extends KubeObject>(t: ResourceTarget, obj: T) {
      const k = check(t, obj.metadata.name);
      const current = objects.get(k);
      if (!current) throw new NotFoundError(status(404, 'NotFound', `${k} not found`));
      if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== current.metadata.resourceVersion) throw new ConflictError(status(409, 'Conflict', `${k}: the object has been modified`));
      const stored = { ...clone(obj), metadata: { ...clone(obj.metadata), uid: current.metadata.uid, resourceVersion: String(++rv) } };
      objects.set(k, stored);
      writes.push(`update ${k}`);
      return clone(stored) as T;
    },
    async delete<T extends KubeObject>(t: ResourceTarget, name: string, options: DeleteOptions = {}): Promise<T | Status> {
      const k = check(t, name);
      const current = objects.get(k);
      if (!current) throw new NotFoundError(status(404, 'NotFound', `${k} not found`));
      const p = options.preconditions;
      if ((p?.uid && p.uid !== current.metadata.uid) || (p?.resourceVersion && p.resourceVersion !== current.metadata.resourceVersion)) {
        throw new ConflictError(status(409, 'Conflict', `${k}: precondition failed`));
      }
      objects.delete(k);
      writes.push(`delete ${k}`);
      return current as unknown as T;
    },
    watch: notImplemented,
    updateStatus: notImplemented,
    patch: notImplemented,
    patchStatus: notImplemented,
    deleteCollection: notImplemented,
    podLog: notImplemented,
    followPodLog: notImplemented,
    createToken: notImplemented,
    close: async () => {},
  };
  return client;
}
