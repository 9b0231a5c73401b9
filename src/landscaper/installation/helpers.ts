// Small facts about installations: root or not, parent, scope contexts, annotations, cache-then-server reads.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Informer } from '../../runtime/index.ts';
import { DEFAULT_CONTEXT_NAME, KIND_INSTALLATION, LANDSCAPER_GROUP, OPERATION_ANNOTATION, TOUCH_ANNOTATION } from '../api/constants.ts';
import type { Installation, InstallationStatus } from '../api/installation.ts';
import { installationScopeContext, installationSource } from '../naming.ts';
import type { Deps } from './types.ts';

export function nameOf(obj: KubeObject): string {
  return obj.metadata.name ?? '';
}

export function namespaceOf(obj: KubeObject): string {
  return obj.metadata.namespace ?? 'default';
}

/** The parent's name from the controller reference to an Installation; undefined for roots. */
export function parentName(inst: Installation): string | undefined {
  const ref = (inst.metadata.ownerReferences ?? []).find(
    (r) => r.kind === KIND_INSTALLATION && r.apiVersion.startsWith(`${LANDSCAPER_GROUP}/`),
  );
  return ref?.name;
}

export function isRoot(inst: Installation): boolean {
  return parentName(inst) === undefined;
}

/** The scope the installation imports from and exports into ("" for roots). */
export function scopeContext(inst: Installation): string {
  return installationScopeContext(parentName(inst));
}

/** The scope of the installation's own imports and its subinstallations' exports. */
export function childContext(inst: Installation): string {
  return installationSource(nameOf(inst));
}

export function contextName(inst: Installation): string {
  return inst.spec.context !== undefined && inst.spec.context !== '' ? inst.spec.context : DEFAULT_CONTEXT_NAME;
}

export function annotation(obj: KubeObject, key: string): string | undefined {
  return obj.metadata.annotations?.[key];
}

export function operationOf(obj: KubeObject): string | undefined {
  return annotation(obj, OPERATION_ANNOTATION);
}

export function statusOf(inst: Installation): InstallationStatus {
  return inst.status ?? { observedGeneration: 0 };
}

export function jobRunning(inst: Installation): boolean {
  const s = statusOf(inst);
  return (s.jobID ?? '') !== (s.jobIDFinished ?? '');
}

export function isDeleting(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined;
}

/** A merge patch that flips the touch annotation: an update event and nothing else. */
export function touchPatch(obj: KubeObject, extra: Record<string, string | null> = {}): Record<string, unknown> {
  const touched = annotation(obj, TOUCH_ANNOTATION) !== undefined;
  return { metadata: { annotations: { [TOUCH_ANNOTATION]: touched ? null : 'true', ...extra } } };
}

/** The object from the informer cache, else from the server (it may be too new for the cache); undefined when gone. */
export async function getFresh<T extends KubeObject>(deps: Deps, informer: Informer<T>, resource: ResourceRef, namespace: string, name: string): Promise<T | undefined> {
  const cached = informer.get(name, namespace);
  if (cached !== undefined) return structuredClone(cached);
  try {
    return await deps.client.get<T>(resource, name, { namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export async function getOrUndefined<T extends KubeObject>(deps: Deps, resource: ResourceRef, namespace: string, name: string): Promise<T | undefined> {
  try {
    return await deps.client.get<T>(resource, name, { namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export function ownerRef(inst: Installation, controller: boolean): NonNullable<KubeObject['metadata']['ownerReferences']>[number] {
  return {
    apiVersion: inst.apiVersion,
    kind: KIND_INSTALLATION,
    name: nameOf(inst),
    uid: inst.metadata.uid ?? '',
    ...(controller ? { controller: true, blockOwnerDeletion: true } : {}),
  };
}

/** The installation exports data or targets into its parent scope. */
export const hasExports = (inst: Installation): boolean => (inst.spec.exports?.data?.length ?? 0) + (inst.spec.exports?.targets?.length ?? 0) > 0;

/** The installation imports data or targets (copied into its own context). */
export const hasImports = (inst: Installation): boolean => (inst.spec.imports?.data?.length ?? 0) + (inst.spec.imports?.targets?.length ?? 0) > 0;
