// A job the deployer gives an item itself, outside any execution's job: a test-reconcile, or a due continuous
// reconcile. A new job ID (with its generation time, which the pickup timeout counts from) starts it.
import { randomUUID } from 'node:crypto';
import type { KubeClient } from '../../../client/client.ts';
import { updateStatus } from '../../../runtime/index.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { deployItemsResource } from '../../api/resources.ts';
import { lsTime } from '../../status-helpers.ts';

export async function startOwnJob(client: KubeClient, item: DeployItem, now: Date): Promise<void> {
  await updateStatus(client, deployItemsResource, item, (draft) => {
    // The schema requires observedGeneration: an item that never had a status (a fresh test-reconcile) gets 0.
    draft.status = { observedGeneration: 0, ...draft.status, jobID: randomUUID(), jobIDGenerationTime: lsTime(now) };
  });
}
