// Pickup (upstream lib Reconcile; contract step 4). A job whose item is in no phase or a final one is new: the
// library marks it picked up, Init (InitDelete when the item is being deleted), with observedGeneration,
// lastReconcileTime (which the pickup timeout looks for), the deployer's identity and the job's initTime, and
// starts a fresh error history. With updateOnChangeOnly an item that succeeded at this generation is not
// deployed again: its new job is Succeeded at once.
// In Init itself the deployer's reconcile runs straight away (./progressing.ts); the deployer moves the item on.
import { PHASE_INIT, PHASE_INIT_DELETE, PHASE_SUCCEEDED } from '../../../api/constants.ts';
import type { DeployerInformation, DeployItem, DeployItemStatus } from '../../../api/deploy-item.ts';
import { lsTime } from '../../../status-helpers.ts';
import { clearErrors } from '../lserror.ts';

export function pickUp(status: DeployItemStatus, item: DeployItem, deployer: DeployerInformation, now: Date): void {
  const deleting = item.metadata.deletionTimestamp !== undefined;
  const unchanged = !deleting && item.spec.updateOnChangeOnly === true && status.phase === PHASE_SUCCEEDED && status.observedGeneration === item.metadata.generation;
  const ts = lsTime(now);
  status.phase = unchanged ? PHASE_SUCCEEDED : deleting ? PHASE_INIT_DELETE : PHASE_INIT;
  status.observedGeneration = item.metadata.generation ?? 0;
  status.lastReconcileTime = ts;
  status.deployer = deployer;
  status.transitionTimes = { ...status.transitionTimes, initTime: ts };
  delete status.transitionTimes.finishedTime;
  clearErrors(status);
}
