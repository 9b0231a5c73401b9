// controller.slowStartBatch: calls fn count times in batches of 1, 2, 4…, stopping after a batch with a failure,
// so a controller that cannot create (quota, a bad template) does not send hundreds of doomed requests.

export interface SlowStartResult {
  succeeded: number;
  /** Calls never made because an earlier batch failed. */
  skipped: number;
  errors: unknown[];
}

export async function slowStartBatch(count: number, fn: () => Promise<void>, initialBatchSize = 1): Promise<SlowStartResult> {
  let remaining = count;
  let succeeded = 0;
  const errors: unknown[] = [];
  for (let batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
    const results = await Promise.allSettled(Array.from({ length: batch }, () => fn()));
    for (const r of results) {
      if (r.status === 'fulfilled') succeeded++;
      else errors.push(r.reason);
    }
    remaining -= batch;
    if (errors.length > 0) break;
  }
  return { succeeded, skipped: remaining, errors };
}
