// The pod status kubelet computes from its containers (kubelet's generateAPIPodStatus, in small): the phase,
// the Initialized / ContainersReady / Ready / PodReadyToStartContainers conditions with their reasons, and
// each condition's lastTransitionTime kept while its status stays the same.
import { nowTime } from '../../../apimachinery/time.ts';
import type { ContainerStateRunning, ContainerStateTerminated, ContainerStateWaiting, ContainerStatus, PodCondition, PodPhase, PodStatus } from '../../../apimachinery/api/index.ts';

/** A container's state as the agent keeps it: exactly one of waiting, running and terminated, as kubelet sets. */
export type ContainerStateOneOf = { waiting: ContainerStateWaiting } | { running: ContainerStateRunning } | { terminated: ContainerStateTerminated };

/** A ContainerStatus as the agent writes it: state always set, lastState set or empty. */
export interface AgentContainerStatus extends ContainerStatus {
  state: ContainerStateOneOf;
  lastState: ContainerStateOneOf | Record<string, never>;
}

/** A PodStatus whose container statuses the agent wrote. */
export type AgentPodStatus = Omit<PodStatus, 'initContainerStatuses' | 'containerStatuses'> & { initContainerStatuses?: AgentContainerStatus[]; containerStatuses?: AgentContainerStatus[] };

/** What the pod worker knows of one container, beyond its API status. */
export interface ContainerProgress {
  status: AgentContainerStatus;
  /** Terminated and not to be restarted. */
  done: boolean;
}

export interface PodFactsForStatus {
  init: readonly ContainerProgress[];
  containers: readonly ContainerProgress[];
  initialized: boolean;
  /** The pod sandbox (directory, network) is set up and not yet torn down. */
  sandboxReady: boolean;
  /** Set when the pod failed as a whole (deadline, an init container that will not be retried). */
  failure?: { reason?: string; message?: string } | undefined;
}

const KUBELET_CONDITIONS = new Set(['PodReadyToStartContainers', 'Initialized', 'ContainersReady', 'Ready']);

export function podPhase(facts: PodFactsForStatus): PodPhase {
  if (facts.failure) return 'Failed';
  if (!facts.initialized) return 'Pending';
  const { containers } = facts;
  if (containers.every((c) => c.done)) return containers.some((c) => 'terminated' in c.status.state && c.status.state.terminated.exitCode !== 0) ? 'Failed' : 'Succeeded';
  const hasRun = containers.some((c) => !('waiting' in c.status.state) || c.status.restartCount > 0 || 'terminated' in c.status.lastState);
  return hasRun ? 'Running' : 'Pending';
}

function unfinished(views: readonly ContainerProgress[], test: (v: ContainerProgress) => boolean): string[] {
  return views.filter((v) => !test(v)).map((v) => v.status.name);
}

function desiredConditions(facts: PodFactsForStatus, phase: PodPhase): Omit<PodCondition, 'lastTransitionTime'>[] {
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const conditions: Omit<PodCondition, 'lastTransitionTime'>[] = [{ type: 'PodReadyToStartContainers', status: facts.sandboxReady ? 'True' : 'False' }];
  const initPending = unfinished(facts.init, (v) => v.done && 'terminated' in v.status.state && v.status.state.terminated.exitCode === 0);
  conditions.push(
    facts.initialized || initPending.length === 0
      ? { type: 'Initialized', status: 'True' }
      : { type: 'Initialized', status: 'False', reason: 'ContainersNotInitialized', message: `containers with incomplete status: [${initPending.join(' ')}]` },
  );
  const unready = unfinished(facts.containers, (v) => v.status.ready);
  for (const type of ['ContainersReady', 'Ready']) {
    if (terminal) conditions.push({ type, status: 'False', reason: 'PodCompleted' });
    else if (unready.length === 0 && facts.initialized) conditions.push({ type, status: 'True' });
    else conditions.push({ type, status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${unready.join(' ')}]` });
  }
  return conditions;
}

/** Merges the kubelet's conditions into existing ones, keeping others (PodScheduled, DisruptionTarget). */
export function mergeConditions(existing: readonly PodCondition[], desired: readonly Omit<PodCondition, 'lastTransitionTime'>[], now: string): PodCondition[] {
  const kept = existing.filter((c) => !KUBELET_CONDITIONS.has(c.type));
  const merged = desired.map((c) => {
    const before = existing.find((e) => e.type === c.type);
    return { ...c, lastProbeTime: null, lastTransitionTime: before?.status === c.status && before.lastTransitionTime ? before.lastTransitionTime : now };
  });
  return [...kept, ...merged];
}

export interface PodAddresses {
  hostIP: string;
  podIP?: string | undefined;
  startTime: string;
}

/** The status the worker writes; fields it does not own (nominatedNodeName, qosClass) are left as they are. */
export function renderStatus(existing: PodStatus | undefined, facts: PodFactsForStatus, addresses: PodAddresses): PodStatus {
  const phase = podPhase(facts);
  const status: PodStatus = { ...existing, phase };
  delete status.reason;
  delete status.message;
  if (facts.failure?.reason !== undefined) status.reason = facts.failure.reason;
  if (facts.failure?.message !== undefined) status.message = facts.failure.message;
  status.hostIP = addresses.hostIP;
  status.hostIPs = [{ ip: addresses.hostIP }];
  if (addresses.podIP !== undefined) {
    status.podIP = addresses.podIP;
    status.podIPs = [{ ip: addresses.podIP }];
  }
  status.startTime = addresses.startTime;
  status.conditions = mergeConditions(existing?.conditions ?? [], desiredConditions(facts, phase), nowTime());
  if (facts.init.length > 0) status.initContainerStatuses = facts.init.map((v) => v.status);
  status.containerStatuses = facts.containers.map((v) => v.status);
  return status;
}
