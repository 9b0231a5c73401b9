// Writes that survive update conflicts (client-go's retry.RetryOnConflict around get + mutate + update): the
// mutate function is re-applied to a freshly read object after every 409, so a write that raced ours is kept,
// not overwritten, and ours is not lost. updateStatus (status.ts) writes .status this way, updateObject the rest.
import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '../apimachinery/object.ts';
import type { KubeClient, ResourceTarget } from '../client/client.ts';
import { ConflictError } from '../client/errors.ts';

export interface ConflictRetryOptions {
  /** Attempts in all, the first included; default 6 (client-go's DefaultRetry has 5 steps). */
  attempts?: number;
  /** First pause between attempts, doubled each time with ±50 % jitter; default 10 ms. */
  backoffMs?: number;
  signal?: AbortSignal;
}

/** A write that still conflicted after every attempt: a ConflictError, retried quietly by the controller. */
export class ObjectConflictError extends ConflictError {
  constructor(message: string, options?: { cause?: unknown }) {
    super({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'Conflict', code: 409, message }, options);
  }
}

/**
 * Calls write(current) with obj first and, after each ConflictError, with the object read again, up to
 * `attempts` times; then throws what exhausted(description, attempts, lastConflict) makes. Returns what write
 * returned.
 */
export async function retryOnConflict<T extends KubeObject>(
  client: KubeClient,
  resource: ResourceTarget,
  obj: T,
  write: (current: T) => Promise<T>,
  exhausted: (description: string, attempts: number, cause: unknown) => Error,
  options: ConflictRetryOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 6);
  const name = obj.metadata.name;
  if (!name) throw new TypeError('a conflict retry needs a named object');
  const namespace = obj.metadata.namespace;
  const signal = options.signal ? { signal: options.signal } : {};
  let current = obj;
  let lastConflict: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) {
      await pause(options.backoffMs ?? 10, attempt, options.signal);
      current = await client.get<T>(resource, name, { ...(namespace !== undefined ? { namespace } : {}), ...signal });
    }
    try {
      return await write(current);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      lastConflict = err;
    }
  }
  throw exhausted(`${namespace ? `${namespace}/` : ''}${name}`, attempts, lastConflict);
}

/**
 * Applies mutate to a copy of obj and writes it with update (resourceVersion precondition), again on a fresh
 * copy after each Conflict; nothing is written when mutate changes nothing. Returns the object as stored.
 */
export function updateObject<T extends KubeObject>(client: KubeClient, resource: ResourceTarget, obj: T, mutate: (draft: T) => void, options: ConflictRetryOptions = {}): Promise<T> {
  const write = async (current: T): Promise<T> => {
    const draft = structuredClone(current);
    mutate(draft);
    if (isDeepStrictEqual(draft, current)) return current;
    return client.update<T>(resource, draft, options.signal ? { signal: options.signal } : {});
  };
  return retryOnConflict(client, resource, obj, write, (what, n, cause) => new ObjectConflictError(`${what} still conflicted after ${n} attempts`, { cause }), options);
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
