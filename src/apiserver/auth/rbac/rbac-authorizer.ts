// The RBAC authorizer kube-apiserver runs with --authorization-mode=RBAC, behind its privileged-groups
// authorizer: system:masters may do everything (whatever the bindings say); anyone else may do what a rule of a
// binding naming them allows. A denial's reason lists bindings to missing roles, as kube's does.
import type { Authorizer, Decision, RequestAttributes } from '../authorizer.ts';
import type { RuleResolver } from './rule-resolver.ts';
import { ruleAllows } from './rule-matching.ts';

export const SYSTEM_MASTERS = 'system:masters';

/** Synchronous: it reads only the in-memory policy, so storage hooks can ask it too. */
export function rbacAuthorizer(resolver: RuleResolver): Authorizer & { authorize(attributes: RequestAttributes): Decision } {
  return {
    authorize(attributes: RequestAttributes): Decision {
      if (attributes.user.groups.includes(SYSTEM_MASTERS)) return { allowed: true, reason: '' };
      let allowedBy: string | undefined;
      const errors: string[] = [];
      resolver.visitRulesFor(attributes.user, attributes.namespace, (source, rule, error) => {
        if (error) errors.push(error);
        if (rule && ruleAllows(attributes, rule)) allowedBy = source;
        return allowedBy === undefined;
      });
      if (allowedBy !== undefined) return { allowed: true, reason: `RBAC: allowed by ${allowedBy}` };
      return { allowed: false, reason: errors.length > 0 ? `RBAC: ${errors.length > 1 ? `[${errors.join(', ')}]` : errors[0]}` : '' };
    },
  };
}
