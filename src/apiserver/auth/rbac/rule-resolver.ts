// Which rules apply to a user, as kube's DefaultRuleResolver.VisitRulesFor: every ClusterRoleBinding naming the
// user grants its ClusterRole's rules everywhere, and in a namespace every RoleBinding naming the user grants its
// Role's (or ClusterRole's) rules there. A binding to a missing role grants nothing and is reported as an error.
import { RBAC_GROUP, type RbacPolicyRule, type RoleBinding } from '../../../apimachinery/rbac.ts';
import type { UserInfo } from '../user-info.ts';
import type { PolicyCache } from './policy-cache.ts';
import { subjectApplies } from './rule-matching.ts';

/** Where a rule came from, as kube's authorizer describes it ("ClusterRoleBinding "x" of ClusterRole "y" to User "z""). */
export type RuleVisitor = (source: string, rule: RbacPolicyRule | undefined, error: string | undefined) => boolean;

export class RuleResolver {
  constructor(private readonly policy: PolicyCache) {}

  /** The rules of a binding's roleRef; undefined, with kube's NotFound text, for a missing role. */
  roleRefRules(ref: RoleBinding['roleRef'], namespace: string): { rules: readonly RbacPolicyRule[] } | { error: string } {
    const role = ref.kind === 'Role' ? this.policy.role(namespace, ref.name) : this.policy.clusterRole(ref.name);
    if (!role) return { error: `${ref.kind.toLowerCase()}.${RBAC_GROUP} "${ref.name}" not found` };
    return { rules: role.rules ?? [] };
  }

  /** Calls `visit` for each rule that applies to `user` in `namespace` ('' for cluster-wide only) until it returns false. */
  visitRulesFor(user: UserInfo, namespace: string, visit: RuleVisitor): void {
    const walk = (bindings: Iterable<RoleBinding>, bindingKind: string, bindingNamespace: string): boolean => {
      for (const binding of bindings) {
        const subject = (binding.subjects ?? []).find((s) => subjectApplies(user, s, bindingNamespace));
        if (!subject) continue;
        const resolved = this.roleRefRules(binding.roleRef, bindingNamespace);
        if ('error' in resolved) {
          if (!visit('', undefined, resolved.error)) return false;
          continue;
        }
        const where = bindingNamespace ? ` in namespace ${JSON.stringify(bindingNamespace)}` : '';
        const subjectNamespace = subject.kind === 'ServiceAccount' ? `${subject.namespace || bindingNamespace}/` : '';
        const source = `${bindingKind} ${JSON.stringify(binding.metadata.name ?? '')} of ${binding.roleRef.kind} ${JSON.stringify(binding.roleRef.name)} to ${subject.kind} ${JSON.stringify(subjectNamespace + subject.name)}${where}`;
        for (const rule of resolved.rules) if (!visit(source, rule, undefined)) return false;
      }
      return true;
    };
    if (!walk(this.policy.clusterRoleBindingList(), 'ClusterRoleBinding', '')) return;
    if (namespace) walk(this.policy.roleBindingsIn(namespace), 'RoleBinding', namespace);
  }

  /** Every rule that applies, and the errors met on the way (kube's RulesFor). */
  rulesFor(user: UserInfo, namespace: string): { rules: RbacPolicyRule[]; errors: string[] } {
    const rules: RbacPolicyRule[] = [];
    const errors: string[] = [];
    this.visitRulesFor(user, namespace, (_source, rule, error) => {
      if (rule) rules.push(rule);
      if (error) errors.push(error);
      return true;
    });
    return { rules, errors };
  }
}
