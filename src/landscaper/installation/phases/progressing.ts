// Phase Progressing: wait (event driven, through the owned watches) until every child finished this job;
// then Completing if all succeeded, else Failed with the failed children and their errors.
import { phaseResult } from '../../../runtime/index.ts';
import { PHASE_COMPLETING, PHASE_SUCCEEDED } from '../../api/constants.ts';
import { execution, finishedJob, subinstallations } from '../children.ts';
import { nameOf, statusOf } from '../helpers.ts';
import type { PhaseHandler } from './types.ts';
import { JobFailedError } from '../../ls-error.ts';

interface Child {
  what: string;
  status: { phase?: string; jobIDFinished?: string; lastError?: { message: string } } | undefined;
}

export const progressing: PhaseHandler = async (inst, deps) => {
  const jobID = statusOf(inst).jobID ?? '';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  const children: Child[] = [
    ...subs.filter((s) => s.metadata.deletionTimestamp === undefined).map((s) => ({ what: `subinstallation ${nameOf(s)}`, status: s.status })),
    ...(exec !== undefined ? [{ what: `execution ${nameOf(exec)}`, status: exec.status }] : []),
  ];
  const pending = children.filter((c) => !finishedJob(c, jobID));
  if (pending.length > 0) {
    return phaseResult.wait('SubObjectsNotFinished', `waiting for ${pending.map((c) => `${c.what} (${c.status?.phase ?? 'not started'})`).join(', ')} to finish`);
  }
  const failed = children.filter((c) => c.status?.phase !== PHASE_SUCCEEDED);
  if (failed.length > 0) {
    const detail = failed.map((c) => `${c.what} is ${c.status?.phase ?? 'unknown'}${c.status?.lastError?.message ? `: ${c.status.lastError.message}` : ''}`);
    throw new JobFailedError('Progressing', 'SubObjectsFailed', detail.join('; '));
  }
  return phaseResult.next(PHASE_COMPLETING);
};
