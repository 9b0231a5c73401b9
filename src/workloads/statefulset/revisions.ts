// A StatefulSet's history (pkg/controller/history and the statefulset controller's revision code): each distinct
// pod template is an apps/v1 ControllerRevision named `<set>-<hash>` whose data is the strategic merge patch that
// restores it (`{"spec":{"template":{…,"$patch":"replace"}}}`, what `kubectl rollout undo` applies). The hash is
// FNV-1 (32 bit) over the patch's JSON (keys sorted, as Go's encoder writes maps) and the collision count, encoded
// with rand.SafeEncodeString's alphabet; a name taken by a different revision bumps the collision count.
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import { controllerRevisionsResource } from '../../apimachinery/builtin-resources.ts';
import type { ControllerRevision, PodTemplateSpec, StatefulSet } from '../../apimachinery/api/index.ts';
import type { OwnerReference } from '../../apimachinery/object.ts';
import { safeEncodeString } from '../deployment/template-hash.ts';
import { REVISION_LABEL } from './identity.ts';

/** What a revision snapshots: an owner with a pod template (StatefulSets and DaemonSets). */
export type TemplatedOwner = Pick<StatefulSet, 'metadata'> & { spec: { template: PodTemplateSpec } };

/** Go's json.Marshal of a map: keys in order, no spaces. */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function fnv32(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h >>> 0;
}

/** history.HashControllerRevision with the collision count as its probe. */
export function hashRevision(data: unknown, collisionCount: number): string {
  return safeEncodeString(String(fnv32(new TextEncoder().encode(sortedJson(data) + String(collisionCount)))));
}

/** getPatch: the patch that restores the set's pod template. */
export function revisionData(set: TemplatedOwner): Record<string, unknown> {
  return { spec: { template: { ...structuredClone(set.spec.template), $patch: 'replace' } } };
}

/** The pod template a revision restores (ApplyRevision of the template-only patch). */
export function templateOf(revision: ControllerRevision): PodTemplateSpec {
  const template = structuredClone(((revision.data?.['spec'] ?? {}) as { template?: Record<string, unknown> }).template ?? {});
  delete template['$patch'];
  return template as unknown as PodTemplateSpec;
}

/** history.EqualRevision: the same data (hash labels are not numbers, so only the data decides, as upstream). */
export function equalRevision(a: ControllerRevision, b: ControllerRevision): boolean {
  return sortedJson(a.data) === sortedJson(b.data);
}

/** SortControllerRevisions: by revision number, then creation time, then name. */
export function sortRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
  return revisions.sort(
    (a, b) => a.revision - b.revision || (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
}

export function nextRevision(sorted: readonly ControllerRevision[]): number {
  return (sorted.at(-1)?.revision ?? 0) + 1;
}

/** newRevision: the set's template as a revision (unnamed until created), labelled with the template's labels. */
export function newRevision(set: TemplatedOwner, revision: number, ref: OwnerReference): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      namespace: set.metadata.namespace ?? '',
      labels: { ...set.spec.template.metadata?.labels },
      ...(set.metadata.annotations ? { annotations: { ...set.metadata.annotations } } : {}),
      ownerReferences: [ref],
    },
    data: revisionData(set),
    revision,
  };
}

/**
 * history.CreateControllerRevision: names the revision by its hash and creates it; when the name is taken by an
 * equal revision that one is returned, by another the collision count goes up and the next name is tried.
 */
export async function createRevision(client: KubeClient, set: TemplatedOwner, revision: ControllerRevision, collision: { count: number }): Promise<ControllerRevision> {
  for (;;) {
    const hash = hashRevision(revision.data, collision.count);
    // ControllerRevisionName: the prefix is cut so the name stays a DNS subdomain.
    const name = `${(set.metadata.name ?? '').slice(0, 223)}-${hash}`;
    const candidate: ControllerRevision = { ...revision, metadata: { ...revision.metadata, name, labels: { ...revision.metadata.labels, [REVISION_LABEL]: hash } } };
    try {
      return await client.create<ControllerRevision>(controllerRevisionsResource, candidate);
    } catch (err) {
      if (!(err instanceof AlreadyExistsError)) throw err;
    }
    const existing = await client.get<ControllerRevision>(controllerRevisionsResource, name, { namespace: set.metadata.namespace ?? '' });
    if (equalRevision(existing, candidate)) return existing;
    collision.count++;
  }
}

/** history.UpdateControllerRevision: a rollback to an earlier template renumbers its revision. */
export async function renumberRevision(client: KubeClient, revision: ControllerRevision, number: number): Promise<ControllerRevision> {
  if (revision.revision === number) return revision;
  return client.patch<ControllerRevision>(controllerRevisionsResource, revision.metadata.name ?? '', { revision: number }, { type: 'merge', namespace: revision.metadata.namespace ?? '' });
}

export async function deleteRevision(client: KubeClient, revision: ControllerRevision): Promise<void> {
  try {
    await client.delete(controllerRevisionsResource, revision.metadata.name ?? '', { namespace: revision.metadata.namespace ?? '' });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
