// The containers of a Workflow's pod template that the controller edits (environment, mounts, security).
import type { Container, PodSpec } from '../../apimachinery/api/index.ts';

/** Every container and init container of the pod spec, in order. */
export function allContainers(pod: PodSpec): Container[] {
  return [...(pod.initContainers ?? []), ...(pod.containers ?? [])];
}
