// Passing a job to a child (ObjectsCreated, CleanupOrphaned, TriggerDelete): the child's status.jobID
// becomes the parent's, with a fresh triggerTime. The child's own controller takes it from there.
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { lsTime } from '../status-helpers.ts';
import type { Deps } from './types.ts';

interface JobStatus {
  observedGeneration?: number;
  jobID?: string;
  transitionTimes?: { triggerTime?: string };
}

export async function passJobID(deps: Deps, resource: ResourceRef, child: KubeObject, jobID: string): Promise<void> {
  const status = (child['status'] ?? {}) as JobStatus;
  if (status.jobID === jobID) return;
  const next: JobStatus = { ...status, jobID, transitionTimes: { triggerTime: lsTime(deps.now()) } };
  // Installation status requires observedGeneration.
  if (resource.kind === 'Installation' && next.observedGeneration === undefined) next.observedGeneration = 0;
  try {
    await deps.client.updateStatus(resource, { ...child, status: next });
  } catch (err) {
    // Gone meanwhile: nothing to trigger.
    if (!(err instanceof NotFoundError)) throw err;
  }
}
