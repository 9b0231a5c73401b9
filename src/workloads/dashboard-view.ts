// Workloads in the web dashboard: Deployments with their ReplicaSets' pods, Jobs with theirs, and the pods no
// controller owns, each pod with the reason a container waits or ended (what `kubectl get pods` calls STATUS).
import { deploymentsResource, jobsResource, nodesResource, podsResource, replicaSetsResource } from '../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../apimachinery/object.ts';
import { dashboardNodeId, type DashboardNode, type DashboardState, type DashboardView } from '../runtime/index.ts';

type Json = Record<string, unknown>;
const record = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.map(record) : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

function ownerUid(object: KubeObject): string | undefined {
  return object.metadata.ownerReferences?.find((ref) => ref.controller)?.uid;
}

/** kubectl's STATUS column in small: a waiting or terminated container's reason, else the phase. */
function podStatus(pod: KubeObject): { phase: string; state: DashboardState; message?: string } {
  const status = record(pod['status']);
  const phase = text(status['phase']) ?? 'Pending';
  if (pod.metadata.deletionTimestamp) return { phase: 'Terminating', state: 'deleting' };
  for (const container of list(status['containerStatuses'])) {
    const state = record(container['state']);
    const waiting = record(state['waiting']);
    const reason = text(waiting['reason']);
    if (reason && reason !== 'ContainerCreating') {
      const message = text(waiting['message']);
      return { phase: reason, state: 'failed', ...(message ? { message } : {}) };
    }
    const terminated = record(state['terminated']);
    if (text(terminated['reason']) && terminated['exitCode'] !== 0 && phase !== 'Succeeded') return { phase: text(terminated['reason'])!, state: 'failed' };
  }
  const state: DashboardState = phase === 'Succeeded' ? 'succeeded' : phase === 'Failed' ? 'failed' : phase === 'Running' ? 'progressing' : 'waiting';
  return { phase, state };
}

function podNode(pod: KubeObject): DashboardNode {
  const { phase, state, message } = podStatus(pod);
  const status = record(pod['status']);
  const startedAt = text(status['startTime']) ?? pod.metadata.creationTimestamp;
  const node = text(record(pod['spec'])['nodeName']);
  const notes: DashboardNode['notes'] = [];
  if (message) notes.push({ label: 'reason', tone: 'error', text: message });
  if (node) notes.push({ label: 'node', tone: 'info', text: node });
  return {
    id: dashboardNodeId('Pod', pod.metadata.namespace ?? '', pod.metadata.name ?? ''),
    kind: 'Pod',
    name: pod.metadata.name ?? '',
    namespace: pod.metadata.namespace ?? '',
    phase,
    state,
    ...(startedAt ? { startedAt } : {}),
    notes,
    children: [],
  };
}

function ownerNode(kind: string, object: KubeObject, state: DashboardState, phase: string, children: DashboardNode[], finishedAt?: string): DashboardNode {
  return {
    id: dashboardNodeId(kind, object.metadata.namespace ?? '', object.metadata.name ?? ''),
    kind,
    name: object.metadata.name ?? '',
    namespace: object.metadata.namespace ?? '',
    phase,
    state,
    ...(object.metadata.creationTimestamp ? { startedAt: object.metadata.creationTimestamp } : {}),
    ...(finishedAt ? { finishedAt } : {}),
    notes: [],
    children,
  };
}

function jobState(job: KubeObject): { state: DashboardState; phase: string; finishedAt?: string } {
  const status = record(job['status']);
  const conditions = list(status['conditions']);
  const finished = conditions.find((c) => (c['type'] === 'Complete' || c['type'] === 'Failed') && c['status'] === 'True');
  if (finished?.['type'] === 'Complete') return { state: 'succeeded', phase: 'Complete', ...(text(status['completionTime']) ? { finishedAt: text(status['completionTime'])! } : {}) };
  if (finished) return { state: 'failed', phase: 'Failed', ...(text(finished['lastTransitionTime']) ? { finishedAt: text(finished['lastTransitionTime'])! } : {}) };
  return { state: 'progressing', phase: 'Running' };
}

function deploymentState(deployment: KubeObject): { state: DashboardState; phase: string } {
  const want = Number(record(deployment['spec'])['replicas'] ?? 1);
  const ready = Number(record(deployment['status'])['readyReplicas'] ?? 0);
  return { state: ready >= want ? 'succeeded' : 'progressing', phase: `${ready}/${want} ready` };
}

const byName = (a: KubeObject, b: KubeObject): number => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

export const workloadsDashboardView: DashboardView = {
  name: 'workloads',
  title: 'Workloads',
  resources: { deployments: deploymentsResource, replicaSets: replicaSetsResource, jobs: jobsResource, pods: podsResource },
  build: (_namespace, objects) => {
    const pods = [...(objects['pods'] ?? [])].sort(byName);
    const podsOf = (uids: Set<string>) => pods.filter((pod) => uids.has(ownerUid(pod) ?? ''));
    const replicaSets = objects['replicaSets'] ?? [];
    const owned = new Set<string>();
    const deployments = [...(objects['deployments'] ?? [])].sort(byName).map((deployment) => {
      const sets = new Set(replicaSets.filter((rs) => ownerUid(rs) === deployment.metadata.uid).map((rs) => rs.metadata.uid ?? ''));
      const children = podsOf(sets);
      children.forEach((pod) => owned.add(pod.metadata.uid ?? ''));
      const { state, phase } = deploymentState(deployment);
      return ownerNode('Deployment', deployment, state, phase, children.map(podNode));
    });
    const jobs = [...(objects['jobs'] ?? [])].sort(byName).map((job) => {
      const children = podsOf(new Set([job.metadata.uid ?? '']));
      children.forEach((pod) => owned.add(pod.metadata.uid ?? ''));
      const { state, phase, finishedAt } = jobState(job);
      return ownerNode('Job', job, state, phase, children.map(podNode), finishedAt);
    });
    const loose = pods.filter((pod) => !owned.has(pod.metadata.uid ?? '') && !ownerUid(pod)).map(podNode);
    return [...deployments, ...jobs, ...loose];
  },
};

/** A Node's Ready condition as kubectl get nodes words it, with cordoning. */
function nodeState(node: KubeObject): { phase: string; state: DashboardState } {
  const ready = list(record(node['status'])['conditions']).find((c) => c['type'] === 'Ready');
  const unschedulable = record(node['spec'])['unschedulable'] === true;
  const phase = `${ready?.['status'] === 'True' ? 'Ready' : ready?.['status'] === 'False' ? 'NotReady' : 'Unknown'}${unschedulable ? ',SchedulingDisabled' : ''}`;
  return { phase, state: ready?.['status'] === 'True' ? (unschedulable ? 'waiting' : 'succeeded') : 'failed' };
}

export const nodesDashboardView: DashboardView = {
  name: 'nodes',
  title: 'Nodes',
  resources: { nodes: { resource: nodesResource, namespace: null }, pods: { resource: podsResource, namespace: null } },
  // Every node of the cluster with the pods bound to it, whatever namespace the page shows.
  build: (_namespace, objects) =>
    [...(objects['nodes'] ?? [])].sort(byName).map((node) => {
      const { phase, state } = nodeState(node);
      const pods = (objects['pods'] ?? []).filter((pod) => record(pod['spec'])['nodeName'] === node.metadata.name).sort(byName);
      const info = record(record(node['status'])['nodeInfo']);
      const notes: DashboardNode['notes'] = [];
      if (text(info['osImage'])) notes.push({ label: 'system', tone: 'info', text: `${text(info['osImage'])}, kernel ${text(info['kernelVersion']) ?? '?'}, ${text(info['containerRuntimeVersion']) ?? ''}` });
      notes.push({ label: 'pods', tone: 'info', text: String(pods.length) });
      return {
        id: dashboardNodeId('Node', '', node.metadata.name ?? ''),
        kind: 'Node',
        name: node.metadata.name ?? '',
        namespace: '',
        phase,
        state,
        ...(node.metadata.creationTimestamp ? { startedAt: node.metadata.creationTimestamp } : {}),
        notes,
        children: pods.map(podNode),
      };
    }),
};
