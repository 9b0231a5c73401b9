// Deleting: the deployer uninstalls what the item deployed, or says what it waits for (it wakes the item). Once
// it is done the library removes the finalizer and the item goes: a deleted item ends in no phase.
import { phaseResult } from '../../../../runtime/index.ts';
import { PHASE_DELETING } from '../../../api/constants.ts';
import type { DeployItem } from '../../../api/deploy-item.ts';
import { DeployJob } from '../job.ts';
import type { DeployerPhaseResult, Run } from '../library.ts';
import { beginUninstall } from './init-delete.ts';

export async function deleting(item: DeployItem, run: Run): Promise<DeployerPhaseResult> {
  const inputs = await beginUninstall(item, run, PHASE_DELETING);
  if (inputs === 'done') return phaseResult.done();
  const job = new DeployJob(item, run);
  const result = await job.runDeployer((ctx) => run.lib.deployer.delete(ctx), inputs.target, inputs.lsContext);
  if (result?.waitingFor !== undefined) return job.settle(result);
  await job.removeFinalizer();
  return phaseResult.done();
}
