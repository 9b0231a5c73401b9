// registerDisruptionController(mgr, options): the chaos-controller's Disruption reconciler on Bosun's runtime.
// Disruptions are the primary kind. Chaos pods (in the chaos namespace, owned by labels since they live in
// another namespace) wake their disruption; a target pod or node wakes every disruption whose selector matches
// it or that targets it, which is what makes dynamic targeting and injection status follow the cluster without
// upstream's 15–20 s polling. A second controller removes chaos pods left without their disruption.
import { nodesResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import { matchesLabels } from '../../apimachinery/label-selector.ts';
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';
import { isDeepStrictEqual } from 'node:util';
import type { Controller, Manager, Predicate } from '../../runtime/index.ts';
import { DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL, TARGET_LABEL } from '../api/constants.ts';
import { disruptionsResource } from '../api/resources.ts';
import type { Disruption } from '../api/types.ts';
import { DEFAULT_CHAOS_CONFIG } from '../config.ts';
import { ChaosPodExpectations } from './expectations.ts';
import { ChaosPodReplacements } from './failed-chaos-pods.ts';
import { KeyedMutex } from './keyed-mutex.ts';
import type { Node, Pod } from '../../apimachinery/api/index.ts';
import { isReadyCondition } from './ready-condition.ts';
import { ChaosControllerMetrics } from './metrics.ts';
import type { DisruptionControllerData, DisruptionControllerOptions } from './options.ts';
import { reconcileChaosPodOrphan } from './orphans.ts';
import { disruptionKey, reconcileDisruption } from './reconcile.ts';
import { targetSelector } from './selection.ts';
import { CHAOS_POD_BY_DISRUPTION, CHAOS_POD_BY_TARGET } from './targets.ts';

export type { DisruptionControllerData, DisruptionControllerOptions } from './options.ts';

export const DISRUPTION_CONTROLLER_NAME = 'chaos-disruption';
export const ORPHAN_CONTROLLER_NAME = 'chaos-orphaned-chaos-pods';

export interface DisruptionControllers {
  disruptions: Controller<Disruption, DisruptionControllerData>;
  orphans: Controller<Pod, DisruptionControllerData>;
}

function isChaosPod(pod: KubeObject, chaosNamespace: string): boolean {
  return pod.metadata.namespace === chaosNamespace && !!pod.metadata.labels?.[DISRUPTION_NAME_LABEL] && !!pod.metadata.labels[DISRUPTION_NAMESPACE_LABEL];
}

/** Does the disruption select this pod or node, or target it already? */
function concerns(d: Disruption, obj: KubeObject): boolean {
  if (d.status?.targetInjections?.[obj.metadata.name ?? ''] !== undefined) return true;
  try {
    return matchesLabels(targetSelector(d.spec), obj.metadata.labels);
  } catch {
    return false;
  }
}

/**
 * Our own status writes wake nothing: a disruption is reconciled again when its spec changes (generation), it is
 * being deleted, or its finalizers change (someone removed ours), besides its chaos pods and targets.
 */
const specOrLifecycleChanged: Predicate<Disruption> = (e) => {
  if (e.type !== 'modified' || !e.old) return true;
  const [before, after] = [e.old.metadata, e.object.metadata];
  return before.generation !== after.generation || before.deletionTimestamp !== after.deletionTimestamp || !isDeepStrictEqual(before.finalizers, after.finalizers);
};

/** A node's heartbeats change nothing a disruption reads: only its labels, annotations, readiness or deletion do. */
const nodeTargetingChanged: Predicate<Node> = (e) => {
  if (e.type !== 'modified' || !e.old) return true;
  const ready = (n: Node) => isReadyCondition(n.status?.conditions) !== undefined;
  const [before, after] = [e.old.metadata, e.object.metadata];
  return ready(e.old) !== ready(e.object) || before.deletionTimestamp !== after.deletionTimestamp || !isDeepStrictEqual(before.labels, after.labels) || !isDeepStrictEqual(before.annotations, after.annotations);
};

export function registerDisruptionController(mgr: Manager, options: DisruptionControllerOptions = {}): DisruptionControllers {
  const config = options.config ?? DEFAULT_CHAOS_CONFIG;
  const disruptions = mgr.informer<Disruption>(disruptionsResource);
  const pods = mgr.informer<Pod>(podsResource);
  const nodes = mgr.informer<Node>(nodesResource);
  pods.addIndexer(CHAOS_POD_BY_DISRUPTION, (p) => (isChaosPod(p, config.chaosNamespace) ? objectKey(p.metadata.labels?.[DISRUPTION_NAMESPACE_LABEL], p.metadata.labels?.[DISRUPTION_NAME_LABEL] ?? '') : undefined));
  pods.addIndexer(CHAOS_POD_BY_TARGET, (p) => (isChaosPod(p, config.chaosNamespace) ? p.metadata.labels?.[TARGET_LABEL] : undefined));
  const writes = mgr.readYourWrites<Disruption>(disruptionsResource);
  const data: DisruptionControllerData = {
    client: mgr.client,
    config,
    recorder: mgr.recorder('chaos-controller'),
    status: mgr.statusWriter(disruptionsResource, { readYourWrites: writes }),
    writes,
    selection: new KeyedMutex(),
    disruptions,
    pods,
    nodes,
    expectations: new ChaosPodExpectations(),
    replacements: new ChaosPodReplacements(),
    metrics: new ChaosControllerMetrics(mgr.metrics.registry, { disruptions: () => disruptions.store.values(), chaosPods: () => pods.byIndex(CHAOS_POD_BY_TARGET, '').length === 0 ? chaosPodsAll() : chaosPodsAll() }),
    rng: options.rng ?? Math.random,
    now: options.now ?? (() => new Date()),
  };
  function chaosPodsAll(): Pod[] {
    return pods.list(config.chaosNamespace).filter((p) => isChaosPod(p, config.chaosNamespace));
  }

  // A pod is a chaos pod (its disruption), a target (every pod-level disruption of its namespace that selects it), or both.
  const disruptionsOfPod = (pod: Pod): string[] => {
    const keys: string[] = [];
    if (isChaosPod(pod, config.chaosNamespace)) keys.push(objectKey(pod.metadata.labels?.[DISRUPTION_NAMESPACE_LABEL], pod.metadata.labels?.[DISRUPTION_NAME_LABEL] ?? ''));
    for (const d of disruptions.list(pod.metadata.namespace)) if (d.spec.level !== 'node' && concerns(d, pod)) keys.push(disruptionKey(d));
    return keys;
  };
  const disruptionsOfNode = (node: Node): string[] => [...disruptions.store.values()].filter((d) => d.spec.level === 'node' && concerns(d, node)).map(disruptionKey);

  const disruptionController = mgr
    .controller<Disruption, DisruptionControllerData>({
      name: options.name ?? DISRUPTION_CONTROLLER_NAME,
      for: disruptionsResource,
      data,
      concurrency: options.concurrency ?? 4,
      predicates: [specOrLifecycleChanged],
      reconcile: reconcileDisruption,
    })
    .watches(pods, disruptionsOfPod)
    .watches(nodes, disruptionsOfNode, { predicates: [nodeTargetingChanged] });

  // Orphans: chaos pods are the primary kind here; a target or a disruption going away wakes its chaos pods.
  const chaosPodKeys = (list: Pod[]): string[] => list.map((p) => objectKey(p.metadata.namespace, p.metadata.name ?? ''));
  const orphans = mgr
    .controller<Pod, DisruptionControllerData>({
      name: `${options.name ?? DISRUPTION_CONTROLLER_NAME}-orphans`,
      for: podsResource,
      data,
      predicates: [(e) => isChaosPod(e.object, config.chaosNamespace)],
      reconcile: reconcileChaosPodOrphan,
    })
    .watches(pods, (pod) => chaosPodKeys(pods.byIndex(CHAOS_POD_BY_TARGET, pod.metadata.name ?? '')), { predicates: [(e) => e.type === 'deleted'] })
    .watches(nodes, (node) => chaosPodKeys(pods.byIndex(CHAOS_POD_BY_TARGET, node.metadata.name ?? '')), { predicates: [(e) => e.type === 'deleted'] })
    .watches(disruptions, (d) => chaosPodKeys(pods.byIndex(CHAOS_POD_BY_DISRUPTION, disruptionKey(d))), { predicates: [(e) => e.type === 'deleted'] });
  return { disruptions: disruptionController, orphans };
}
