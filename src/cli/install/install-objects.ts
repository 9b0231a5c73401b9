// What a real cluster needs to run `bosun controllers`, as the objects `bosun manifests` prints in apply order:
// CRDs, Namespace, ServiceAccount, least-privilege roles derived from the rules each family declares (never
// written a second time here), bindings, the webhook certificate Secret and Service, the Deployment and its
// PodDisruptionBudget.
import type { KubeObject } from '../../apimachinery/object.ts';
import { BOSUN_IMAGE } from '../../node/agent/container-argv.ts';
import type { Family, PolicyRule } from '../../runtime/family.ts';
import { familyCrds } from '../families.ts';

export interface InstallOptions {
  /** Where the controllers, their Lease and their serving-certificate Secret live. */
  namespace: string;
  image: string;
}

export const DEFAULT_INSTALL: InstallOptions = { namespace: 'bosun-system', image: BOSUN_IMAGE };

export const INSTALL_NAME = 'bosun-controllers';
export const WEBHOOK_SERVICE = 'bosun-webhook';
/** The Secret the controllers keep their webhook serving certificate in (created empty here, filled by them). */
export const WEBHOOK_CERT_SECRET = 'bosun-webhook-cert';
const METRICS_PORT = 8080;
const WEBHOOK_PORT = 9443;

/**
 * What the runtime itself needs cluster-wide, whichever families run: Events it records, and the webhook
 * configurations it registers, prunes and patches the caBundle of.
 */
export const RUNTIME_CLUSTER_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: ['create', 'patch'] },
  {
    apiGroups: ['admissionregistration.k8s.io'],
    resources: ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
  },
];

/**
 * What the runtime needs in its own namespace only: the leader-election Lease, and get/update on the one
 * serving-certificate Secret (it exists from the install, so no create; no other Secret is readable).
 */
export const RUNTIME_NAMESPACE_RULES: readonly PolicyRule[] = [
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch'] },
  { apiGroups: [''], resources: ['secrets'], resourceNames: [WEBHOOK_CERT_SECRET], verbs: ['get', 'update'] },
];

const labels = { 'app.kubernetes.io/name': 'bosun', 'app.kubernetes.io/component': 'controllers' } as const;

const meta = (name: string, namespace?: string): Record<string, unknown> => ({
  name,
  ...(namespace === undefined ? {} : { namespace }),
  labels: { ...labels },
});

const asRules = (rules: readonly PolicyRule[]): Record<string, unknown>[] =>
  rules.map((r) => ({ apiGroups: [...r.apiGroups], resources: [...r.resources], ...(r.resourceNames ? { resourceNames: [...r.resourceNames] } : {}), verbs: [...r.verbs] }));

const subject = (namespace: string): Record<string, unknown> => ({ kind: 'ServiceAccount', name: INSTALL_NAME, namespace });

const roleRef = (kind: 'ClusterRole' | 'Role', name: string): Record<string, unknown> => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

/** The ClusterRole of one family: exactly the rules the family declares. */
export function familyClusterRoleName(family: Family): string {
  return `bosun-${family.name}`;
}

export function installObjects(families: readonly Family[], opts: InstallOptions = DEFAULT_INSTALL): KubeObject[] {
  const { namespace, image } = opts;
  const rbac = 'rbac.authorization.k8s.io/v1';
  const clusterRoles: [string, readonly PolicyRule[]][] = [
    ...families.map((f): [string, readonly PolicyRule[]] => [familyClusterRoleName(f), f.rbac]),
    ['bosun-runtime', RUNTIME_CLUSTER_RULES],
  ];
  const objects: Record<string, unknown>[] = [
    ...familyCrds(families),
    { apiVersion: 'v1', kind: 'Namespace', metadata: meta(namespace) },
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(INSTALL_NAME, namespace), automountServiceAccountToken: true },
    ...clusterRoles.map(([name, rules]) => ({ apiVersion: rbac, kind: 'ClusterRole', metadata: meta(name), rules: asRules(rules) })),
    { apiVersion: rbac, kind: 'Role', metadata: meta(INSTALL_NAME, namespace), rules: asRules(RUNTIME_NAMESPACE_RULES) },
    ...clusterRoles.map(([name]) => ({ apiVersion: rbac, kind: 'ClusterRoleBinding', metadata: meta(name), roleRef: roleRef('ClusterRole', name), subjects: [subject(namespace)] })),
    { apiVersion: rbac, kind: 'RoleBinding', metadata: meta(INSTALL_NAME, namespace), roleRef: roleRef('Role', INSTALL_NAME), subjects: [subject(namespace)] },
    // Empty: the first controller replica to start fills it (and `kubectl apply` again leaves its data alone).
    { apiVersion: 'v1', kind: 'Secret', metadata: meta(WEBHOOK_CERT_SECRET, namespace), type: 'Opaque' },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(WEBHOOK_SERVICE, namespace),
      spec: { selector: { ...labels }, ports: [{ name: 'webhook', port: 443, targetPort: 'webhook', protocol: 'TCP' }] },
    },
    deployment(families, namespace, image),
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: meta(INSTALL_NAME, namespace),
      spec: { maxUnavailable: 1, selector: { matchLabels: { ...labels } } },
    },
  ];
  return objects as KubeObject[];
}

function deployment(families: readonly Family[], namespace: string, image: string): Record<string, unknown> {
  const probe = (path: string): Record<string, unknown> => ({ httpGet: { path, port: 'metrics' }, periodSeconds: 10 });
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(INSTALL_NAME, namespace),
    spec: {
      replicas: 2,
      selector: { matchLabels: { ...labels } },
      template: {
        metadata: { labels: { ...labels } },
        spec: {
          serviceAccountName: INSTALL_NAME,
          automountServiceAccountToken: true,
          securityContext: { runAsNonRoot: true, runAsUser: 65532, runAsGroup: 65532, seccompProfile: { type: 'RuntimeDefault' } },
          containers: [
            {
              name: 'controllers',
              image,
              args: [
                'controllers',
                `--controllers=${families.map((f) => f.name).join(',')}`,
                '--leader-elect',
                `--leader-election-namespace=${namespace}`,
                `--metrics-port=${METRICS_PORT}`,
                '--metrics-bind-address=0.0.0.0',
                `--webhook-url=https://${WEBHOOK_SERVICE}.${namespace}.svc:443`,
                `--webhook-cert-secret=${WEBHOOK_CERT_SECRET}`,
                `--webhook-port=${WEBHOOK_PORT}`,
              ],
              ports: [
                { name: 'metrics', containerPort: METRICS_PORT, protocol: 'TCP' },
                { name: 'webhook', containerPort: WEBHOOK_PORT, protocol: 'TCP' },
              ],
              readinessProbe: probe('/readyz'),
              livenessProbe: { ...probe('/healthz'), initialDelaySeconds: 15 },
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '1', memory: '512Mi' } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ['ALL'] },
                seccompProfile: { type: 'RuntimeDefault' },
              },
            },
          ],
        },
      },
    },
  };
}
