// The endpoints.kubernetes.io/last-change-trigger-time annotation (endpointslice util's TriggerTimeTracker): the
// time of the earliest pod or Service change since the previous sync that this sync publishes, so the proxy can
// measure how long a change took to reach it. A pod's change time is its Ready condition's last transition; a
// Service's is its creation. Like upstream, several changes of one object between two syncs count as the last.
// Unlike upstream, a Ready flip within the second of the previous transition (timestamps have second precision,
// and Bosun's pods can start that fast) still counts as a change.
import type { Pod, Service } from '../../apimachinery/api/index.ts';
import { keyOf } from '../../runtime/index.ts';
import { podCondition } from '../pods/pod-state.ts';

export const LAST_CHANGE_TRIGGER_TIME_ANNOTATION = 'endpoints.kubernetes.io/last-change-trigger-time';

interface PodTrigger {
  time: number;
  status: string;
}

interface ServiceState {
  serviceTime: number;
  pods: Map<string, PodTrigger>;
}

function timeOf(value: string | undefined): number {
  const ms = Date.parse(value ?? '');
  return Number.isNaN(ms) ? 0 : ms;
}

export class TriggerTimeTracker {
  private readonly states = new Map<string, ServiceState>();

  /**
   * Updates what is known of the Service's pods and returns the trigger time to publish: the Service's creation
   * the first time it is seen, later the earliest changed time, or undefined when nothing changed.
   */
  compute(service: Service, pods: readonly Pod[]): Date | undefined {
    const key = keyOf(service);
    const previous = this.states.get(key);
    let earliest = 0;
    const changed = (time: number): void => {
      if (earliest === 0 || time < earliest) earliest = time;
    };
    const podTriggers = new Map<string, PodTrigger>();
    for (const pod of pods) {
      const ready = podCondition(pod, 'Ready');
      const now = { time: timeOf(ready?.lastTransitionTime), status: ready?.status ?? '' };
      if (now.time === 0) continue;
      podTriggers.set(pod.metadata.name ?? '', now);
      const before = previous?.pods.get(pod.metadata.name ?? '');
      if (!before || now.time > before.time || (now.time === before.time && now.status !== before.status)) changed(now.time);
    }
    const serviceTime = timeOf(service.metadata.creationTimestamp);
    if (serviceTime > (previous?.serviceTime ?? 0)) changed(serviceTime);
    this.states.set(key, { serviceTime, pods: podTriggers });
    if (!previous) return serviceTime > 0 ? new Date(serviceTime) : undefined;
    return earliest > 0 ? new Date(earliest) : undefined;
  }

  forget(serviceKey: string): void {
    this.states.delete(serviceKey);
  }
}

/** Sets the annotation to the trigger time, or removes it when this change has none. */
export function setTriggerTime(annotations: Record<string, string>, time: Date | undefined): void {
  // Go's RFC3339Nano: fractional seconds without trailing zeros.
  if (time) annotations[LAST_CHANGE_TRIGGER_TIME_ANNOTATION] = time.toISOString().replace(/\.?0*Z$/, 'Z');
  else delete annotations[LAST_CHANGE_TRIGGER_TIME_ANNOTATION];
}
