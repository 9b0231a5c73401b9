// authorization.k8s.io/v1 reviews, answered with the server's authorizer as kube-apiserver's are, so that
// `kubectl auth can-i` (SelfSubjectAccessReview), `kubectl auth can-i --list` (SelfSubjectRulesReview),
// LocalSubjectAccessReview and SubjectAccessReview tell the truth.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { RbacPolicyRule } from '../../../apimachinery/rbac.ts';
import { errors } from '../../../apimachinery/status-error.ts';
import type { Authorizer, RequestAttributes } from '../authorizer.ts';
import type { UserInfo } from '../user-info.ts';
import type { RuleResolver } from './rule-resolver.ts';
import { SYSTEM_MASTERS } from './rbac-authorizer.ts';

type Spec = {
  resourceAttributes?: { namespace?: string; verb?: string; group?: string; version?: string; resource?: string; subresource?: string; name?: string };
  nonResourceAttributes?: { path?: string; verb?: string };
  user?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
  namespace?: string;
};

const specOf = (review: KubeObject): Spec => (review['spec'] ?? {}) as Spec;

/** kube's ResourceAttributesFrom / NonResourceAttributesFrom. */
function attributesFrom(user: UserInfo, spec: Spec): RequestAttributes {
  const r = spec.resourceAttributes;
  if (r) {
    return { user, verb: r.verb ?? '', resourceRequest: true, path: '', apiGroup: r.group ?? '', apiVersion: r.version ?? '', namespace: r.namespace ?? '', resource: r.resource ?? '', subresource: r.subresource ?? '', name: r.name ?? '' };
  }
  const n = spec.nonResourceAttributes ?? {};
  return { user, verb: n.verb ?? '', resourceRequest: false, path: n.path ?? '', apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
}

function requireOneAttributes(spec: Spec): void {
  if (!spec.resourceAttributes === !spec.nonResourceAttributes) throw errors.badRequest('exactly one of nonResourceAttributes or resourceAttributes must be specified');
}

async function answer(authorizer: Authorizer, review: KubeObject, user: UserInfo): Promise<KubeObject> {
  const spec = specOf(review);
  requireOneAttributes(spec);
  const decision = await authorizer.authorize(attributesFrom(user, spec));
  return { ...review, status: { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) } };
}

/** Answered for the requesting user. */
export function selfSubjectAccessReview(authorizer: Authorizer): (review: KubeObject, user: UserInfo) => Promise<KubeObject> {
  return (review, user) => answer(authorizer, review, user);
}

function subjectOf(spec: Spec): UserInfo {
  if (!spec.user && (spec.groups ?? []).length === 0) throw errors.badRequest('at least one of user or group must be specified');
  return { username: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
}

export function subjectAccessReview(authorizer: Authorizer): (review: KubeObject) => Promise<KubeObject> {
  return (review) => answer(authorizer, review, subjectOf(specOf(review)));
}

/** Namespaced: the attributes' namespace is the review's (kube's localsubjectaccessreview REST). */
export function localSubjectAccessReview(authorizer: Authorizer): (review: KubeObject) => Promise<KubeObject> {
  return (review) => {
    const spec = specOf(review);
    const namespace = review.metadata.namespace ?? '';
    if (spec.resourceAttributes && spec.resourceAttributes.namespace && spec.resourceAttributes.namespace !== namespace) {
      throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
    }
    if (spec.nonResourceAttributes) throw errors.badRequest('nonResourceAttributes not allowed in LocalSubjectAccessReview');
    const local = { ...spec, resourceAttributes: { ...spec.resourceAttributes, namespace } };
    return answer(authorizer, { ...review, spec: local }, subjectOf(spec));
  };
}

/** The rules the requesting user holds in spec.namespace, as kube's SelfSubjectRulesReview (RBAC's RulesFor). */
export function selfSubjectRulesReview(resolver: RuleResolver): (review: KubeObject, user: UserInfo) => KubeObject {
  return (review, user) => {
    const namespace = specOf(review).namespace ?? '';
    const { rules, errors: resolutionErrors } = user.groups.includes(SYSTEM_MASTERS)
      ? { rules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }] as RbacPolicyRule[], errors: [] }
      : resolver.rulesFor(user, namespace);
    const resourceRules = rules
      .filter((r) => (r.nonResourceURLs ?? []).length === 0)
      .map((r) => ({ verbs: r.verbs, ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}), ...(r.resources ? { resources: r.resources } : {}), ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}) }));
    const nonResourceRules = rules.filter((r) => (r.nonResourceURLs ?? []).length > 0).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs }));
    return {
      ...review,
      status: { resourceRules, nonResourceRules, incomplete: resolutionErrors.length > 0, ...(resolutionErrors.length > 0 ? { evaluationError: resolutionErrors.join(', ') } : {}) },
    };
  };
}
