// The ConfigMaps, Secrets and PersistentVolumeClaims a pod's volumes and environment name, read from the API
// server once per pod start (volumes and env often name the same object) and reported missing in kubelet's
// words. Other API failures propagate unchanged: they are transient, not the pod's fault.
import { configMapsResource, persistentVolumeClaimsResource, secretsResource, servicesResource } from '../../apimachinery/builtin-resources.ts';
import type { ConfigMap, Secret, Service } from '../../apimachinery/api/index.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { SandboxSpecError } from '../sandbox/errors.ts';
import { ProjectedTokens } from './volumes/projected-tokens.ts';

export type PersistentVolumeClaim = KubeObject;

/** kubelet's lower-case kind names in "… not found" messages. */
type ObjectKind = 'configmap' | 'secret' | 'persistentvolumeclaim';

const RESOURCES: Record<ObjectKind, ResourceRef> = {
  configmap: configMapsResource,
  secret: secretsResource,
  persistentvolumeclaim: persistentVolumeClaimsResource,
};

export function notFoundMessage(kind: ObjectKind, name: string): string {
  return `${kind} "${name}" not found`;
}

export function notFoundError(kind: ObjectKind, name: string): SandboxSpecError {
  return new SandboxSpecError('CreateContainerConfigError', notFoundMessage(kind, name));
}

export class PodApiObjects {
  private readonly cache = new Map<string, Promise<KubeObject | undefined>>();
  private serviceList: Promise<Service[]> | undefined;

  constructor(
    readonly client: KubeClient,
    readonly namespace: string,
    /** The pod's projected service account tokens, kept across the volumes' rewrites. */
    readonly tokens: ProjectedTokens = new ProjectedTokens(client),
  ) {}

  /** undefined when the ConfigMap does not exist. */
  configMap(name: string): Promise<ConfigMap | undefined> {
    return this.fetch('configmap', name);
  }

  /** undefined when the Secret does not exist. Its values are secret: never log them or put them in errors. */
  secret(name: string): Promise<Secret | undefined> {
    return this.fetch('secret', name);
  }

  persistentVolumeClaim(name: string): Promise<PersistentVolumeClaim | undefined> {
    return this.fetch('persistentvolumeclaim', name);
  }

  /** The Services of the pod's namespace and of `default`: what the Service environment variables come from. */
  services(): Promise<Service[]> {
    this.serviceList ??= Promise.all(
      [...new Set([this.namespace, 'default'])].map(async (namespace) => (await this.client.list<Service>(servicesResource, { namespace })).items),
    ).then(
      (lists) => lists.flat(),
      (error: unknown) => {
        this.serviceList = undefined;
        throw error;
      },
    );
    return this.serviceList;
  }

  private fetch<T extends KubeObject>(kind: ObjectKind, name: string): Promise<T | undefined> {
    const key = `${kind}/${name}`;
    let pending = this.cache.get(key);
    if (pending === undefined) {
      pending = this.client.get(RESOURCES[kind], name, { namespace: this.namespace }).then(
        (object) => object,
        (error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          this.cache.delete(key);
          throw error;
        },
      );
      this.cache.set(key, pending);
    }
    return pending as Promise<T | undefined>;
  }
}

/** A ConfigMap's keys as bytes: data (UTF-8) and binaryData (base64), which the API server keeps disjoint. */
export function configMapEntries(configMap: ConfigMap): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  for (const [key, value] of stringEntries('configmap', configMap, 'data')) entries.set(key, Buffer.from(value, 'utf8'));
  for (const [key, value] of stringEntries('configmap', configMap, 'binaryData')) entries.set(key, Buffer.from(value, 'base64'));
  return entries;
}

/** A Secret's keys, base64-decoded. */
export function secretEntries(secret: Secret): Map<string, Buffer> {
  return new Map(stringEntries('secret', secret, 'data').map(([key, value]) => [key, Buffer.from(value, 'base64')]));
}

/**
 * The entries of a string map. The API server refuses other values, but an object stored by an older server (or
 * another API server) may hold some: that is the pod's configuration error, named, not a TypeError.
 */
function stringEntries(kind: 'configmap' | 'secret', object: ConfigMap | Secret, field: 'data' | 'binaryData'): [string, string][] {
  const map = (object as Record<string, unknown>)[field] ?? {};
  const name = object.metadata.name ?? '';
  if (typeof map !== 'object' || map === null || Array.isArray(map)) {
    throw new SandboxSpecError('CreateContainerConfigError', `${kind} "${name}" has ${field} that is not a map of strings`);
  }
  return Object.entries(map).map(([key, value]) => {
    if (typeof value !== 'string') {
      const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
      throw new SandboxSpecError('CreateContainerConfigError', `${kind} "${name}" key "${key}" in ${field} is ${what}, not a string`);
    }
    return [key, value];
  });
}
