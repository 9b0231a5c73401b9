// RBAC put together for a server: the bootstrap policy reconciled, the policy cache fed by the store, the
// authorizer reading it, and the RBAC kinds' storage guarded against escalation.
import type { ServerParts } from '../../lifecycle/server-controller.ts';
import type { Authorizer } from '../authorizer.ts';
import type { ResourceType } from '../../registry/resource-type.ts';
import { localSubjectAccessReview, selfSubjectAccessReview, selfSubjectRulesReview, subjectAccessReview } from './access-reviews.ts';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ROLE_BINDINGS, ROLES } from '../../../apimachinery/rbac.ts';
import { escalationGuard } from './escalation-guard.ts';
import { reconcileBootstrapPolicy } from './bootstrap-reconcile.ts';
import { PolicyCache } from './policy-cache.ts';
import { rbacAuthorizer } from './rbac-authorizer.ts';
import { RuleResolver } from './rule-resolver.ts';

export interface InstalledRbac {
  readonly authorizer: Authorizer;
  readonly resolver: RuleResolver;
  stop(): void;
}

export function installRbac(parts: ServerParts): InstalledRbac {
  reconcileBootstrapPolicy(parts.objects, parts.registry);
  const policy = new PolicyCache(parts.store);
  const resolver = new RuleResolver(policy);
  const authorizer = rbacAuthorizer(resolver);
  const answering = (plural: string, review: ResourceType['review']): void => {
    const type = parts.registry.byStorageKey(`authorization.k8s.io/${plural}`)!;
    parts.registry.add({ ...type, review });
  };
  answering('selfsubjectaccessreviews', selfSubjectAccessReview(authorizer));
  answering('subjectaccessreviews', subjectAccessReview(authorizer));
  answering('localsubjectaccessreviews', localSubjectAccessReview(authorizer));
  answering('selfsubjectrulesreviews', selfSubjectRulesReview(resolver));
  for (const key of [ROLES, CLUSTER_ROLES, ROLE_BINDINGS, CLUSTER_ROLE_BINDINGS]) {
    const type = parts.registry.byStorageKey(key)!;
    parts.registry.add({ ...type, ...escalationGuard(type, authorizer, resolver) });
  }
  return { authorizer, resolver, stop: () => policy.stop() };
}
