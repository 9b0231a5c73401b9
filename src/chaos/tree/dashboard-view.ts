// chaos-controller in the web dashboard: each Disruption of the namespace with its targets, per target and kind
// the injection status and chaos pod, and what cleanup waits for (the model of `bosun tree disruption`).
import { dashboardNodeId, type DashboardNode, type DashboardState, type DashboardView } from '../../runtime/index.ts';
import { buildDisruptionTree, type DisruptionTreeObjects } from './build.ts';
import type { ChaosPodNode, DisruptionNode, TargetKindNode, TargetNode } from './model.ts';
import { disruptionTreeResources } from './resources.ts';

function injectionState(status: string | undefined): DashboardState {
  if (!status) return 'unknown';
  if (status.includes('Stuck')) return 'failed';
  if (status === 'Injected') return 'succeeded';
  if (status.startsWith('Partially') || status.startsWith('Paused')) return 'progressing';
  return 'waiting';
}

function chaosPod(namespace: string, pod: ChaosPodNode): DashboardNode {
  const notes: DashboardNode['notes'] = [];
  if (pod.reason) notes.push({ label: 'reason', tone: 'error', text: pod.reason });
  if (pod.finalizer && pod.deleting) notes.push({ label: 'cleanup', tone: 'wait', text: 'waits for the injector to clean the target (chaos pod finalizer)' });
  if (pod.node) notes.push({ label: 'node', tone: 'info', text: pod.node });
  return {
    id: dashboardNodeId('Pod', namespace, pod.name),
    kind: 'ChaosPod',
    name: pod.name,
    namespace,
    ...(pod.phase ? { phase: pod.phase } : {}),
    state: pod.deleting ? 'deleting' : pod.reason ? 'failed' : pod.ready ? 'succeeded' : 'progressing',
    notes,
    children: [],
  };
}

function targetKind(chaosNamespace: string, disruption: DisruptionNode, target: TargetNode, kind: TargetKindNode): DashboardNode {
  return {
    id: dashboardNodeId('Injection', disruption.namespace, `${disruption.name}/${target.name}/${kind.kind}`),
    kind: 'Injection',
    name: kind.kind,
    namespace: disruption.namespace,
    ...(kind.status ? { phase: kind.status } : {}),
    state: injectionState(kind.status),
    ...(kind.since ? { startedAt: kind.since } : {}),
    notes: [],
    children: kind.pod ? [chaosPod(chaosNamespace, kind.pod)] : [],
  };
}

function disruptionNode(chaosNamespace: string, root: DisruptionNode): DashboardNode {
  const { desired, selected, injected, ignored } = root.counts;
  const notes: DashboardNode['notes'] = [{ label: 'targets', tone: 'info', text: `${injected}/${desired} injected, ${selected} selected, ${ignored} ignored; ${root.level} level: ${root.kinds.join(', ')}` }];
  if (root.stuckOnRemoval) notes.push({ label: 'stuck', tone: 'error', text: 'cleanup is stuck: a chaos pod could not clean its target (docs/chaos.md, the runbook)' });
  if (root.dryRun) notes.push({ label: 'dry run', tone: 'info', text: 'nothing is injected' });
  const targets = root.targets.map<DashboardNode>((target) => ({
    id: dashboardNodeId('Target', root.namespace, `${root.name}/${target.name}`),
    kind: 'Target',
    name: target.name,
    namespace: root.namespace,
    phase: target.state,
    state: target.state === 'gone' ? 'deleting' : 'progressing',
    notes: target.node ? [{ label: 'node', tone: 'info', text: target.node }] : [],
    children: target.kinds.map((kind) => targetKind(chaosNamespace, root, target, kind)),
  }));
  return {
    id: dashboardNodeId('Disruption', root.namespace, root.name),
    kind: 'Disruption',
    name: root.name,
    namespace: root.namespace,
    ...(root.injectionStatus ? { phase: root.injectionStatus } : {}),
    state: root.deleting ? 'deleting' : root.stuckOnRemoval ? 'failed' : injectionState(root.injectionStatus),
    ...(root.createdAt ? { startedAt: root.createdAt } : {}),
    ...(root.cleanedAt ? { finishedAt: root.cleanedAt } : {}),
    notes,
    children: [...targets, ...root.strays.map((pod) => chaosPod(chaosNamespace, pod))],
  };
}

/** The view where chaos pods run in `chaosNamespace` (the controller's configuration). */
export const chaosDashboardView = (chaosNamespace: string): DashboardView => ({
  name: 'chaos',
  title: 'Disruptions',
  resources: disruptionTreeResources(chaosNamespace),
  build: (namespace, objects) => {
    const typed = objects as unknown as DisruptionTreeObjects;
    return typed.disruptions
      .filter((d) => (d.metadata.namespace ?? namespace) === namespace)
      .map((d) => buildDisruptionTree(namespace, d.metadata.name ?? '', typed).root)
      .filter((root): root is DisruptionNode => root !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((root) => disruptionNode(chaosNamespace, root));
  },
});
