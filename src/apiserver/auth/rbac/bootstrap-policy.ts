// The roles and bindings kube-apiserver's storage-rbac post-start hook keeps (plugin/pkg/auth/authorizer/rbac/
// bootstrappolicy): cluster-admin for system:masters, the user-facing admin/edit/view aggregated from
// `rbac.authorization.k8s.io/aggregate-to-*` labelled roles, and what every authenticated user may do
// (discovery, version and health, reviews of themselves). Bosun's own components run as the administrator
// (system:masters), and pods under their ServiceAccounts get only what a binding grants them.
import { RBAC_GROUP, type ClusterRole, type RbacPolicyRule, type RoleBinding, type Subject } from '../../../apimachinery/rbac.ts';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = [...READ, ...WRITE];

const rule = (verbs: string[], apiGroups: string[], resources: string[]): RbacPolicyRule => ({ verbs, apiGroups, resources });
const urls = (verbs: string[], nonResourceURLs: string[]): RbacPolicyRule => ({ verbs, nonResourceURLs });

const BOOTSTRAP_LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const AUTOUPDATE = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };
const aggregateTo = (role: string): Record<string, string> => ({ [`rbac.authorization.k8s.io/aggregate-to-${role}`]: 'true' });

function clusterRole(name: string, rules: RbacPolicyRule[], labels: Record<string, string> = {}, aggregateFrom?: string): ClusterRole {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...BOOTSTRAP_LABELS, ...labels }, annotations: AUTOUPDATE },
    rules,
    ...(aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo(aggregateFrom) }] } } : {}),
  };
}

const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });

function clusterRoleBinding(name: string, role: string, subjects: Subject[]): RoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: BOOTSTRAP_LABELS, annotations: AUTOUPDATE },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects,
  };
}

const viewRules: RbacPolicyRule[] = [
  rule(READ, [''], ['pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'configmaps']),
  rule(READ, [''], ['limitranges', 'resourcequotas', 'bindings', 'events', 'pods/status', 'resourcequotas/status', 'namespaces/status', 'replicationcontrollers/status', 'pods/log']),
  rule(READ, [''], ['namespaces']),
  rule(READ, ['discovery.k8s.io'], ['endpointslices']),
  rule(READ, ['apps'], ['controllerrevisions', 'statefulsets', 'statefulsets/status', 'statefulsets/scale', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/status', 'deployments/scale', 'replicasets', 'replicasets/status', 'replicasets/scale']),
  rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
  rule(READ, ['batch'], ['jobs', 'cronjobs', 'cronjobs/status', 'jobs/status']),
  rule(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
  rule(READ, ['networking.k8s.io'], ['networkpolicies', 'ingresses', 'ingresses/status']),
];

const editRules: RbacPolicyRule[] = [
  rule(READ, [''], ['pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward', 'secrets', 'services/proxy']),
  rule(['impersonate'], [''], ['serviceaccounts']),
  rule(WRITE, [''], ['pods', 'pods/attach', 'pods/proxy', 'pods/exec', 'pods/portforward']),
  rule(['create'], [''], ['pods/eviction']),
  rule(WRITE, [''], ['replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/proxy', 'persistentvolumeclaims', 'configmaps', 'secrets', 'events']),
  rule(['create'], [''], ['serviceaccounts/token']),
  rule(WRITE, ['apps'], ['statefulsets', 'statefulsets/scale', 'daemonsets', 'deployments', 'deployments/scale', 'deployments/rollback', 'replicasets', 'replicasets/scale']),
  rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
  rule(WRITE, ['batch'], ['jobs', 'cronjobs']),
  rule(WRITE, ['policy'], ['poddisruptionbudgets']),
  rule(WRITE, ['networking.k8s.io'], ['networkpolicies', 'ingresses']),
  rule(READ_WRITE, ['coordination.k8s.io'], ['leases']),
];

const adminRules: RbacPolicyRule[] = [rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), rule(READ_WRITE, [RBAC_GROUP], ['roles', 'rolebindings'])];

const publicInfo = ['/healthz', '/livez', '/readyz', '/version', '/version/'];

export const bootstrapClusterRoles: readonly ClusterRole[] = [
  clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  clusterRole('admin', [], {}, 'admin'),
  clusterRole('edit', [], aggregateTo('admin'), 'edit'),
  clusterRole('view', [], aggregateTo('edit'), 'view'),
  clusterRole('system:aggregate-to-admin', adminRules, aggregateTo('admin')),
  clusterRole('system:aggregate-to-edit', editRules, aggregateTo('edit')),
  clusterRole('system:aggregate-to-view', viewRules, aggregateTo('view')),
  clusterRole('system:discovery', [urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'])]),
  clusterRole('system:basic-user', [rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']), rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews'])]),
  clusterRole('system:public-info-viewer', [urls(['get'], publicInfo)]),
];

export const bootstrapClusterRoleBindings: readonly RoleBinding[] = [
  clusterRoleBinding('cluster-admin', 'cluster-admin', [group('system:masters')]),
  clusterRoleBinding('system:discovery', 'system:discovery', [group('system:authenticated')]),
  clusterRoleBinding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
  clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
];
