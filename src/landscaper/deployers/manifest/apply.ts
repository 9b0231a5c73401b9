// Applying the manifests into the target cluster (upstream resourcemanager ManifestApplier): CRDs first, then
// cluster-scoped, then namespaced objects. Policies: ignore → skipped; an existing object under `fallback` that
// is not labelled for this deploy item is left alone (not managed); `immutable` is created but never updated;
// manage/keep/fallback update by the update strategy. Objects no longer rendered are deleted (orphans) unless
// their policy is keep/ignore, through the deletion groups for updates.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { messageOf } from '../../../runtime/index.ts';
import type { JSONObject } from '../../api/shared.ts';
import { MANAGED_DEPLOY_ITEM_LABEL, type ManifestConfig } from './config.ts';
import { prepareForDelete } from './deletion.ts';
import { createMergePatch, mergeInto } from './merge.ts';
import { nsOpt, refOf, sameResource, type ManagedResource } from './resources.ts';
import { ConfigurationError, LandscaperError } from '../../ls-error.ts';

export interface ApplyOptions {
  client: KubeClient;
  deployItemName: string;
  config: ManifestConfig;
  previous: ManagedResource[];
  checkpoint(name: string): Promise<void>;
  /** The label naming the deploy item on what is applied (default: the manifest deployer's). */
  managedLabel?: string;
}

export interface PatchAfterDeployment {
  ref: ResourceRef;
  namespace: string | undefined;
  name: string;
  patch: JSONObject;
}

type Entry = ManifestConfig['manifests'][number];

// Fields the server owns: never sent back in an update or a patch.
const SERVER_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'];

const label = (o: ApplyOptions): string => o.managedLabel ?? MANAGED_DEPLOY_ITEM_LABEL;

function withLabel(obj: JSONObject, label: string, name: string): JSONObject {
  const meta = (obj['metadata'] ?? {}) as JSONObject;
  const labels = { ...((meta['labels'] ?? {}) as JSONObject), [label]: name };
  return { ...obj, metadata: { ...meta, labels } };
}

function stripServerFields(obj: JSONObject): JSONObject {
  const meta = { ...((obj['metadata'] ?? {}) as JSONObject) };
  for (const f of SERVER_METADATA) delete meta[f];
  const out: JSONObject = { ...obj, metadata: meta };
  delete out['status'];
  return out;
}

export interface Applied {
  managed: ManagedResource[];
  patches: PatchAfterDeployment[];
  /** Deployed before, no longer rendered, and to be deleted (already annotated/patched before delete). */
  orphans: ManagedResource[];
}

export async function applyManifests(o: ApplyOptions): Promise<Applied> {
  const entries = o.config.manifests.filter((m) => m.policy !== 'ignore');
  const crds = entries.filter((m) => m.manifest['kind'] === 'CustomResourceDefinition');
  const rest = entries.filter((m) => m.manifest['kind'] !== 'CustomResourceDefinition');
  const managed: ManagedResource[] = [];
  const patches: PatchAfterDeployment[] = [];
  const errors: string[] = [];

  const run = async (group: Entry[], resolved: Map<Entry, ResourceRef>): Promise<void> => {
    const results: ManagedResource[] = [];
    for (const entry of group) {
      await o.checkpoint('deployer: apply manifests');
      try {
        const out = await applyOne(o, entry, resolved.get(entry)!);
        if (out.managed) results.push(out.managed);
        if (out.patch) patches.push(out.patch);
      } catch (err) {
        if (err instanceof LandscaperError && err.reason === 'ApplyNewObject') errors.push(err.message);
        else throw err;
      }
    }
    results.sort((a, b) => JSON.stringify(a.resource).localeCompare(JSON.stringify(b.resource)));
    managed.push(...results);
  };

  const resolveAll = async (group: Entry[]): Promise<Map<Entry, ResourceRef>> => {
    const map = new Map<Entry, ResourceRef>();
    for (const entry of group) {
      const apiVersion = String(entry.manifest['apiVersion']);
      const kind = String(entry.manifest['kind']);
      try {
        map.set(entry, await o.client.resolve({ apiVersion, kind }));
      } catch (err) {
        if (err instanceof NotFoundError) throw new ConfigurationError('ApplyObjects', 'UnknownResourceType', `the target cluster does not serve ${apiVersion} ${kind}`, undefined, { cause: err });
        throw err;
      }
    }
    return map;
  };

  await run(crds, await resolveAll(crds));
  // Only now can kinds of the CRDs just applied be resolved, once the API server serves them.
  await Promise.all(managed.filter((m) => m.resource.kind === 'CustomResourceDefinition').map((m) => waitEstablished(o.client, m.resource.name)));
  const resolved = await resolveAll(rest);
  await run(rest.filter((m) => !resolved.get(m)!.namespaced), resolved);
  await run(rest.filter((m) => resolved.get(m)!.namespaced), resolved);
  if (errors.length > 0) throw new LandscaperError('ApplyObjects', 'ApplyNewObject', errors.join('; '));

  return { managed, patches, orphans: await prepareOrphans(o, managed) };
}

const crdsResource = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
/** How long a CRD may take to be served (kube-apiserver establishes one in well under a second). */
const ESTABLISH_TIMEOUT_SECONDS = 30;

const established = (crd: KubeObject): boolean =>
  ((crd['status'] as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');

/** Resolves once the CRD is Established, watching it (a CRD that never is fails the apply, naming it). */
async function waitEstablished(client: KubeClient, name: string): Promise<void> {
  const list = await client.list(crdsResource, { fieldSelector: `metadata.name=${name}` });
  if (list.items.some(established)) return;
  const watch = await client.watch(crdsResource, { fieldSelector: `metadata.name=${name}`, resourceVersion: list.metadata.resourceVersion, timeoutSeconds: ESTABLISH_TIMEOUT_SECONDS });
  try {
    for await (const event of watch) if (event.type !== 'DELETED' && established(event.object)) return;
  } finally {
    watch.close();
  }
  throw new LandscaperError('ApplyObjects', 'CRDNotEstablished', `CustomResourceDefinition ${name} was not established within ${ESTABLISH_TIMEOUT_SECONDS} s`);
}

async function applyOne(o: ApplyOptions, entry: Entry, ref: ResourceRef): Promise<{ managed?: ManagedResource; patch?: PatchAfterDeployment }> {
  const desired = structuredClone(entry.manifest);
  const meta = (desired['metadata'] ?? {}) as JSONObject;
  const name = String(meta['name']);
  const namespace = ref.namespaced ? (typeof meta['namespace'] === 'string' && meta['namespace'] !== '' ? meta['namespace'] : 'default') : undefined;
  if (namespace !== undefined) meta['namespace'] = namespace;
  else delete meta['namespace'];
  desired['metadata'] = meta;
  const key = `${ref.kind} ${namespace ? `${namespace}/` : ''}${name}`;
  const status = (obj: KubeObject): ManagedResource => ({
    ...(entry.annotateBeforeDelete ? { annotateBeforeDelete: entry.annotateBeforeDelete } : {}),
    ...(entry.patchBeforeDelete !== undefined ? { patchBeforeDelete: entry.patchBeforeDelete } : {}),
    policy: entry.policy,
    resource: refOf(obj),
  });
  const patchInfo = (): PatchAfterDeployment | undefined =>
    entry.patchAfterDeployment && typeof entry.patchAfterDeployment === 'object' && !Array.isArray(entry.patchAfterDeployment)
      ? { ref, namespace, name, patch: entry.patchAfterDeployment }
      : undefined;
  const fail = (what: string, err: unknown): never => {
    throw new LandscaperError('ApplyObjects', 'ApplyNewObject', `unable to ${what} resource ${key}: ${messageOf(err)}`, [], { cause: err });
  };

  let current: KubeObject | undefined;
  try {
    current = await o.client.get(ref, name, nsOpt(ref, namespace));
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }

  if (!current) {
    let obj = withLabel(desired, label(o), o.deployItemName);
    if (entry.annotateBeforeCreate) {
      const m = obj['metadata'] as JSONObject;
      obj = { ...obj, metadata: { ...m, annotations: { ...((m['annotations'] ?? {}) as JSONObject), ...entry.annotateBeforeCreate } } };
    }
    let created: KubeObject;
    try {
      created = await o.client.create(ref, obj as unknown as KubeObject, nsOpt(ref, namespace));
    } catch (err) {
      return fail('create', err);
    }
    const patch = patchInfo();
    return { managed: status(created), ...(patch ? { patch } : {}) };
  }

  if (entry.policy === 'fallback' && current.metadata.labels?.[label(o)] !== o.deployItemName) {
    // Someone else manages it: neither updated nor tracked.
    return {};
  }
  if (entry.policy === 'immutable') return { managed: status(current) };

  let stored: KubeObject;
  try {
    switch (o.config.updateStrategy) {
      case 'update': {
        const obj = withLabel(desired, label(o), o.deployItemName);
        (obj['metadata'] as JSONObject)['resourceVersion'] = current.metadata.resourceVersion ?? '';
        stored = await o.client.update(ref, obj as unknown as KubeObject, nsOpt(ref, namespace));
        break;
      }
      case 'patch': {
        // client.MergeFrom(current): the merge patch from the live object to the desired one.
        const base = stripServerFields(current as unknown as JSONObject);
        const patch = createMergePatch(base, withLabel(desired, label(o), o.deployItemName));
        stored = Object.keys(patch).length === 0 ? current : await o.client.patch(ref, name, patch, { type: 'merge', ...nsOpt(ref, namespace) });
        break;
      }
      case 'merge':
      case 'mergeOverwrite': {
        const merged = withLabel(mergeInto(current as unknown as JSONObject, desired, o.config.updateStrategy === 'mergeOverwrite'), label(o), o.deployItemName);
        (merged['metadata'] as JSONObject)['resourceVersion'] = current.metadata.resourceVersion ?? '';
        stored = await o.client.update(ref, merged as unknown as KubeObject, nsOpt(ref, namespace));
        break;
      }
    }
  } catch (err) {
    return fail('update', err);
  }
  const patch = patchInfo();
  return { managed: status(stored), ...(patch ? { patch } : {}) };
}

async function prepareOrphans(o: ApplyOptions, managed: ManagedResource[]): Promise<ManagedResource[]> {
  await o.checkpoint('deployer: cleanup orphaned');
  const orphans: ManagedResource[] = [];
  for (const mr of o.previous) {
    if (managed.some((m) => sameResource(m.resource, mr.resource))) continue;
    if (await prepareForDelete(o.client, mr, o.deployItemName, label(o))) orphans.push(mr);
  }
  return orphans;
}

/** patchAfterDeployment: merged (override) into the live object and written back. */
export async function patchAfterDeployment(client: KubeClient, patches: PatchAfterDeployment[]): Promise<void> {
  for (const p of patches) {
    const current = await client.get(p.ref, p.name, nsOpt(p.ref, p.namespace));
    const merged = mergeInto(current as unknown as JSONObject, p.patch, true);
    await client.update(p.ref, merged as unknown as KubeObject, nsOpt(p.ref, p.namespace));
  }
}
