// Garbage collection by ownerReferences, like kube-controller-manager's: background (dependents whose owners
// are all gone are deleted), foreground (the owner waits, via the foregroundDeletion finalizer, until its
// blocking dependents are gone) and orphan (dependents lose the reference, then the orphan finalizer goes).
// Driven by store events; the indexes are kept in memory. An owner of a kind this server does not serve (a
// CRD not installed yet, a kind Bosun lacks) is unknown, not absent: as kube's collector, which cannot map it,
// keeps the dependent and retries, this one keeps it, logs once, and looks again when the served kinds change.
import type { KubeObject, OwnerReference } from '../../apimachinery/object.ts';
import type { StoreEvent } from '../storage/sqlite-store.ts';
import { ServerController, type ServerParts } from './server-controller.ts';

interface Location {
  resource: string;
  namespace: string;
  name: string;
}

const locationKey = (l: Location) => `${l.resource}|${l.namespace}|${l.name}`;

export class GarbageCollector extends ServerController {
  /** uid → where the object lives. */
  private readonly byUid = new Map<string, Location>();
  /** owner uid → dependents' location keys. */
  private readonly dependents = new Map<string, Set<string>>();
  /** Owner uids whose dependents wait for an owner's kind to be served. */
  private readonly unresolved = new Set<string>();
  /** `dependent|owner uid` already logged as waiting, so each is logged once. */
  private readonly reported = new Set<string>();
  private readonly onError: (error: unknown) => void;
  private readonly stopWatchingKinds: () => void;

  constructor(parts: ServerParts) {
    super(parts);
    this.onError = parts.onError;
    // A newly served kind (a CRD installed) may resolve what waits.
    this.stopWatchingKinds = this.registry.onChange(() => {
      for (const uid of this.unresolved) this.queue.add(`owner-gone:${uid}`);
      this.unresolved.clear();
      this.reported.clear();
    });
    const store = this.store;
    for (const resource of store.resources()) {
      for (const stored of store.list(resource)) this.index({ resource, namespace: stored.object.metadata.namespace ?? '', name: stored.object.metadata.name ?? '' }, stored.object);
    }
    // Startup: dependents whose owners vanished while we were down, and deletions in progress.
    for (const resource of store.resources()) {
      for (const stored of store.list(resource)) this.inspect(resource, stored.object);
    }
    this.listen();
  }

  private index(location: Location, object: KubeObject): void {
    const uid = object.metadata.uid;
    if (uid) this.byUid.set(uid, location);
    const key = locationKey(location);
    for (const ref of object.metadata.ownerReferences ?? []) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Set()));
      set.add(key);
    }
  }

  private unindex(location: Location, object: KubeObject): void {
    const key = locationKey(location);
    for (const ref of object.metadata.ownerReferences ?? []) {
      const set = this.dependents.get(ref.uid);
      set?.delete(key);
      if (set?.size === 0) this.dependents.delete(ref.uid);
    }
  }

  protected observe(event: StoreEvent): void {
    const location = { resource: event.resource, namespace: event.namespace, name: event.current.object.metadata.name ?? '' };
    if (event.previous) this.unindex(location, event.previous.object);
    const uid = event.current.object.metadata.uid;
    if (event.type === 'DELETED') {
      if (uid) {
        this.byUid.delete(uid);
        if (this.dependents.has(uid)) this.queue.add(`owner-gone:${uid}`);
      }
      // A foreground-deleting owner may have been waiting on this dependent.
      for (const ref of event.current.object.metadata.ownerReferences ?? []) this.queue.add(`owner-deleting:${ref.uid}`);
      return;
    }
    this.index(location, event.current.object);
    this.inspect(event.resource, event.current.object);
  }

  private inspect(_resource: string, object: KubeObject): void {
    const meta = object.metadata;
    if (meta.deletionTimestamp && meta.uid) {
      if (meta.finalizers?.includes('foregroundDeletion')) this.queue.add(`owner-deleting:${meta.uid}`);
      if (meta.finalizers?.includes('orphan')) this.queue.add(`orphan:${meta.uid}`);
    }
    for (const ref of meta.ownerReferences ?? []) {
      if (!this.ownerExists(ref, meta.namespace ?? '')) this.queue.add(`owner-gone:${ref.uid}`);
    }
  }

  private ownerExists(ref: OwnerReference, namespace: string): boolean {
    const where = this.byUid.get(ref.uid);
    if (!where) return false;
    // A namespaced owner resolves only within the dependent's namespace.
    return where.namespace === '' || where.namespace === namespace;
  }

  private locate(key: string): { location: Location; object: KubeObject } | undefined {
    const [resource = '', namespace = '', name = ''] = key.split('|');
    const stored = this.store.get(resource, namespace, name);
    return stored ? { location: { resource, namespace, name }, object: stored.object } : undefined;
  }

  protected process(key: string): void {
    const colon = key.indexOf(':');
    const action = key.slice(0, colon);
    const uid = key.slice(colon + 1);
    if (action === 'owner-gone') this.ownerGone(uid);
    else if (action === 'owner-deleting') this.ownerDeleting(uid);
    else if (action === 'orphan') this.orphan(uid);
  }

  private ownerGone(uid: string): void {
    if (this.byUid.has(uid)) return;
    for (const depKey of [...(this.dependents.get(uid) ?? [])]) {
      const found = this.locate(depKey);
      if (!found) continue;
      const type = this.registry.byStorageKey(found.location.resource);
      if (!type) continue;
      const refs = found.object.metadata.ownerReferences ?? [];
      const unknown = refs.filter((r) => !this.registry.byKind(r.apiVersion, r.kind));
      if (unknown.length > 0) {
        this.waitForKinds(uid, depKey, type.kind, found.location, unknown);
        continue;
      }
      const alive = refs.filter((r) => this.ownerExists(r, found.location.namespace));
      if (alive.length === 0) {
        if (!found.object.metadata.deletionTimestamp) {
          this.objects.delete(type, found.location.namespace, found.location.name, { propagationPolicy: 'Background' });
        }
      } else if (alive.length < refs.length) {
        const stored = this.store.get(found.location.resource, found.location.namespace, found.location.name);
        if (stored) this.objects.mutate(type, stored, (o) => (o.metadata.ownerReferences = alive));
      }
    }
  }

  private waitForKinds(uid: string, depKey: string, kind: string, where: Location, owners: OwnerReference[]): void {
    this.unresolved.add(uid);
    for (const owner of owners) {
      const key = `${depKey}|${owner.uid}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      const name = where.namespace ? `${where.namespace}/${where.name}` : where.name;
      // A line, not an Error: nothing failed, and a stack trace would say otherwise.
      this.onError(
        `garbage collector: keeping ${kind} ${name}: its owner ${owner.kind} ${JSON.stringify(owner.name)} (${owner.apiVersion}) is of a kind this server does not serve; it is looked at again when that kind is served`,
      );
    }
  }

  private ownerDeleting(uid: string): void {
    const where = this.byUid.get(uid);
    if (!where) return;
    const owner = this.store.get(where.resource, where.namespace, where.name);
    const ownerType = this.registry.byStorageKey(where.resource);
    if (!owner || !ownerType || !owner.object.metadata.finalizers?.includes('foregroundDeletion')) return;
    let blocking = 0;
    for (const depKey of [...(this.dependents.get(uid) ?? [])]) {
      const found = this.locate(depKey);
      if (!found) continue;
      const type = this.registry.byStorageKey(found.location.resource);
      if (!type) continue;
      const ref = found.object.metadata.ownerReferences?.find((r) => r.uid === uid);
      if (ref?.blockOwnerDeletion) blocking++;
      if (!found.object.metadata.deletionTimestamp) {
        this.objects.delete(type, found.location.namespace, found.location.name, { propagationPolicy: 'Foreground' });
      }
    }
    if (blocking === 0) {
      this.objects.mutate(ownerType, owner, (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== 'foregroundDeletion')));
    }
  }

  private orphan(uid: string): void {
    const where = this.byUid.get(uid);
    if (!where) return;
    for (const depKey of [...(this.dependents.get(uid) ?? [])]) {
      const found = this.locate(depKey);
      const type = found && this.registry.byStorageKey(found.location.resource);
      const stored = found && this.store.get(found.location.resource, found.location.namespace, found.location.name);
      if (!type || !stored) continue;
      this.objects.mutate(type, stored, (o) => {
        const rest = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (rest.length > 0) o.metadata.ownerReferences = rest;
        else delete o.metadata.ownerReferences;
      });
    }
    const owner = this.store.get(where.resource, where.namespace, where.name);
    const ownerType = this.registry.byStorageKey(where.resource);
    if (owner && ownerType) {
      this.objects.mutate(ownerType, owner, (o) => (o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== 'orphan')));
    }
  }

  override stop(): void {
    this.stopWatchingKinds();
    super.stop();
  }

}
