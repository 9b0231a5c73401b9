// Phase ObjectsCreated: pass the job to every subinstallation and the execution.
import { PHASE_PROGRESSING } from '../../api/constants.ts';
import { execution, subinstallations } from '../children.ts';
import { statusOf } from '../helpers.ts';
import { passJobID } from '../job.ts';
import { executionsResource, installationsResource } from '../resources.ts';
import type { PhaseHandler } from './types.ts';

export const objectsCreated: PhaseHandler = async (deps, inst) => {
  const jobID = statusOf(inst).jobID ?? '';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  await Promise.all([
    ...subs.filter((s) => s.metadata.deletionTimestamp === undefined).map((s) => passJobID(deps, installationsResource, s, jobID)),
    ...(exec !== undefined ? [passJobID(deps, executionsResource, exec, jobID)] : []),
  ]);
  return { next: PHASE_PROGRESSING, mutate: (s, now) => void (s.transitionTimes = { ...s.transitionTimes, waitTime: now }) };
};
