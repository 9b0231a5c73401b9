// Status writes that survive update conflicts (client-go's retry.RetryOnConflict around get + mutate + update):
// the mutate function is re-applied to a freshly read object after every 409, so no status is lost.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../apimachinery/object.ts';
import type { KubeClient, ResourceTarget } from '../client/client.ts';
import { ConflictError } from '../client/errors.ts';

export interface UpdateStatusOptions {
  /** Attempts in all, the first included; default 6. */
  attempts?: number;
  /** First pause between attempts, doubled each time with ±50 % jitter; default 10 ms. */
  backoffMs?: number;
  signal?: AbortSignal;
}

export class StatusConflictError extends Error {
  override readonly name = 'StatusConflictError' as const;
}

/**
 * Applies mutate to a copy of obj and writes it with updateStatus (resourceVersion precondition). On a
 * Conflict it re-reads the object and applies mutate again, up to `attempts` times; mutate may throw to give
 * up when the fresh object shows the change no longer applies. When mutate leaves .status unchanged nothing
 * is written. Returns the object as stored. Only metadata and status are copied: mutate must not change the
 * spec (large specs made the copy the cost of a write).
 */
export async function updateStatus<T extends KubeObject>(
  client: KubeClient,
  resource: ResourceTarget,
  obj: T,
  mutate: (draft: T) => void | Promise<void>,
  options: UpdateStatusOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 6);
  const name = obj.metadata.name;
  if (!name) throw new TypeError('updateStatus needs a named object');
  const namespace = obj.metadata.namespace;
  let current = obj;
  let lastConflict: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) {
      await pause(options.backoffMs ?? 10, attempt, options.signal);
      current = await client.get<T>(resource, name, { ...(namespace !== undefined ? { namespace } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    }
    const draft = { ...current, metadata: structuredClone(current.metadata), status: structuredClone(current.status) };
    await mutate(draft);
    if (isDeepStrictEqual(draft.status, current.status)) return current;
    try {
      return await client.updateStatus<T>(resource, draft, options.signal ? { signal: options.signal } : {});
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      lastConflict = err;
    }
  }
  throw new StatusConflictError(`status of ${namespace ? `${namespace}/` : ''}${name} still conflicted after ${attempts} attempts`, { cause: lastConflict });
}

function pause(baseMs: number, attempt: number, signal: AbortSignal | undefined): Promise<void> {
  const ms = baseMs * 2 ** (attempt - 1) * (0.5 + Math.random());
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }, { once: true });
  });
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
