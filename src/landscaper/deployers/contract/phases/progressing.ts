// Init and Progressing (upstream lib reconcile; contract step 5): the deployer's reconcile runs in every phase of
// the install flow, the library around it: the progressing timeout, the Target (missing: Failed, NoTargetFound),
// the Context, the finalizer and a non-empty spec.config. The deployer sets Progressing while it works and a
// final phase when it is done, or says what it waits for (../job.ts).
// A deletion overtakes a job still running: the delete flow begins (upstream decides by the deletion timestamp).
import { phaseResult } from '../../../../runtime/index.ts';
import { PHASE_INIT_DELETE } from '../../../api/constants.ts';
import type { DeployItem } from '../../../api/deploy-item.ts';
import { getContext } from '../context.ts';
import { DeployJob } from '../job.ts';
import type { DeployerPhaseResult, Run } from '../library.ts';
import { getTarget } from '../target.ts';
import { checkProgressingTimeout } from '../timeout.ts';
import { ConfigurationError } from '../../../ls-error.ts';

export async function progressing(item: DeployItem, run: Run): Promise<DeployerPhaseResult> {
  if (item.metadata.deletionTimestamp !== undefined) return phaseResult.next(PHASE_INIT_DELETE);
  checkProgressingTimeout(item, 'deployer: reconcile start');
  const target = await getTarget(run.lib.client, item, run.signal);
  const lsContext = await getContext(run.lib, item, run.signal);
  const job = new DeployJob(item, run);
  await job.ensureFinalizer();
  requireConfiguration(item);
  return job.settle(await job.runDeployer((ctx) => run.lib.deployer.reconcile(ctx), target, lsContext));
}

function requireConfiguration(item: DeployItem): void {
  const config = item.spec.config;
  if (config === undefined || config === null || (typeof config === 'object' && Object.keys(config).length === 0)) {
    throw new ConfigurationError('Reconcile', 'MissingConfiguration', `deploy item ${item.metadata.namespace}/${item.metadata.name} has no spec.config`);
  }
}
