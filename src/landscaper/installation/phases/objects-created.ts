// Phase ObjectsCreated: pass the job to every subinstallation and the execution.
import { phaseResult } from '../../../runtime/index.ts';
import { PHASE_PROGRESSING } from '../../api/constants.ts';
import { execution, subinstallations } from '../children.ts';
import { statusOf } from '../helpers.ts';
import { passJobID } from '../job.ts';
import { executionsResource, installationsResource } from '../../api/resources.ts';
import { lsTime } from '../../status-helpers.ts';
import type { PhaseHandler } from './types.ts';

export const objectsCreated: PhaseHandler = async (inst, deps) => {
  const jobID = statusOf(inst).jobID ?? '';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  await Promise.all([
    ...subs.filter((s) => s.metadata.deletionTimestamp === undefined).map((s) => passJobID(deps, installationsResource, s, jobID)),
    ...(exec !== undefined ? [passJobID(deps, executionsResource, exec, jobID)] : []),
  ]);
  const now = lsTime(deps.now());
  return phaseResult.next(PHASE_PROGRESSING, (s) => void (s.transitionTimes = { ...s.transitionTimes, waitTime: now }));
};
