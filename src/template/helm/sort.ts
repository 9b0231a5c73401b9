// Helm's releaseutil SortManifests: files by name, documents in file order, hooks split out (with their events,
// weights and delete policies, for the release actions), then a stable sort by InstallOrder.
import { parseGoYaml } from './go-yaml.ts';
import { goYamlError } from './yaml-errors.ts';

export const INSTALL_ORDER = ['PriorityClass', 'Namespace', 'NetworkPolicy', 'ResourceQuota', 'LimitRange', 'PodSecurityPolicy',
  'PodDisruptionBudget', 'ServiceAccount', 'Secret', 'SecretList', 'ConfigMap', 'StorageClass', 'PersistentVolume',
  'PersistentVolumeClaim', 'CustomResourceDefinition', 'ClusterRole', 'ClusterRoleList', 'ClusterRoleBinding',
  'ClusterRoleBindingList', 'Role', 'RoleList', 'RoleBinding', 'RoleBindingList', 'Service', 'DaemonSet', 'Pod',
  'ReplicationController', 'ReplicaSet', 'Deployment', 'HorizontalPodAutoscaler', 'StatefulSet', 'Job', 'CronJob',
  'IngressClass', 'Ingress', 'APIService'];

export interface Manifest {
  name: string;
  content: string;
  kind: string;
}

/** A hook as Helm's release.Hook keeps it: the events it runs on, its weight and delete policies. */
export interface Hook extends Manifest {
  /** metadata.name of the hook resource. */
  hookName: string;
  events: string[];
  weight: number;
  deletePolicies: string[];
  outputLogPolicies: string[];
}

/** helm.sh/hook values (`test-success` is the old name of `test`). */
const HOOK_EVENTS: Record<string, string> = {
  'pre-install': 'pre-install', 'post-install': 'post-install', 'pre-delete': 'pre-delete', 'post-delete': 'post-delete',
  'pre-upgrade': 'pre-upgrade', 'post-upgrade': 'post-upgrade', 'pre-rollback': 'pre-rollback', 'post-rollback': 'post-rollback',
  test: 'test', 'test-success': 'test',
};

function annotationList(v: string | undefined): string[] {
  return v === undefined ? [] : v.split(',').map((x) => x.trim().toLowerCase());
}


export function splitManifests(big: string): string[] {
  return big.trim().split(/(?:^|\s*\n)---\s*/).filter((d) => d !== '').map((d) => d.trim());
}

function rank(kind: string): number {
  const i = INSTALL_ORDER.indexOf(kind);
  return i < 0 ? INSTALL_ORDER.length : i;
}

export function sortByKind<T extends Manifest>(ms: T[]): T[] {
  return ms.map((m, i) => ({ m, i })).sort((a, b) => {
    const ra = rank(a.m.kind);
    const rb = rank(b.m.kind);
    if (ra !== rb) return ra - rb;
    if (ra === INSTALL_ORDER.length && a.m.kind !== b.m.kind) return a.m.kind < b.m.kind ? -1 : 1;
    return a.i - b.i;
  }).map((x) => x.m);
}

export class ManifestParseError extends Error {}

/** encoding/json's name for a value that is not an object (undefined for an object). */
function jsonKind(v: unknown): string | undefined {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return undefined;
  return Array.isArray(v) ? 'array' : typeof v === 'boolean' ? 'bool' : typeof v === 'string' ? 'string' : 'number';
}

export function sortManifests(files: Map<string, string>): { hooks: Hook[]; manifests: Manifest[] } {
  const hooks: Hook[] = [];
  const manifests: Manifest[] = [];
  for (const name of [...files.keys()].sort()) {
    const content = files.get(name)!;
    if (content.trim() === '') continue;
    if (name.split('/').pop()!.startsWith('_')) continue;
    for (const doc of splitManifests(content)) {
      let head: { kind?: string; metadata?: { name?: string; annotations?: Record<string, string> } };
      try {
        head = (parseGoYaml(doc) ?? {}) as typeof head;
      } catch (e) {
        throw new ManifestParseError(`YAML parse error on ${name}: error converting YAML to JSON: ${goYamlError(e)}`);
      }
      const notStruct = jsonKind(head) ?? jsonKind(head.metadata ?? {});
      if (notStruct !== undefined) {
        const target = jsonKind(head) ? 'Go value of type releaseutil.SimpleHead' : 'Go struct field SimpleHead.metadata of type struct { Name string "json:\\"name\\""; Annotations map[string]string "json:\\"annotations\\"" }';
        throw new ManifestParseError(`YAML parse error on ${name}: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${notStruct} into ${target}`);
      }
      const annotations = head?.metadata?.annotations ?? {};
      const hook = annotations['helm.sh/hook'];
      const m: Manifest = { name, content: doc, kind: typeof head?.kind === 'string' ? head.kind : '' };
      if (hook === undefined) {
        manifests.push(m);
        continue;
      }
      const events = annotationList(hook).map((e) => HOOK_EVENTS[e]);
      // Helm skips a hook with any unknown event ("info: skipping unknown hook").
      if (events.some((e) => e === undefined)) continue;
      const weight = Number.parseInt(annotations['helm.sh/hook-weight'] ?? '', 10);
      hooks.push({
        ...m,
        hookName: String(head?.metadata?.name ?? ''),
        events: events as string[],
        weight: /^[+-]?\d+$/.test(annotations['helm.sh/hook-weight'] ?? '') ? weight : 0,
        deletePolicies: annotationList(annotations['helm.sh/hook-delete-policy']),
        outputLogPolicies: annotationList(annotations['helm.sh/hook-output-log-policy']),
      });
    }
  }
  return { hooks: sortByKind(hooks), manifests: sortByKind(manifests) };
}
