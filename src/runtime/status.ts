// Status writes that survive update conflicts: the mutate function is re-applied to a freshly read object after
// every 409 (conflict-retry.ts), so no status is lost.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../apimachinery/object.ts';
import type { KubeClient, ResourceTarget } from '../client/client.ts';
import { ConflictError } from '../client/errors.ts';
import { retryOnConflict, type ConflictRetryOptions } from './conflict-retry.ts';

export type UpdateStatusOptions = ConflictRetryOptions;

/**
 * A status write that still conflicted after every attempt. It is a ConflictError, so the controller retries
 * it quietly like any stale read instead of each reconciler catching it.
 */
export class StatusConflictError extends ConflictError {
  constructor(message: string, options?: { cause?: unknown }) {
    super({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message }, options);
  }
}

/**
 * Applies mutate to a copy of obj and writes it with updateStatus (resourceVersion precondition). On a
 * Conflict it re-reads the object and applies mutate again, up to `attempts` times; mutate may throw to give
 * up when the fresh object shows the change no longer applies. When mutate leaves .status unchanged nothing
 * is written. Returns the object as stored. Only metadata and status are copied: mutate must not change the
 * spec (large specs made the copy the cost of a write).
 */
export function updateStatus<T extends KubeObject>(
  client: KubeClient,
  resource: ResourceTarget,
  obj: T,
  mutate: (draft: T) => void | Promise<void>,
  options: UpdateStatusOptions = {},
): Promise<T> {
  const write = async (current: T): Promise<T> => {
    const draft = { ...current, metadata: structuredClone(current.metadata), status: structuredClone(current.status) };
    await mutate(draft);
    if (isDeepStrictEqual(draft.status, current.status)) return current;
    return client.updateStatus<T>(resource, draft, options.signal ? { signal: options.signal } : {});
  };
  return retryOnConflict(client, resource, obj, write, (what, n, cause) => new StatusConflictError(`status of ${what} still conflicted after ${n} attempts`, { cause }), options);
}

/** The one way a controller writes status: updateStatus, plus what the controller must learn of each write. */
export interface StatusWriter<T extends KubeObject> {
  write(obj: T, mutate: (draft: T) => void | Promise<void>, options?: UpdateStatusOptions): Promise<T>;
}

export interface StatusWriterOptions<T extends KubeObject> {
  /** Told of every write that changed the object (e.g. to read one's own writes before the cache has them). */
  afterWrite?(before: T, stored: T): void;
}

export function statusWriter<T extends KubeObject>(client: KubeClient, resource: ResourceTarget, options: StatusWriterOptions<T> = {}): StatusWriter<T> {
  return {
    async write(obj, mutate, writeOptions) {
      const stored = await updateStatus(client, resource, obj, mutate, writeOptions);
      if (stored !== obj) options.afterWrite?.(obj, stored);
      return stored;
    },
  };
}
