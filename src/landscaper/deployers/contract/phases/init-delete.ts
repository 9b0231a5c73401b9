// InitDelete (upstream lib delete; contract step 6): the job deletes the item. Without our finalizer the
// library's part is done; with delete-without-uninstall it only removes the finalizer (what the item deployed
// stays). Otherwise the Target and the Context must resolve before the uninstall begins (Deleting); Deleting
// checks the same on every reconcile, so the annotation also ends an uninstall that cannot finish.
import { hasFinalizer, phaseResult } from '../../../../runtime/index.ts';
import { DELETE_WITHOUT_UNINSTALL_ANNOTATION, LANDSCAPER_FINALIZER, PHASE_DELETING, PHASE_INIT_DELETE, type DeployItemPhase } from '../../../api/constants.ts';
import type { Context } from '../../../api/context.ts';
import type { DeployItem } from '../../../api/deploy-item.ts';
import type { Target } from '../../../api/target.ts';
import { getContext } from '../context.ts';
import type { DeployerPhaseResult, Run } from '../library.ts';
import { deployItemsResource } from '../../../api/resources.ts';
import { finishDeletion } from '../../../job-phases.ts';
import { getTarget } from '../target.ts';
import { checkProgressingTimeout } from '../timeout.ts';
import { ConfigurationError, LandscaperError } from '../../../ls-error.ts';

export async function initDelete(item: DeployItem, run: Run): Promise<DeployerPhaseResult> {
  return (await beginUninstall(item, run, PHASE_INIT_DELETE)) === 'done' ? phaseResult.done() : phaseResult.next(PHASE_DELETING);
}

export interface UninstallInputs {
  target: Target | undefined;
  lsContext: Context | undefined;
}

/** What the uninstall needs, or 'done' when the library's part of the deletion is over. */
export async function beginUninstall(item: DeployItem, run: Run, phase: DeployItemPhase): Promise<UninstallInputs | 'done'> {
  requireDeletion(item, phase);
  checkProgressingTimeout(item, 'deployer: delete start');
  if (!hasFinalizer(item, LANDSCAPER_FINALIZER)) return 'done';
  if (item.metadata.annotations?.[DELETE_WITHOUT_UNINSTALL_ANNOTATION] === 'true') {
    run.log.info('deleting deploy item without uninstall');
    await finishDeletion(run.lib.client, deployItemsResource, item, run.lib.recorder, 'deleted without uninstall');
    return 'done';
  }
  const target = await getTarget(run.lib.client, item, run.signal).catch((err: unknown) => {
    if (!(err instanceof LandscaperError)) throw err;
    throw new LandscaperError(err.operation, err.reason, `${err.message}; set the annotation ${DELETE_WITHOUT_UNINSTALL_ANNOTATION}: "true" to delete without uninstalling`, err.codes, { cause: err });
  });
  return { target, lsContext: await getContext(run.lib, item, run.signal) };
}

/** The delete flow's phases belong to items being deleted; a deployer that set one on a live item is misconfigured. */
function requireDeletion(item: DeployItem, phase: DeployItemPhase): void {
  if (item.metadata.deletionTimestamp !== undefined) return;
  throw new ConfigurationError('Reconcile', 'NotBeingDeleted', `deploy item ${item.metadata.namespace}/${item.metadata.name} is in phase ${phase}, but it is not being deleted`);
}
