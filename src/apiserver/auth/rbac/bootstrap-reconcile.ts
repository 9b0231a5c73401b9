// Puts the bootstrap policy in place at every start, as kube-apiserver's storage-rbac post-start hook does:
// missing roles and bindings are created; those annotated autoupdate (not "false") get back any bootstrap rule
// or subject they lost, and keep what was added to them. Aggregated roles' rules are the aggregation
// controller's to fill.
import type { ClusterRole, RoleBinding } from '../../../apimachinery/rbac.ts';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES } from '../../../apimachinery/rbac.ts';
import type { ObjectService } from '../../registry/object-service.ts';
import type { ResourceRegistry } from '../../registry/registry.ts';
import { bootstrapClusterRoleBindings, bootstrapClusterRoles } from './bootstrap-policy.ts';

const autoupdate = (object: { metadata: { annotations?: Record<string, string> } }): boolean => object.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'] !== 'false';

function missing<T>(wanted: readonly T[], have: readonly T[] | undefined): T[] {
  const present = new Set((have ?? []).map((item) => JSON.stringify(item)));
  return wanted.filter((item) => !present.has(JSON.stringify(item)));
}

export function reconcileBootstrapPolicy(objects: ObjectService, registry: ResourceRegistry): void {
  const roles = registry.byStorageKey(CLUSTER_ROLES)!;
  const bindings = registry.byStorageKey(CLUSTER_ROLE_BINDINGS)!;
  const options = { fieldManager: 'bosun-rbac-bootstrap' };
  for (const role of bootstrapClusterRoles) {
    const stored = objects.find(roles, '', role.metadata.name ?? '');
    if (!stored) {
      objects.create(roles, '', role, options);
      continue;
    }
    const lost = role.aggregationRule ? [] : missing(role.rules ?? [], (stored.object as ClusterRole).rules);
    if (lost.length > 0 && autoupdate(stored.object)) objects.mutate(roles, stored, (o) => ((o as ClusterRole).rules = [...((o as ClusterRole).rules ?? []), ...lost]));
  }
  for (const binding of bootstrapClusterRoleBindings) {
    const stored = objects.find(bindings, '', binding.metadata.name ?? '');
    if (!stored) {
      objects.create(bindings, '', binding, options);
      continue;
    }
    const lost = missing(binding.subjects ?? [], (stored.object as RoleBinding).subjects);
    if (lost.length > 0 && autoupdate(stored.object)) objects.mutate(bindings, stored, (o) => ((o as RoleBinding).subjects = [...((o as RoleBinding).subjects ?? []), ...lost]));
  }
}
