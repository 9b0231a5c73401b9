// A release's resources in the cluster, as Helm's kube client handles them: objects of the manifest created in
// install order with Helm's ownership marks (label app.kubernetes.io/managed-by=Helm, annotations
// meta.helm.sh/release-name and -namespace); an upgrade patches each object with the three-way merge of old
// manifest, new manifest and live object (changes others made to fields the chart does not set are kept),
// creates what is new and deletes what the chart no longer renders unless `helm.sh/resource-policy: keep`.
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../../apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../../../client/client.ts';
import { NotFoundError } from '../../../../client/errors.ts';
import { INSTALL_ORDER } from '../../../../template/helm/sort.ts';
import type { JSONObject } from '../../../api/shared.ts';
import { createMergePatch } from '../../manifest/merge.ts';

export const RESOURCE_POLICY_ANNOTATION = 'helm.sh/resource-policy';

export interface ReleaseObject {
  ref: ResourceRef;
  namespace: string | undefined;
  name: string;
  object: JSONObject;
}

const key = (o: { ref: ResourceRef; namespace: string | undefined; name: string }): string => `${o.ref.group}/${o.ref.kind}/${o.namespace ?? ''}/${o.name}`;

function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The objects of a manifest, resolved against the cluster; namespaced ones without a namespace in `namespace`. */
export async function manifestObjects(client: KubeClient, manifest: string, namespace: string): Promise<ReleaseObject[]> {
  const out: ReleaseObject[] = [];
  for (const doc of parseAllDocuments(manifest)) {
    const value: unknown = doc.toJS();
    if (!isObject(value) || typeof value['apiVersion'] !== 'string' || typeof value['kind'] !== 'string' || !isObject(value['metadata'])) continue;
    const items = value['kind'].endsWith('List') && Array.isArray(value['items']) ? value['items'].filter(isObject) : [value];
    for (const item of items) {
      const meta = item['metadata'] as JSONObject;
      const ref = await client.resolve({ apiVersion: String(item['apiVersion']), kind: String(item['kind']) });
      const ns = ref.namespaced ? (typeof meta['namespace'] === 'string' && meta['namespace'] !== '' ? meta['namespace'] : namespace) : undefined;
      out.push({ ref, namespace: ns, name: String(meta['name']), object: { ...item, metadata: { ...meta, ...(ns !== undefined ? { namespace: ns } : {}) } } });
    }
  }
  return out;
}

const rank = (o: ReleaseObject): number => {
  const i = INSTALL_ORDER.indexOf(o.ref.kind);
  return i === -1 ? INSTALL_ORDER.length : i;
};

/** Install order (stable), as Helm creates; uninstall deletes in the reverse. */
export function inInstallOrder(objects: ReleaseObject[]): ReleaseObject[] {
  return objects.map((o, i) => ({ o, i })).sort((a, b) => rank(a.o) - rank(b.o) || a.i - b.i).map(({ o }) => o);
}

function owned(object: JSONObject, release: { name: string; namespace: string }): JSONObject {
  const meta = object['metadata'] as JSONObject;
  return {
    ...object,
    metadata: {
      ...meta,
      labels: { ...(isObject(meta['labels']) ? meta['labels'] : {}), 'app.kubernetes.io/managed-by': 'Helm' },
      annotations: { ...(isObject(meta['annotations']) ? meta['annotations'] : {}), 'meta.helm.sh/release-name': release.name, 'meta.helm.sh/release-namespace': release.namespace },
    },
  };
}

export class ReleaseResourceError extends Error {}

/**
 * Makes the cluster hold `next` where it held `previous`: creates, patches (three-way) and deletes. An object
 * that exists but belongs to no release of this name is not taken over unless takeOwnership, as Helm 3.17+.
 */
export async function applyRelease(client: KubeClient, release: { name: string; namespace: string }, previous: ReleaseObject[], next: ReleaseObject[], options: { takeOwnership?: boolean } = {}): Promise<void> {
  const before = new Map(previous.map((o) => [key(o), o]));
  for (const target of inInstallOrder(next)) {
    const desired = owned(target.object, release);
    const opts = target.namespace !== undefined ? { namespace: target.namespace } : {};
    let live: KubeObject | undefined;
    try {
      live = await client.get(target.ref, target.name, opts);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
    if (!live) {
      await client.create(target.ref, desired as unknown as KubeObject, opts);
      continue;
    }
    const old = before.get(key(target));
    const owner = live.metadata.annotations?.['meta.helm.sh/release-name'];
    if (!old && owner !== release.name && options.takeOwnership !== true) {
      throw new ReleaseResourceError(`${target.ref.kind} "${target.name}"${target.namespace ? ` in namespace "${target.namespace}"` : ''} exists and cannot be imported into the current release: invalid ownership metadata; annotation validation error: key "meta.helm.sh/release-name" must equal "${release.name}": current value is "${owner ?? ''}"`);
    }
    // Three-way: what the chart changed since the previous release goes onto the live object; what others set stays.
    const patch = createMergePatch(old ? owned(old.object, release) : (live as unknown as JSONObject), desired);
    delete patch['status'];
    if (Object.keys(patch).length > 0) await client.patch(target.ref, target.name, patch, { type: 'merge', ...opts });
  }
  const wanted = new Set(next.map(key));
  await deleteObjects(client, previous.filter((o) => !wanted.has(key(o))));
}

/** Deletes objects in reverse install order, leaving those annotated `helm.sh/resource-policy: keep`. */
export async function deleteObjects(client: KubeClient, objects: ReleaseObject[]): Promise<void> {
  for (const o of inInstallOrder(objects).reverse()) {
    const meta = o.object['metadata'] as JSONObject;
    if (isObject(meta['annotations']) && meta['annotations'][RESOURCE_POLICY_ANNOTATION] === 'keep') continue;
    await client.delete(o.ref, o.name, o.namespace !== undefined ? { namespace: o.namespace } : {}).catch((err: unknown) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  }
}
