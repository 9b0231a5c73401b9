// Phase CleanupOrphaned: orphaned subinstallations (deleted in Init) get this job to run their deletion;
// the phase waits until they are gone, and fails when all of them failed to delete.
import { phaseResult } from '../../../runtime/index.ts';
import { PHASE_DELETE_FAILED, PHASE_OBJECTS_CREATED } from '../../api/constants.ts';
import { finishedJob, subinstallations } from '../children.ts';
import { nameOf, statusOf } from '../helpers.ts';
import { passJobID } from '../job.ts';
import { installationsResource } from '../../api/resources.ts';
import type { PhaseHandler } from './types.ts';
import { JobFailedError } from '../../ls-error.ts';

export const cleanupOrphaned: PhaseHandler = async (inst, deps) => {
  const jobID = statusOf(inst).jobID ?? '';
  const deleting = (await subinstallations(deps, inst)).filter((s) => s.metadata.deletionTimestamp !== undefined);
  if (deleting.length === 0) {
    return phaseResult.next(PHASE_OBJECTS_CREATED, (s) => void (s.subInstCache = { ...s.subInstCache, orphanedSubs: [] }));
  }
  if (deleting.every((s) => finishedJob(s, jobID) && statusOf(s).phase === PHASE_DELETE_FAILED)) {
    throw new JobFailedError('CleanupOrphaned', 'OrphanDeleteFailed', `orphaned subinstallation(s) failed to delete: ${deleting.map((s) => `${nameOf(s)} (${statusOf(s).lastError?.message ?? 'DeleteFailed'})`).join('; ')}`);
  }
  await Promise.all(deleting.map((s) => passJobID(deps, installationsResource, s, jobID)));
  return phaseResult.wait('DeletingOrphans', `waiting for orphaned subinstallation(s) to be deleted: ${deleting.map(nameOf).sort().join(', ')}`);
};
