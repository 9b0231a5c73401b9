// Registers the disruption controller: a PodDisruptionBudget is woken by the pods it selects and by changes of the
// workloads in its namespace whose scale it may count.
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { deploymentsResource, podDisruptionBudgetsResource, podsResource, replicaSetsResource, statefulSetsResource } from '../../apimachinery/builtin-resources.ts';
import type { Deployment, Pod, PodDisruptionBudget, ReplicaSet, StatefulSet } from '../../apimachinery/api/index.ts';
import { budgetSelects } from '../../apimachinery/budget-selector.ts';
import { syncDisruptionBudget, type DisruptionControllerData } from './sync.ts';

export interface DisruptionControllerOptions {
  name?: string;
  concurrency?: number;
  now?: () => Date;
}

export function registerDisruptionController(mgr: Manager, options: DisruptionControllerOptions = {}): Controller<PodDisruptionBudget, DisruptionControllerData> {
  const budgets = mgr.informer<PodDisruptionBudget>(podDisruptionBudgetsResource);
  const pods = mgr.informer<Pod>(podsResource);
  const replicaSets = mgr.informer<ReplicaSet>(replicaSetsResource);
  const deployments = mgr.informer<Deployment>(deploymentsResource);
  const statefulSets = mgr.informer<StatefulSet>(statefulSetsResource);
  const data: DisruptionControllerData = {
    pods,
    replicaSets,
    deployments,
    statefulSets,
    recorder: mgr.recorder('controllermanager'),
    status: mgr.statusWriter<PodDisruptionBudget>(podDisruptionBudgetsResource),
    now: options.now ?? (() => new Date()),
  };
  const keyOf = (budget: PodDisruptionBudget): string => objectKey(budget.metadata.namespace, budget.metadata.name ?? '');
  const budgetsSelecting = (pod: Pod): string[] =>
    budgets
      .list(pod.metadata.namespace ?? '')
      .filter((budget) => budgetSelects(budget, pod.metadata.labels))
      .map(keyOf);
  const budgetsInNamespace = (workload: KubeObject): string[] => budgets.list(workload.metadata.namespace ?? '').map(keyOf);
  return mgr
    .controller<PodDisruptionBudget, DisruptionControllerData>({ name: options.name ?? 'disruption', for: podDisruptionBudgetsResource, data, concurrency: options.concurrency ?? 2, reconcile: syncDisruptionBudget })
    .watches(pods, budgetsSelecting)
    .watches(replicaSets, budgetsInNamespace)
    .watches(deployments, budgetsInNamespace)
    .watches(statefulSets, budgetsInNamespace);
}
