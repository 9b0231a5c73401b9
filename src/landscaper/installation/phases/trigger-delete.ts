// Phase TriggerDelete: pass the deletion job to the (deleted) children.
import { PHASE_DELETING } from '../../api/constants.ts';
import { execution, subinstallations } from '../children.ts';
import { statusOf } from '../helpers.ts';
import { passJobID } from '../job.ts';
import { executionsResource, installationsResource } from '../resources.ts';
import type { PhaseHandler } from './types.ts';

export const triggerDelete: PhaseHandler = async (deps, inst) => {
  const jobID = statusOf(inst).jobID ?? '';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  await Promise.all([
    ...subs.map((s) => passJobID(deps, installationsResource, s, jobID)),
    ...(exec !== undefined ? [passJobID(deps, executionsResource, exec, jobID)] : []),
  ]);
  return { next: PHASE_DELETING, mutate: (s, now) => void (s.transitionTimes = { ...s.transitionTimes, waitTime: now }) };
};
