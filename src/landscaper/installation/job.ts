// Passing a job to a child (ObjectsCreated, CleanupOrphaned, TriggerDelete): the child's status.jobID
// becomes the parent's, with a fresh triggerTime. The child's own controller takes it from there.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { updateStatus } from '../../runtime/index.ts';
import { lsTime } from '../status-helpers.ts';
import type { Deps } from './types.ts';

interface JobStatus {
  observedGeneration?: number;
  jobID?: string;
  transitionTimes?: { triggerTime?: string };
}

export async function passJobID(deps: Deps, resource: ResourceRef, child: KubeObject, jobID: string): Promise<void> {
  if (((child['status'] ?? {}) as JobStatus).jobID === jobID) return;
  const triggerTime = lsTime(deps.now());
  try {
    await updateStatus(deps.client, resource, child, (draft) => {
      const status = (draft['status'] ?? {}) as JobStatus;
      // A retry on a fresh read may find the job passed already.
      if (status.jobID === jobID) return;
      // Installation status requires observedGeneration.
      draft['status'] = { ...status, jobID, transitionTimes: { triggerTime }, ...(resource.kind === 'Installation' ? { observedGeneration: status.observedGeneration ?? 0 } : {}) };
    });
  } catch (err) {
    // Gone meanwhile: nothing to trigger.
    if (!(err instanceof NotFoundError)) throw err;
  }
}
