// Escalation and bind prevention, as kube-apiserver's pkg/registry/rbac policy-based storage: a Role or
// ClusterRole may hold only rules its writer already holds (unless the writer may `escalate` roles), and a binding
// may name only a role whose rules its writer holds (unless the writer may `bind` that role). system:masters is
// exempt. A binding to a missing role grants nothing, so it is allowed.
import type { KubeObject } from '../../../apimachinery/object.ts';
import { RBAC_GROUP, type ClusterRole, type RbacPolicyRule, type RoleBinding } from '../../../apimachinery/rbac.ts';
import { errors } from '../../../apimachinery/status-error.ts';
import type { ResourceType } from '../../registry/resource-type.ts';
import type { Decision, RequestAttributes } from '../authorizer.ts';
import type { UserInfo } from '../user-info.ts';
import { SYSTEM_MASTERS } from './rbac-authorizer.ts';
import type { RuleResolver } from './rule-resolver.ts';
import { describeMissing, goStrings, uncoveredRules } from './rule-coverage.ts';

type SyncAuthorizer = { authorize(attributes: RequestAttributes): Decision };

const FULL_AUTHORITY: RbacPolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

function check(user: UserInfo, verb: string, resource: string, namespace: string, name: string): RequestAttributes {
  return { user, verb, resourceRequest: true, path: '', apiGroup: RBAC_GROUP, apiVersion: 'v1', namespace, resource, subresource: '', name };
}

/** The write guard of one RBAC kind, to spread over its ResourceType. */
export function escalationGuard(type: ResourceType, authorizer: SyncAuthorizer, resolver: RuleResolver): Required<Pick<ResourceType, 'guardWrite'>> {
  const confirmNoEscalation = (user: UserInfo, namespace: string, name: string, rules: readonly RbacPolicyRule[]): void => {
    const owner = resolver.rulesFor(user, namespace);
    const missing = uncoveredRules(owner.rules, rules);
    if (missing.length === 0) return;
    let message = `user ${JSON.stringify(user.username)} (groups=${goStrings(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${describeMissing(missing)}`;
    if (owner.errors.length > 0) message += `; resolution errors: [${owner.errors.join(' ')}]`;
    throw errors.forbidden(`${type.plural}.${RBAC_GROUP} ${JSON.stringify(name)} is forbidden: ${message}`, { name, group: RBAC_GROUP, kind: type.plural });
  };
  const guard = (object: KubeObject, user: UserInfo): void => {
    if (user.groups.includes(SYSTEM_MASTERS)) return;
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name ?? '';
    if (type.kind === 'Role' || type.kind === 'ClusterRole') {
      if (authorizer.authorize(check(user, 'escalate', type.plural, namespace, name)).allowed) return;
      const role = object as ClusterRole;
      confirmNoEscalation(user, namespace, name, role.aggregationRule ? FULL_AUTHORITY : (role.rules ?? []));
      return;
    }
    const ref = (object as RoleBinding).roleRef;
    if (authorizer.authorize(check(user, 'bind', ref.kind === 'Role' ? 'roles' : 'clusterroles', namespace, ref.name)).allowed) return;
    const resolved = resolver.roleRefRules(ref, namespace);
    confirmNoEscalation(user, namespace, name, 'rules' in resolved ? resolved.rules : []);
  };
  return { guardWrite: guard };
}
