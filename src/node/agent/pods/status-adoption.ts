// A pod's containers as a new pod worker takes them over from the status the previous agent wrote: restart
// counts carry on; a terminated run stands (or, if it is to be restarted, becomes lastState); a run still
// reported running was killed when this agent started (it can no longer read its output or learn its exit),
// so it counts as an exit, unless its runtime kept it for this agent to adopt (an image's container).
import { nowTime } from '../../../apimachinery/time.ts';
import { exitCodeOf, type ContainerRecord, type PodContainers } from './container-record.ts';
import type { Container, Pod } from '../../../apimachinery/api/index.ts';
import type { AgentContainerStatus as ContainerStatus, AgentPodStatus, ContainerStateOneOf as ContainerState } from './pod-status.ts';

/** What kubelet reports for a container it had to kill when the agent restarted (SIGKILL). */
const LOST_EXIT_CODE = 137;

function adoptContainer(spec: Container, init: boolean, before: ContainerStatus | undefined, initialized: boolean, restartPolicy: 'Always' | 'OnFailure' | 'Never', adoptable: (containerID: string) => boolean): ContainerRecord {
  const waiting = init || initialized ? 'ContainerCreating' : 'PodInitializing';
  const rec: ContainerRecord = {
    spec,
    init,
    done: false,
    probes: [],
    nextRun: before?.restartCount ?? 0,
    status: {
      name: spec.name,
      image: spec.image ?? '',
      imageID: '',
      state: { waiting: { reason: init ? 'PodInitializing' : waiting } },
      lastState: {},
      ready: false,
      started: false,
      restartCount: before?.restartCount ?? 0,
    },
  };
  if (before === undefined) return rec;
  if (before.containerID) rec.status.containerID = before.containerID;
  rec.status.imageID = before.imageID;
  rec.status.lastState = before.lastState;
  if ('running' in before.state && before.containerID !== undefined && adoptable(before.containerID)) {
    // Its runtime kept it (an image's container under conmon): the run goes on, its exit still to come.
    rec.status.state = before.state;
    rec.status.ready = before.ready;
    rec.status.started = before.started ?? false;
    rec.nextRun = before.restartCount + 1;
    rec.adopt = before.containerID;
    return rec;
  }
  const last: ContainerState | undefined =
    'terminated' in before.state
      ? before.state
      : 'running' in before.state
        ? {
            terminated: {
              exitCode: LOST_EXIT_CODE,
              reason: 'Error',
              message: 'The node agent restarted and could not adopt the running container, so it was killed',
              startedAt: before.state.running.startedAt,
              finishedAt: nowTime(),
              ...(before.containerID ? { containerID: before.containerID } : {}),
            },
          }
        : undefined;
  // A container waiting to restart has run before: its next run counts one more.
  if ('terminated' in before.lastState) rec.nextRun = before.restartCount + 1;
  if (last === undefined) return rec;
  rec.nextRun = before.restartCount + 1;
  const policy = init && restartPolicy === 'Always' ? 'OnFailure' : restartPolicy;
  const restarts = policy === 'Always' || (policy === 'OnFailure' && exitCodeOf(last) !== 0);
  if (restarts) rec.status.lastState = last;
  else {
    rec.status.state = last;
    rec.done = true;
  }
  return rec;
}

/** The pod's containers and pod-level facts, from its spec and the status a previous agent left (if any). */
export function adoptPodStatus(pod: Pod, adoptable: (containerID: string) => boolean = () => false): PodContainers {
  // The status this agent (or one before it) wrote: its container statuses keep the agent's invariants.
  const previous = (pod.status ?? {}) as AgentPodStatus;
  const initialized = (previous.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True') || (pod.spec.initContainers ?? []).length === 0;
  const restartPolicy = pod.spec.restartPolicy ?? 'Always';
  const adopt = (spec: Container, init: boolean) =>
    adoptContainer(spec, init, (init ? previous.initContainerStatuses : previous.containerStatuses)?.find((s) => s.name === spec.name), initialized, restartPolicy, adoptable);
  const init = (pod.spec.initContainers ?? []).map((c) => adopt(c, true));
  const containers = pod.spec.containers.map((c) => adopt(c, false));
  // An init container that failed for good failed the pod.
  const failure = init.some((r) => r.done && exitCodeOf(r.status.state) !== 0) ? {} : undefined;
  return { init, containers, initialized, failure, startTime: previous.startTime ?? nowTime() };
}
