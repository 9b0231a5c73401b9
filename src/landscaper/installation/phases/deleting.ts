// Phase Deleting: when no child is left the own finalizer goes and the installation disappears; when all
// remaining children finished this job (DeleteFailed) the installation is DeleteFailed; otherwise it
// waits, naming the children it waits for.
import { phaseResult } from '../../../runtime/index.ts';
import { execution, finishedJob, subinstallations } from '../children.ts';
import { nameOf, statusOf } from '../helpers.ts';
import { installationsResource } from '../../api/resources.ts';
import { finishDeletion } from '../../job-phases.ts';
import type { PhaseHandler } from './types.ts';
import { JobFailedError } from '../../ls-error.ts';

export const deleting: PhaseHandler = async (inst, deps) => {
  const jobID = statusOf(inst).jobID ?? '';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  const left = [
    ...subs.map((s) => ({ what: `subinstallation ${nameOf(s)}`, status: s.status })),
    ...(exec !== undefined ? [{ what: `execution ${nameOf(exec)}`, status: exec.status }] : []),
  ];
  if (left.length === 0) {
    await finishDeletion(deps.client, installationsResource, inst, deps.recorder);
    return phaseResult.done();
  }
  const pending = left.filter((c) => !finishedJob(c, jobID));
  if (pending.length > 0) {
    return phaseResult.wait('DeletionPending', `waiting for the deletion of ${pending.map((c) => `${c.what} (${c.status?.phase ?? 'not started'})`).join(', ')}`);
  }
  throw new JobFailedError('Deleting', 'SubObjectsNotDeleted', `not all sub objects were deleted: ${left.map((c) => `${c.what} is ${c.status?.phase ?? 'unknown'}${c.status?.lastError?.message ? `: ${c.status.lastError.message}` : ''}`).join('; ')}`);
};
