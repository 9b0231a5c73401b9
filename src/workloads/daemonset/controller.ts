// Registers the DaemonSet controller: DaemonSets own their pods and ControllerRevisions, whose changes wake them;
// a node that appears, goes, or changes its labels or taints wakes every DaemonSet.
import { isDeepStrictEqual } from 'node:util';
import { objectKey } from '../../apimachinery/object.ts';
import type { Controller, Manager, Predicate } from '../../runtime/index.ts';
import { controllerRevisionsResource, daemonSetsResource, nodesResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { ControllerRevision, DaemonSet, Node, Pod } from '../../apimachinery/api/index.ts';
import { Expectations, observeExpectations } from '../pods/expectations.ts';
import { controllerOf } from '../pods/owner.ts';
import { PodControl } from '../pods/pod-control.ts';
import { syncDaemonSet, type DaemonSetControllerData } from './sync.ts';

export interface DaemonSetControllerOptions {
  name?: string;
  concurrency?: number;
  now?: () => Date;
}

export function registerDaemonSetController(mgr: Manager, options: DaemonSetControllerOptions = {}): Controller<DaemonSet, DaemonSetControllerData> {
  const sets = mgr.informer<DaemonSet>(daemonSetsResource);
  const pods = mgr.informer<Pod>(podsResource);
  const nodes = mgr.informer<Node>(nodesResource);
  const revisions = mgr.informer<ControllerRevision>(controllerRevisionsResource);
  const writes = mgr.readYourWrites<DaemonSet>(daemonSetsResource);
  const recorder = mgr.recorder('daemonset-controller');
  const expectations = new Expectations();
  observeExpectations(pods, expectations, (pod) => {
    const ref = controllerOf(pod);
    return ref?.kind === 'DaemonSet' && ref.apiVersion.startsWith('apps/') ? objectKey(pod.metadata.namespace, ref.name) : undefined;
  });
  const data: DaemonSetControllerData = {
    client: mgr.client,
    recorder,
    pods,
    nodes,
    revisions,
    podControl: new PodControl(mgr.client, recorder),
    expectations,
    writes,
    status: mgr.statusWriter<DaemonSet>(daemonSetsResource, { readYourWrites: writes }),
    now: options.now ?? (() => new Date()),
  };
  const everySet = (): string[] => sets.list().map((set) => objectKey(set.metadata.namespace, set.metadata.name ?? ''));
  return mgr
    .controller<DaemonSet, DaemonSetControllerData>({ name: options.name ?? 'daemonset', for: daemonSetsResource, data, concurrency: options.concurrency ?? 2, reconcile: syncDaemonSet })
    .owns(pods)
    .owns(revisions)
    .watches(nodes, everySet, { predicates: [placementChanged] });
}

/** A node's heartbeats change nothing a DaemonSet looks at; its labels, taints and readiness do (nodeChanged). */
const placementChanged: Predicate<Node> = (e) => {
  if (e.type !== 'modified' || !e.old) return true;
  const ready = (n: Node): string | undefined => n.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  return !isDeepStrictEqual(e.old.metadata.labels, e.object.metadata.labels) || !isDeepStrictEqual(e.old.spec?.taints, e.object.spec?.taints) || ready(e.old) !== ready(e.object);
};
