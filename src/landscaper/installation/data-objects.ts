// Writing Landscaper-managed DataObjects and Targets (import copies in the own context, exports in the
// parent scope) with upstream names, labels, hash annotation and owner references.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject, OwnerReference } from '../../apimachinery/object.ts';
import { NotFoundError } from '../../client/errors.ts';
import { KIND_INSTALLATION } from '../api/constants.ts';
import type { DataObject } from '../api/data-object.ts';
import type { Installation } from '../api/installation.ts';
import type { AnyJSON } from '../api/shared.ts';
import type { Target, TargetSpec } from '../api/target.ts';
import { dataObjectLabels, encodeDataObjectData, type DataObjectMetadata } from '../naming.ts';
import { getOrUndefined, nameOf, namespaceOf, ownerRef } from './helpers.ts';
import { dataObjectsResource, targetsResource } from '../api/resources.ts';
import type { Deps } from './types.ts';
import { ConfigurationError } from '../ls-error.ts';

export interface WriteOptions {
  /** Exports: fail when another installation owns the object (upstream SetExclusiveOwnerReference). */
  exclusive?: boolean;
}

function mergeOwner(existing: OwnerReference[] | undefined, owner: OwnerReference, exclusive: boolean, what: string): OwnerReference[] {
  const refs = existing ?? [];
  if (exclusive) {
    const other = refs.find((r) => r.kind === KIND_INSTALLATION && r.uid !== owner.uid);
    if (other !== undefined) {
      throw new ConfigurationError('Completing', 'ExportConflict', `${what} is already exported by installation ${other.name}; an export must have exactly one exporter`);
    }
  }
  return refs.some((r) => r.uid === owner.uid) ? refs : [...refs, owner];
}

async function upsert<T extends KubeObject>(deps: Deps, resource: typeof dataObjectsResource, desired: T, owner: Installation, opts: WriteOptions, what: string, body: (o: T) => unknown): Promise<void> {
  const ns = namespaceOf(owner);
  const name = desired.metadata.name ?? '';
  const existing = await getOrUndefined<T>(deps, resource, ns, name);
  const owners = mergeOwner(existing?.metadata.ownerReferences, ownerRef(owner, false), opts.exclusive ?? false, what);
  if (existing === undefined) {
    // AlreadyExists (created meanwhile) is a normal error: the retry updates it.
    await deps.client.create<T>(resource, { ...desired, metadata: { ...desired.metadata, namespace: ns, ownerReferences: owners } });
    return;
  }
  const labels = { ...existing.metadata.labels, ...desired.metadata.labels };
  const annotations = { ...existing.metadata.annotations, ...desired.metadata.annotations };
  if (
    isDeepStrictEqual(body(existing), body(desired)) &&
    isDeepStrictEqual(labels, existing.metadata.labels ?? {}) &&
    isDeepStrictEqual(annotations, existing.metadata.annotations ?? {}) &&
    isDeepStrictEqual(owners, existing.metadata.ownerReferences ?? [])
  ) {
    return;
  }
  const next = { ...existing, ...(body(desired) as object), metadata: { ...existing.metadata, labels, annotations, ownerReferences: owners } } as T;
  await deps.client.update<T>(resource, next);
}

export async function writeDataObject(deps: Deps, owner: Installation, name: string, meta: DataObjectMetadata, data: AnyJSON, opts: WriteOptions = {}): Promise<void> {
  const { annotations } = encodeDataObjectData(data);
  const desired: DataObject = {
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'DataObject',
    metadata: { name, labels: dataObjectLabels(meta), annotations },
    data,
  };
  await upsert(deps, dataObjectsResource, desired, owner, opts, `DataObject ${name}`, (o) => ({ data: o.data ?? null }));
}

/** A Target spec from an imported Target (its spec) or an export value (a TargetTemplate, or an object with spec). */
export function targetSpecOf(value: AnyJSON | undefined): { spec: TargetSpec; labels: Record<string, string>; annotations: Record<string, string> } | undefined {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const v = value as { [k: string]: AnyJSON };
  const src = (v['spec'] !== null && typeof v['spec'] === 'object' && !Array.isArray(v['spec']) ? v['spec'] : v) as { [k: string]: AnyJSON };
  if (typeof src['type'] !== 'string') return undefined;
  const spec: TargetSpec = { type: src['type'] };
  if (src['config'] !== undefined) spec.config = src['config'];
  const sr = src['secretRef'];
  if (sr !== null && typeof sr === 'object' && !Array.isArray(sr) && typeof sr['name'] === 'string') {
    spec.secretRef = { name: sr['name'], ...(typeof sr['key'] === 'string' ? { key: sr['key'] } : {}) };
  }
  const strMap = (x: AnyJSON | undefined): Record<string, string> =>
    x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
  return { spec, labels: v['spec'] === undefined ? strMap(v['labels']) : {}, annotations: v['spec'] === undefined ? strMap(v['annotations']) : {} };
}

export async function writeTarget(deps: Deps, owner: Installation, name: string, meta: DataObjectMetadata, value: AnyJSON | undefined, opts: WriteOptions = {}): Promise<void> {
  const parsed = targetSpecOf(value);
  if (parsed === undefined) throw new ConfigurationError('Target', 'InvalidTarget', `target ${name} (key ${meta.key ?? ''}) has no .type: it is not a target`);
  const desired: Target = {
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Target',
    metadata: { name, labels: { ...parsed.labels, ...dataObjectLabels(meta) }, annotations: parsed.annotations },
    spec: parsed.spec,
  };
  await upsert(deps, targetsResource, desired, owner, opts, `Target ${name}`, (o) => ({ spec: o.spec }));
}

/** Deletes the DataObjects and Targets matching a label selector, except those `keep` accepts. */
export async function deleteManaged(deps: Deps, inst: Installation, labelSelector: string, keep: (o: KubeObject) => boolean = () => false): Promise<void> {
  const ns = namespaceOf(inst);
  for (const resource of [dataObjectsResource, targetsResource]) {
    const list = await deps.client.list(resource, { namespace: ns, labelSelector });
    for (const o of list.items) {
      if (keep(o)) continue;
      try {
        await deps.client.delete(resource, nameOf(o), { namespace: ns });
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
  }
}
