// The eviction subresource's disruption budget check, after kube-apiserver's EvictionREST: a pod that is terminal,
// pending or already deleting goes without a budget; more than one budget selecting the pod is an error; with one,
// the budget must allow a disruption (its status observed the current generation), which the eviction takes by
// decrementing disruptionsAllowed and recording the pod in disruptedPods, in the same synchronous step, so two
// evictions cannot both take the last one. An unready pod may go anyway when the budget says AlwaysAllow, or when
// IfHealthyBudget and the budget is healthy without it.
import type { PodDisruptionBudget } from '../../apimachinery/api/index.ts';
import { budgetSelects } from '../../apimachinery/budget-selector.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors, StatusError } from '../../apimachinery/status-error.ts';
import { nowTime } from '../../apimachinery/time.ts';
import { storageKey } from '../registry/resource-type.ts';
import type { HandlerContext } from './context.ts';

const MAX_DISRUPTED_POD_SIZE = 2000;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

function tooManyRequests(message: string): StatusError {
  return new StatusError(429, 'TooManyRequests', VIOLATION, { causes: [{ reason: 'DisruptionBudget', message }] });
}

function conditionTrue(pod: KubeObject, type: string): boolean {
  const conditions = isPlainObject(pod['status']) && Array.isArray(pod['status']['conditions']) ? pod['status']['conditions'] : [];
  return conditions.some((c) => isPlainObject(c) && c['type'] === type && c['status'] === 'True');
}

function canIgnoreBudget(pod: KubeObject): boolean {
  const phase = isPlainObject(pod['status']) ? pod['status']['phase'] : undefined;
  return pod.metadata.deletionTimestamp !== undefined || phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending';
}

/** Takes one disruption from the budget selecting `pod` (none to take when no budget selects it), or throws kube-apiserver's 429. */
export function takeDisruption(ctx: HandlerContext, pod: KubeObject, dryRun: boolean): void {
  if (canIgnoreBudget(pod)) return;
  const type = ctx.registry.lookup('policy', 'v1', 'poddisruptionbudgets');
  if (!type) return;
  const namespace = pod.metadata.namespace ?? '';
  const budgets = ctx.store
    .list(storageKey(type), namespace)
    .map((stored) => stored.object as PodDisruptionBudget)
    .filter((budget) => budgetSelects(budget, pod.metadata.labels));
  if (budgets.length === 0) return;
  if (budgets.length > 1) throw errors.internal('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  const budget = structuredClone(budgets[0]!);
  const name = budget.metadata.name ?? '';
  const status = budget.status ?? { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 };
  if (!conditionTrue(pod, 'Ready')) {
    const policy = budget.spec?.unhealthyPodEvictionPolicy ?? 'IfHealthyBudget';
    if (policy === 'AlwaysAllow') return;
    if (status.currentHealthy >= status.desiredHealthy && status.desiredHealthy > 0) return;
  }
  if ((status.observedGeneration ?? 0) < (budget.metadata.generation ?? 0)) throw tooManyRequests(`The disruption budget ${name} is still being processed by the server.`);
  if (status.disruptionsAllowed < 0) throw errors.forbidden('pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) throw errors.forbidden('DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  if (status.disruptionsAllowed === 0) {
    throw tooManyRequests(`The disruption budget ${name} needs ${status.desiredHealthy} healthy pods and has ${status.currentHealthy} currently`);
  }
  if (dryRun) return;
  status.disruptionsAllowed--;
  status.disruptedPods = { ...status.disruptedPods, [pod.metadata.name ?? '']: nowTime() };
  if (status.disruptionsAllowed === 0) {
    const others = (status.conditions ?? []).filter((c) => c.type !== 'DisruptionAllowed');
    const was = (status.conditions ?? []).find((c) => c.type === 'DisruptionAllowed');
    const lastTransitionTime = was?.status === 'False' ? was.lastTransitionTime : nowTime();
    status.conditions = [...others, { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: budget.metadata.generation ?? 0, ...(lastTransitionTime ? { lastTransitionTime } : {}) }];
  }
  ctx.objects.update(type, namespace, name, { ...budget, status }, { subresource: 'status', fieldManager: 'bosun-apiserver' });
}
