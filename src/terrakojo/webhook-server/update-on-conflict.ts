// An object update that survives conflicts (client-go's retry.RetryOnConflict around get + mutate + update,
// as upstream's webhook does it): mutate is re-applied to a freshly read object after every 409, so a write
// that raced ours (the Repository controller setting labels or finalizers) is kept, not overwritten.
// src/runtime/status.ts does the same for .status; this is its twin for the rest of the object.
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { KubeClient, ResourceTarget } from '../../client/client.ts';
import { ConflictError } from '../../client/errors.ts';

export interface UpdateOnConflictOptions {
  /** Attempts in all, the first included; default 6 (client-go's DefaultRetry has 5 steps). */
  attempts?: number;
  /** First pause between attempts, doubled each time with ±50 % jitter; default 10 ms. */
  backoffMs?: number;
  signal?: AbortSignal;
}

export class UpdateConflictError extends Error {
  override readonly name = 'UpdateConflictError' as const;
}

/** Writes mutate(copy of obj) with obj's resourceVersion; on a Conflict re-reads and tries again. Returns the stored object. */
export async function updateOnConflict<T extends KubeObject>(
  client: KubeClient,
  resource: ResourceTarget,
  obj: T,
  mutate: (draft: T) => void,
  options: UpdateOnConflictOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 6);
  const name = obj.metadata.name;
  if (!name) throw new TypeError('updateOnConflict needs a named object');
  const namespace = obj.metadata.namespace;
  const signal = options.signal ? { signal: options.signal } : {};
  let current = obj;
  let lastConflict: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) {
      await sleep((options.backoffMs ?? 10) * 2 ** (attempt - 1) * (0.5 + Math.random()), undefined, signal);
      current = await client.get<T>(resource, name, { ...(namespace !== undefined ? { namespace } : {}), ...signal });
    }
    const draft = structuredClone(current);
    mutate(draft);
    try {
      return await client.update<T>(resource, draft, signal);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      lastConflict = err;
    }
  }
  throw new UpdateConflictError(`${namespace ? `${namespace}/` : ''}${name} still conflicted after ${attempts} attempts`, { cause: lastConflict });
}
