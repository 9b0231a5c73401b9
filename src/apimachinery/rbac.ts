// rbac.authorization.k8s.io/v1: Role, ClusterRole, RoleBinding and ClusterRoleBinding as the server stores them,
// and the names every part of Bosun refers to them by.
import type { KubeObject } from './object.ts';
import type { LabelSelectorObject } from './label-selector.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const RBAC_VERSION = 'v1';
export const ROLES = `${RBAC_GROUP}/roles`;
export const CLUSTER_ROLES = `${RBAC_GROUP}/clusterroles`;
export const ROLE_BINDINGS = `${RBAC_GROUP}/rolebindings`;
export const CLUSTER_ROLE_BINDINGS = `${RBAC_GROUP}/clusterrolebindings`;

export interface RbacPolicyRule {
  readonly verbs: readonly string[];
  readonly apiGroups?: readonly string[];
  readonly resources?: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly nonResourceURLs?: readonly string[];
}

export interface RoleRef {
  readonly apiGroup: string;
  readonly kind: 'Role' | 'ClusterRole';
  readonly name: string;
}

export interface Subject {
  readonly kind: 'User' | 'Group' | 'ServiceAccount';
  readonly name: string;
  readonly apiGroup?: string;
  readonly namespace?: string;
}

export interface AggregationRule {
  readonly clusterRoleSelectors?: readonly LabelSelectorObject[];
}

export type Role = KubeObject & { rules?: RbacPolicyRule[] };
export type ClusterRole = Role & { aggregationRule?: AggregationRule };
export type RoleBinding = KubeObject & { roleRef: RoleRef; subjects?: Subject[] };
