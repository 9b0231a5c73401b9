// Every Role, ClusterRole and binding, held in memory and kept current from the store's event stream, so that
// authorizing a request reads maps instead of querying the database (kube-apiserver's RBAC authorizer reads
// informer caches the same way).
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ROLE_BINDINGS, ROLES, type ClusterRole, type RoleBinding } from '../../../apimachinery/rbac.ts';
import type { SqliteStore, StoreEvent } from '../../storage/sqlite-store.ts';

const key = (namespace: string, name: string): string => `${namespace}/${name}`;

export class PolicyCache {
  private readonly roles = new Map<string, ClusterRole>();
  private readonly clusterRoles = new Map<string, ClusterRole>();
  /** Role bindings by namespace, then name. */
  private readonly roleBindings = new Map<string, Map<string, RoleBinding>>();
  private readonly clusterRoleBindings = new Map<string, RoleBinding>();
  private readonly unsubscribe: () => void;

  constructor(store: SqliteStore) {
    // Subscribed before the scan: an event committed in between is applied twice, harmlessly.
    this.unsubscribe = store.subscribe((event) => this.observe(event));
    for (const resource of [ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS]) {
      for (const stored of store.list(resource)) this.apply(resource, stored.object.metadata.namespace ?? '', stored.object as RoleBinding & ClusterRole, false);
    }
  }

  private observe(event: StoreEvent): void {
    this.apply(event.resource, event.namespace, event.current.object as RoleBinding & ClusterRole, event.type === 'DELETED');
  }

  private apply(resource: string, namespace: string, object: RoleBinding & ClusterRole, deleted: boolean): void {
    const name = object.metadata.name ?? '';
    const set = <T>(map: Map<string, T>, k: string, value: T): void => {
      if (deleted) map.delete(k);
      else map.set(k, value);
    };
    if (resource === ROLES) set(this.roles, key(namespace, name), object);
    else if (resource === CLUSTER_ROLES) set(this.clusterRoles, name, object);
    else if (resource === CLUSTER_ROLE_BINDINGS) set(this.clusterRoleBindings, name, object);
    else if (resource === ROLE_BINDINGS) {
      let inNamespace = this.roleBindings.get(namespace);
      if (!inNamespace) this.roleBindings.set(namespace, (inNamespace = new Map()));
      set(inNamespace, name, object);
    }
  }

  role(namespace: string, name: string): ClusterRole | undefined {
    return this.roles.get(key(namespace, name));
  }

  clusterRole(name: string): ClusterRole | undefined {
    return this.clusterRoles.get(name);
  }

  allClusterRoles(): Iterable<ClusterRole> {
    return this.clusterRoles.values();
  }

  clusterRoleBindingList(): Iterable<RoleBinding> {
    return this.clusterRoleBindings.values();
  }

  roleBindingsIn(namespace: string): Iterable<RoleBinding> {
    return this.roleBindings.get(namespace)?.values() ?? [];
  }

  stop(): void {
    this.unsubscribe();
  }
}
