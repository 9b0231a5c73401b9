// Validation of rbac.authorization.k8s.io/v1 objects, after kube-apiserver's pkg/apis/rbac/validation: every
// rule names verbs; a rule is about resources (groups and resources) or about non-resource URLs, never both, and
// only cluster roles hold non-resource URLs; a binding's roleRef names a Role or ClusterRole and never changes;
// each subject is a User, Group or ServiceAccount of the right API group.
import type { StatusCause } from '../../../apimachinery/object.ts';
import { fromLabelSelectorObject, LabelSelectorError, type LabelSelectorObject } from '../../../apimachinery/label-selector.ts';
import { RBAC_GROUP, type ClusterRole, type RbacPolicyRule, type RoleBinding, type Subject } from '../../../apimachinery/rbac.ts';

const required = (field: string, detail: string): StatusCause => ({ reason: 'FieldValueRequired', field, message: detail ? `Required value: ${detail}` : 'Required value' });
const invalid = (field: string, value: unknown, detail: string): StatusCause => ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${detail}` });
const notSupported = (field: string, value: unknown, supported: readonly string[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  field,
  message: `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});

const count = (list: readonly unknown[] | undefined): number => list?.length ?? 0;

/** ValidatePolicyRule. */
function ruleCauses(rule: RbacPolicyRule, namespaced: boolean, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (count(rule.verbs) === 0) causes.push(required(`${field}.verbs`, 'verbs must contain at least one value'));
  if (count(rule.nonResourceURLs) > 0) {
    if (namespaced) causes.push(invalid(`${field}.nonResourceURLs`, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (count(rule.apiGroups) > 0 || count(rule.resources) > 0 || count(rule.resourceNames) > 0) {
      causes.push(invalid(`${field}.nonResourceURLs`, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return causes;
  }
  if (count(rule.apiGroups) === 0) causes.push(required(`${field}.apiGroups`, 'resource rules must supply at least one api group'));
  if (count(rule.resources) === 0) causes.push(required(`${field}.resources`, 'resource rules must supply at least one resource'));
  return causes;
}

function rulesCauses(role: ClusterRole, namespaced: boolean): StatusCause[] {
  return (role.rules ?? []).flatMap((rule, i) => ruleCauses(rule ?? { verbs: [] }, namespaced, `rules[${i}]`));
}

export function validateRole(role: ClusterRole): StatusCause[] {
  return rulesCauses(role, true);
}

export function validateClusterRole(role: ClusterRole): StatusCause[] {
  const causes = rulesCauses(role, false);
  (role.aggregationRule?.clusterRoleSelectors ?? []).forEach((selector: LabelSelectorObject, i) => {
    try {
      fromLabelSelectorObject(selector);
    } catch (error) {
      if (!(error instanceof LabelSelectorError)) throw error;
      causes.push(invalid(`aggregationRule.clusterRoleSelectors[${i}]`, selector, error.message));
    }
  });
  return causes;
}

/** ValidateRoleBindingSubject. */
function subjectCauses(subject: Subject, namespaced: boolean, field: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (!subject.name) causes.push(required(`${field}.name`, ''));
  switch (subject.kind) {
    case 'ServiceAccount':
      if (subject.apiGroup) causes.push(notSupported(`${field}.apiGroup`, subject.apiGroup, ['']));
      if (!namespaced && !subject.namespace) causes.push(required(`${field}.namespace`, ''));
      break;
    case 'User':
    case 'Group':
      if (subject.apiGroup !== RBAC_GROUP) causes.push(notSupported(`${field}.apiGroup`, subject.apiGroup ?? '', [RBAC_GROUP]));
      break;
    default:
      causes.push(notSupported(`${field}.kind`, subject.kind, ['ServiceAccount', 'User', 'Group']));
  }
  return causes;
}

/** ValidateRoleBinding and ValidateClusterRoleBinding; on update also ValidateRoleBindingUpdate. */
export function validateBinding(binding: RoleBinding, old: RoleBinding | undefined, namespaced: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const ref = binding.roleRef ?? ({} as Partial<RoleBinding['roleRef']>);
  if (ref.apiGroup !== RBAC_GROUP) causes.push(notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind ?? '')) causes.push(notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) causes.push(required('roleRef.name', ''));
  else if (ref.name.includes('/') || ref.name.includes('%') || ref.name === '.' || ref.name === '..') {
    causes.push(invalid('roleRef.name', ref.name, 'may not contain "/" or "%"'));
  }
  (binding.subjects ?? []).forEach((subject, i) => causes.push(...subjectCauses(subject, namespaced, `subjects[${i}]`)));
  if (old && JSON.stringify(old.roleRef) !== JSON.stringify(binding.roleRef)) causes.push(invalid('roleRef', binding.roleRef, 'cannot change roleRef'));
  return causes;
}
