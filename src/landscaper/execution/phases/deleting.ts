// Phase Deleting (and TriggerDelete, declared upstream but never set): the deploy items are triggered for
// deletion in reverse dependsOn order, each once every item that depends on it is gone (./deletion.ts).
// A failed deletion ends the job in DeleteFailed. When no deploy item is left, the execution's finalizer
// goes and the execution vanishes.
import { phaseResult } from '../../../runtime/index.ts';
import { PHASE_DELETING } from '../../api/constants.ts';
import { driveDeletion } from '../deletion.ts';
import { cachedManagedDeployItems, listManagedDeployItems } from '../env.ts';
import { executionsResource } from '../../api/resources.ts';
import { finishDeletion } from '../../job-phases.ts';
import type { PhaseHandler } from './types.ts';
import { waitForItems } from './waiting.ts';

export const deleting: PhaseHandler = async (exec, run) => {
  const { env } = run;
  let items = run.left ?? cachedManagedDeployItems(env, exec);
  if (items.length === 0) {
    // A lagging cache must not release the execution: the server confirms that none is left.
    items = await listManagedDeployItems(env, exec);
    if (items.length === 0) {
      await finishDeletion(env.client, executionsResource, exec, env.recorder);
      return phaseResult.done();
    }
  }
  return waitForItems(exec, await driveDeletion(env, exec, items, 'deploy items', PHASE_DELETING), env.now());
};
