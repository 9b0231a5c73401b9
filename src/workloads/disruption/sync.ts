// One sync of a PodDisruptionBudget, after kube-controller-manager's disruption controller (trySync, failSafe):
// count the selected pods, what the budget expects of them and how many are healthy, and write status with the
// DisruptionAllowed condition. When the expected count cannot be found (a controller without a scale), the
// budget fails safe: no disruptions allowed, DisruptionAllowed False with reason SyncFailed.
import type { Pod, PodDisruptionBudget, PodDisruptionBudgetCondition, PodDisruptionBudgetStatus } from '../../apimachinery/api/index.ts';
import { budgetSelects } from '../../apimachinery/budget-selector.ts';
import type { Action, EventRecorder, Informer, ReconcileContext, StatusWriter } from '../../runtime/index.ts';
import { action, setCondition } from '../../runtime/index.ts';
import { budgetStatus, currentHealthy, expectedPodCount, pendingDisruptions, ScaleError, type ScaleSources } from './budget-status.ts';

export interface DisruptionControllerData extends ScaleSources {
  pods: Informer<Pod>;
  status: StatusWriter<PodDisruptionBudget>;
  recorder: EventRecorder;
  now(): Date;
}

function allowedCondition(status: PodDisruptionBudgetStatus, generation: number, failed: string | undefined): Omit<PodDisruptionBudgetCondition, 'lastTransitionTime'> {
  if (failed !== undefined) return { type: 'DisruptionAllowed', status: 'False', reason: 'SyncFailed', message: failed, observedGeneration: generation };
  const allowed = status.disruptionsAllowed > 0;
  return { type: 'DisruptionAllowed', status: allowed ? 'True' : 'False', reason: allowed ? 'SufficientPods' : 'InsufficientPods', message: '', observedGeneration: generation };
}

export async function syncDisruptionBudget(budget: PodDisruptionBudget, ctx: ReconcileContext<DisruptionControllerData>): Promise<Action> {
  const d = ctx.data;
  const now = d.now();
  const generation = budget.metadata.generation ?? 0;
  let status: PodDisruptionBudgetStatus;
  let failed: string | undefined;
  let nextExpiry: number | undefined;
  try {
    const pods = d.pods.list(budget.metadata.namespace ?? '').filter((pod) => budgetSelects(budget, pod.metadata.labels));
    if (pods.length === 0) void d.recorder.normal(budget, 'NoPods', 'No matching pods found');
    const counts = expectedPodCount(budget, pods, d);
    if (counts.unmanaged.length > 0) void d.recorder.warning(budget, 'UnmanagedPods', `Pods selected by this PodDisruptionBudget (selector: ${JSON.stringify(budget.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`);
    const pending = pendingDisruptions(budget, pods, now.getTime());
    nextExpiry = pending.nextExpiry;
    status = budgetStatus(counts, currentHealthy(pods, pending.disrupted), pending.disrupted, generation);
  } catch (err) {
    if (!(err instanceof ScaleError)) throw err;
    failed = err.message;
    void d.recorder.warning(budget, 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${err.message}`);
    status = { ...(budget.status ?? { currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 }), disruptionsAllowed: 0, observedGeneration: generation };
  }
  await d.status.write(budget, (draft) => {
    const conditions = [...(draft.status?.conditions ?? [])];
    setCondition<PodDisruptionBudgetCondition>(conditions, allowedCondition(status, generation, failed), now);
    draft.status = { ...status, conditions };
  });
  if (failed !== undefined) return action.requeue();
  return nextExpiry === undefined ? action.awaitChange() : action.requeueAfter(Math.max(0, nextExpiry - now.getTime()));
}
