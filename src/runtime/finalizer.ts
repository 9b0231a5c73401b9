// A finalizer helper in kube-rs's shape: finalizer(client, resource, name, obj, { apply, cleanup }).
//
// Flow, one reconcile at a time:
// 1. Not being deleted and our finalizer missing → add it (nothing else runs; the write triggers the next reconcile).
//    With { applyAfterAdd: true }, apply runs at once on the object as stored (controller-runtime's usual pattern):
//    a controller whose first pass is on a user's critical path saves the round trip through the watch.
// 2. Not being deleted, finalizer present → apply(obj): the normal reconcile.
// 3. Being deleted, finalizer present → cleanup(obj); when it returns, remove the finalizer and return its action.
//    When cleanup throws, the finalizer stays and the error propagates (the controller retries). When it returns
//    cleanupPending(next) (it waits for something a watch will report, e.g. its children going), the finalizer
//    stays and `next` is returned, without an error's backoff.
// 4. Being deleted, finalizer absent → nothing: our part is done, or we never took part.
//
// Every write is a JSON patch guarded by `test` operations on metadata.resourceVersion and on the
// finalizers array (the whole array when adding, the entry at the index when removing): if anyone
// changed the object since we read it, the server rejects the patch instead of letting us remove
// another owner's finalizer that slid into our index, or dropping one that was added meanwhile.
//
// Assumptions (as kube-rs states them): apply and cleanup are idempotent; cleanup must cope with apply
// never having run (the object may be deleted right after the finalizer was added); a deletion stays
// pending while the controller is down, so cleanup is never skipped.
import type { KubeObject } from '../apimachinery/object.ts';
import type { JsonPatchOperation, KubeClient, ResourceTarget } from '../client/client.ts';
import type { Action } from './controller/action.ts';
import { action } from './controller/action.ts';
import { ConflictError, InvalidError, NotFoundError } from '../client/errors.ts';
import { ObjectConflictError, retryOnConflict, type ConflictRetryOptions } from './conflict-retry.ts';
import { messageOf } from '../apimachinery/error-message.ts';

/** What cleanup returns while its work is not finished yet: keep the finalizer, and go on as `next` says. */
export interface CleanupPending {
  readonly pending: Action;
}

export function cleanupPending(next: Action = action.awaitChange()): CleanupPending {
  return { pending: next };
}

export interface FinalizerHandlers<T extends KubeObject> {
  apply(obj: T): Promise<Action>;
  cleanup(obj: T): Promise<Action | CleanupPending>;
}

export interface FinalizerOptions {
  /** Run apply on the stored object right after adding the finalizer, instead of waiting for its watch event. */
  applyAfterAdd?: boolean;
}

export type FinalizerErrorKind = 'AddFinalizer' | 'RemoveFinalizer' | 'UnnamedObject' | 'InvalidFinalizer';

export class FinalizerError extends Error {
  override readonly name = 'FinalizerError' as const;
  readonly kind: FinalizerErrorKind;

  constructor(kind: FinalizerErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

// A qualified name, "domain/name" or just "name" as the API server accepts it (with a warning; upstream
// projects such as Landscaper use "finalizer.landscaper.gardener.cloud").
const finalizerName = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

export async function finalizer<T extends KubeObject>(
  client: KubeClient,
  resource: ResourceTarget,
  name: string,
  obj: T,
  handlers: FinalizerHandlers<T>,
  options: FinalizerOptions = {},
): Promise<Action> {
  const deleting = obj.metadata.deletionTimestamp !== undefined;
  const present = hasFinalizer(obj, name);
  if (!deleting && !present) {
    const stored = await addFinalizer(client, resource, obj, name);
    return options.applyAfterAdd ? handlers.apply(stored) : action.awaitChange();
  }
  if (!deleting) return handlers.apply(obj);
  if (!present) return action.awaitChange();
  const next = await handlers.cleanup(obj);
  if ('pending' in next) return next.pending;
  await removeFinalizer(client, resource, obj, name);
  return next;
}

export function hasFinalizer(obj: KubeObject, name: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(name);
}

/**
 * Adds the finalizer when missing (for controllers whose deletion is a phase of their own rather than one
 * cleanup call). Returns the object as stored, or obj itself when the finalizer was there.
 */
export async function addFinalizer<T extends KubeObject>(client: KubeClient, resource: ResourceTarget, obj: T, name: string): Promise<T> {
  const t = target(obj, name);
  const current = obj.metadata.finalizers ?? [];
  if (current.includes(name)) return obj;
  const ops: JsonPatchOperation[] = [{ op: 'test', path: '/metadata/resourceVersion', value: t.rv }];
  if (current.length === 0) {
    // No array to test or append to: the resourceVersion test stands guard, and we add the whole array.
    ops.push({ op: 'add', path: '/metadata/finalizers', value: [name] });
  } else {
    // The server does not deduplicate finalizers: fail if anyone else changed the array meanwhile.
    ops.push({ op: 'test', path: '/metadata/finalizers', value: current }, { op: 'add', path: '/metadata/finalizers/-', value: name });
  }
  return (await patch<T>(client, resource, t, ops, 'AddFinalizer', `adding finalizer ${name}`)) ?? obj;
}

/** Removes the finalizer when present; an object already gone counts as done. */
export async function removeFinalizer(client: KubeClient, resource: ResourceTarget, obj: KubeObject, name: string): Promise<void> {
  const t = target(obj, name);
  const index = (obj.metadata.finalizers ?? []).indexOf(name);
  if (index < 0) return;
  const path = `/metadata/finalizers/${index}`;
  const ops: JsonPatchOperation[] = [
    { op: 'test', path: '/metadata/resourceVersion', value: t.rv },
    { op: 'test', path, value: name },
    { op: 'remove', path },
  ];
  await patch(client, resource, t, ops, 'RemoveFinalizer', `removing finalizer ${name}`);
}

/**
 * Removes the finalizer from an object others write all the time (a pod: the kubelet writes its status, the Job
 * controller, the chaos controller and an injector their finalizers), where removeFinalizer's resourceVersion
 * guard would fail most reconciles. The patch is guarded by the finalizer's entry alone (test the name at its
 * index, remove it), so a status write in between does not fail it; when the list itself moved (the test fails),
 * the object is read again and the removal retried with backoff. An object already gone counts as done; one that
 * keeps moving ends in an ObjectConflictError, which the controller retries quietly.
 */
export async function removeFinalizerWithRetry(client: KubeClient, resource: ResourceTarget, obj: KubeObject, name: string, options: ConflictRetryOptions = {}): Promise<void> {
  const write = async (current: KubeObject): Promise<KubeObject> => {
    const index = (current.metadata.finalizers ?? []).indexOf(name);
    if (index < 0) return current;
    const t = target(current, name);
    const path = `/metadata/finalizers/${index}`;
    try {
      return (await patch(client, resource, t, [{ op: 'test', path, value: name }, { op: 'remove', path }], 'RemoveFinalizer', `removing finalizer ${name}`, options.signal)) ?? current;
    } catch (err) {
      // The entry moved under us (the list changed since we read it): read again and retry.
      if (err instanceof FinalizerError && err.cause instanceof InvalidError) throw new ObjectConflictError(err.message, { cause: err.cause });
      throw err;
    }
  };
  try {
    await retryOnConflict(client, resource, obj, write, (what, n, cause) => new ObjectConflictError(`removing finalizer ${name} from ${what} still conflicted after ${n} attempts`, { cause }), options);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

/**
 * Strips every finalizer of an object that must go whatever its other owners wait for (Landscaper's forceDelete of
 * a deployed resource). One merge patch; an object already gone, or without finalizers, counts as done.
 */
export async function removeAllFinalizers(client: KubeClient, resource: ResourceTarget, obj: KubeObject): Promise<void> {
  if ((obj.metadata.finalizers ?? []).length === 0) return;
  const namespace = obj.metadata.namespace;
  try {
    await client.patch(resource, obj.metadata.name ?? '', { metadata: { finalizers: null } }, { type: 'merge', ...(namespace !== undefined ? { namespace } : {}) });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

interface Target {
  namespace: string | undefined;
  name: string;
  rv: string;
}

function target(obj: KubeObject, finalizer: string): Target {
  if (!finalizerName.test(finalizer) || finalizer.length > 253) throw new FinalizerError('InvalidFinalizer', `invalid finalizer name "${finalizer}"`);
  const name = obj.metadata.name;
  const rv = obj.metadata.resourceVersion;
  if (!name || !rv) throw new FinalizerError('UnnamedObject', 'the object has no name or resourceVersion: finalizers need a stored object');
  return { namespace: obj.metadata.namespace, name, rv };
}

/** The patched object; undefined when it is gone (NotFound). */
async function patch<T extends KubeObject>(client: KubeClient, resource: ResourceTarget, t: Target, ops: JsonPatchOperation[], kind: FinalizerErrorKind, what: string, signal?: AbortSignal): Promise<T | undefined> {
  try {
    return await client.patch<T>(resource, t.name, ops, { type: 'json', ...(t.namespace !== undefined ? { namespace: t.namespace } : {}), ...(signal ? { signal } : {}) });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    // A conflict stays a ConflictError for the controller (a stale read, retried quietly), wrapped in context.
    if (err instanceof ConflictError) throw err;
    throw new FinalizerError(kind, `${what} on ${t.namespace ? `${t.namespace}/` : ''}${t.name}: ${messageOf(err)}`, { cause: err });
  }
}
