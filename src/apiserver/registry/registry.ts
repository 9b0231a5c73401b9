// The set of served resources, looked up by URL segments; discovery is generated from it.
import { parseApiVersion } from '../../apimachinery/group-version.ts';
import type { ResourceType } from './resource-type.ts';

/** Kubernetes' version priority: GA > beta > alpha, higher numbers first, then other strings. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string): [number, number, number] | undefined => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return undefined;
    const level = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [level, Number(m[1]), Number(m[3] ?? 0)];
  };
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) return pb[0] - pa[0] || pb[1] - pa[1] || pb[2] - pa[2];
  if (pa) return -1;
  if (pb) return 1;
  return a.localeCompare(b);
}

export class ResourceRegistry {
  private readonly types = new Map<string, ResourceType>();
  private readonly listeners = new Set<() => void>();
  /** Bumped on every change so discovery documents can carry a fresh hash. */
  generation = 0;

  private static key(group: string, version: string, plural: string): string {
    return `${group}/${version}/${plural}`;
  }

  add(type: ResourceType): void {
    this.types.set(ResourceRegistry.key(type.group, type.version, type.plural), type);
    this.changed();
  }

  removeCrd(crdName: string): void {
    for (const [key, type] of this.types) if (type.crdName === crdName) this.types.delete(key);
    this.changed();
  }

  replaceCrd(crdName: string, types: ResourceType[]): void {
    for (const [key, type] of this.types) if (type.crdName === crdName) this.types.delete(key);
    for (const type of types) this.types.set(ResourceRegistry.key(type.group, type.version, type.plural), type);
    this.changed();
  }

  private changed(): void {
    this.generation++;
    for (const listener of this.listeners) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    return this.types.get(ResourceRegistry.key(group, version, plural));
  }

  /** The preferred served version of a group+kind, used to resolve ownerReferences and GC. */
  byKind(apiVersion: string, kind: string): ResourceType | undefined {
    const { group, version } = parseApiVersion(apiVersion);
    let fallback: ResourceType | undefined;
    for (const type of this.types.values()) {
      if (type.group !== group || type.kind !== kind) continue;
      if (type.version === version) return type;
      fallback ??= type;
    }
    return fallback;
  }

  /** Any served version of the resource stored under `group/plural`. */
  byStorageKey(key: string): ResourceType | undefined {
    for (const type of this.types.values()) if (`${type.group}/${type.plural}` === key) return type;
    return undefined;
  }

  all(): ResourceType[] {
    return [...this.types.values()];
  }

  /** Groups with their versions in priority order; the core group ("") first. */
  groups(): { group: string; versions: string[] }[] {
    const byGroup = new Map<string, Set<string>>();
    for (const type of this.types.values()) {
      let versions = byGroup.get(type.group);
      if (!versions) byGroup.set(type.group, (versions = new Set()));
      versions.add(type.version);
    }
    return [...byGroup.entries()]
      .sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : 0))
      .map(([group, versions]) => ({ group, versions: [...versions].sort(compareVersions) }));
  }

  resourcesOf(group: string, version: string): ResourceType[] {
    return [...this.types.values()].filter((t) => t.group === group && t.version === version).sort((a, b) => a.plural.localeCompare(b.plural));
  }
}
