// Helm's releaseutil SortManifests: files by name, documents in file order, hooks split out, then a stable
// sort by InstallOrder.
import { parse as parseYaml } from 'yaml';

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
  hook?: string;
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

export function sortManifests(files: Map<string, string>): { hooks: Manifest[]; manifests: Manifest[] } {
  const hooks: Manifest[] = [];
  const manifests: Manifest[] = [];
  for (const name of [...files.keys()].sort()) {
    const content = files.get(name)!;
    if (content.trim() === '') continue;
    if (name.split('/').pop()!.startsWith('_')) continue;
    for (const doc of splitManifests(content)) {
      let head: { kind?: string; metadata?: { annotations?: Record<string, string> } };
      try {
        head = (parseYaml(doc) ?? {}) as typeof head;
      } catch (e) {
        throw new ManifestParseError(`YAML parse error on ${name}: ${(e as Error).message}`);
      }
      const hook = head?.metadata?.annotations?.['helm.sh/hook'];
      const m: Manifest = { name, content: doc, kind: typeof head?.kind === 'string' ? head.kind : '' };
      if (hook === undefined) manifests.push(m);
      else hooks.push({ ...m, hook });
    }
  }
  return { hooks: sortByKind(hooks), manifests: sortByKind(manifests) };
}
