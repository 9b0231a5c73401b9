// The interruption checker (upstream pkg/deployer/lib/interruption): long operations re-read the deploy item
// and stop when the job is no longer theirs — the execution's interrupt marked it Failed and finished it, a
// newer job replaced it, or the item is gone.
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { InterruptedError } from './errors.ts';
import { deployItemsResource } from '../../api/resources.ts';

/** True when `current` no longer runs job `jobID`. */
export function jobTakenAway(current: DeployItem, jobID: string): boolean {
  const s = current.status ?? {};
  return s.jobID !== jobID || s.jobIDFinished === jobID;
}

export async function checkInterrupted(client: KubeClient, item: DeployItem, jobID: string, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw new InterruptedError('the deployer is stopping', { cause: signal.reason });
  let current: DeployItem;
  try {
    current = await client.get<DeployItem>(deployItemsResource, item.metadata.name ?? '', { namespace: item.metadata.namespace ?? '', ...(signal ? { signal } : {}) });
  } catch (err) {
    if (err instanceof NotFoundError) throw new InterruptedError(`deploy item ${item.metadata.namespace}/${item.metadata.name} is gone`);
    throw err;
  }
  if (jobTakenAway(current, jobID)) {
    throw new InterruptedError(`job ${jobID} of deploy item ${item.metadata.namespace}/${item.metadata.name} was interrupted (phase ${current.status?.phase ?? '-'}, jobIDFinished ${current.status?.jobIDFinished ?? '-'})`);
  }
}
