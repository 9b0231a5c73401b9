// One sync of a Deployment (the deployment controller's syncDeployment): claim its ReplicaSets, then either only
// resize (paused, or replicas changed) or roll out with its strategy, and report status.
import { fromLabelSelectorObject, LabelSelectorError } from '../../apimachinery/label-selector.ts';
import type { Action, ReconcileContext } from '../../runtime/index.ts';
import { action, TerminalError } from '../../runtime/index.ts';
import { NotFoundError } from '../../client/errors.ts';
import { deploymentsResource, replicaSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { Deployment } from '../../apimachinery/api/index.ts';
import { claim } from '../pods/claim.ts';
import { controllerRefTo } from '../pods/owner.ts';
import { desiredReplicasOf } from './annotations.ts';
import { DEPLOYMENT_PROGRESSING, getDeploymentCondition, newDeploymentCondition, REASON_PAUSED, REASON_RESUMED, REASON_TIMED_OUT, setDeploymentCondition } from './conditions.ts';
import { DeploymentSync, type DeploymentControllerData } from './context.ts';
import { syncScaling } from './proportional-scale.ts';
import { rolloutRecreate } from './recreate.ts';
import { activeReplicaSets } from './replica-sets.ts';
import { rolloutRolling } from './rolling.ts';
import { syncDeploymentStatus } from './rollout-status.ts';

export async function syncDeployment(deployment: Deployment, ctx: ReconcileContext<DeploymentControllerData>): Promise<Action> {
  const d = ctx.data;
  let selector;
  try {
    selector = fromLabelSelectorObject(deployment.spec.selector ?? {});
  } catch (err) {
    if (err instanceof LabelSelectorError) throw new TerminalError(`deployment ${ctx.key}: invalid selector: ${err.message}`, { cause: err });
    throw err;
  }
  if (selector.length === 0) {
    void d.recorder.warning(deployment, 'SelectingAll', 'This deployment is selecting all pods. A non-empty selector is required.');
    return action.awaitChange();
  }
  const replicaSets = await claim(d.replicaSets.list(deployment.metadata.namespace ?? ''), {
    client: d.client,
    resource: replicaSetsResource,
    ownerResource: deploymentsResource,
    owner: deployment,
    ref: controllerRefTo(deployment, 'apps/v1', 'Deployment'),
    selector,
  });
  const sync = new DeploymentSync(d, deployment, replicaSets, ctx.signal);
  try {
    if (deployment.metadata.deletionTimestamp !== undefined) {
      const { newRS, oldRSs } = await sync.newAndOld(false);
      await syncDeploymentStatus(sync, [...oldRSs, newRS], newRS);
      return action.awaitChange();
    }
    await checkPausedConditions(sync);
    if (deployment.spec.paused || (await isScalingEvent(sync))) {
      await syncScaling(sync);
      return action.awaitChange();
    }
    const recheckMs = (deployment.spec.strategy?.type ?? 'RollingUpdate') === 'Recreate' ? await rolloutRecreate(sync) : await rolloutRolling(sync);
    return recheckMs === undefined ? action.awaitChange() : action.requeueAfter(recheckMs);
  } catch (err) {
    // An object gone meanwhile: run again on a fresher cache (a conflict is the controller's quiet retry).
    if (err instanceof NotFoundError) return action.requeue();
    throw err;
  }
}

/** A Progressing=Unknown condition on pause and resume, so a resumed Deployment does not time out at once. */
async function checkPausedConditions(sync: DeploymentSync): Promise<void> {
  if (!sync.hasProgressDeadline()) return;
  const d = sync.deployment;
  const condition = getDeploymentCondition(d.status, DEPLOYMENT_PROGRESSING);
  if (condition?.reason === REASON_TIMED_OUT) return;
  const pausedRecorded = condition?.reason === REASON_PAUSED;
  const status = structuredClone(d.status ?? {});
  if (d.spec.paused && !pausedRecorded) {
    setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'Unknown', REASON_PAUSED, 'Deployment is paused', sync.data.now()));
  } else if (!d.spec.paused && pausedRecorded) {
    setDeploymentCondition(status, newDeploymentCondition(DEPLOYMENT_PROGRESSING, 'Unknown', REASON_RESUMED, 'Deployment is resumed', sync.data.now()));
  } else return;
  await sync.writeStatus(status);
}

/** isScalingEvent: an active ReplicaSet was sized for a different number of replicas than the Deployment asks now. */
async function isScalingEvent(sync: DeploymentSync): Promise<boolean> {
  const { newRS, oldRSs } = await sync.newAndOld(false);
  return activeReplicaSets([...oldRSs, newRS]).some((rs) => {
    const desired = desiredReplicasOf(rs);
    return desired !== undefined && desired !== sync.replicas;
  });
}
