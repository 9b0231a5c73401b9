// Phase TriggerDelete: pass the deletion job to the (deleted) children.
import { phaseResult } from '../../../runtime/index.ts';
import { PHASE_DELETING } from '../../api/constants.ts';
import { execution, subinstallations } from '../children.ts';
import { statusOf } from '../helpers.ts';
import { passJobID } from '../job.ts';
import { executionsResource, installationsResource } from '../../api/resources.ts';
import { lsTime } from '../../status-helpers.ts';
import type { PhaseHandler } from './types.ts';

export const triggerDelete: PhaseHandler = async (inst, deps) => {
  const jobID = statusOf(inst).jobID ?? '';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  await Promise.all([
    ...subs.map((s) => passJobID(deps, installationsResource, s, jobID)),
    ...(exec !== undefined ? [passJobID(deps, executionsResource, exec, jobID)] : []),
  ]);
  const now = lsTime(deps.now());
  return phaseResult.next(PHASE_DELETING, (s) => void (s.transitionTimes = { ...s.transitionTimes, waitTime: now }));
};
