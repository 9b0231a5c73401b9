// Whether a target pod or node is Ready, as the disruption controller judges targets and chaos pods.
import type { NodeCondition, PodCondition } from '../../apimachinery/api/index.ts';

export function isReadyCondition<C extends PodCondition | NodeCondition>(conditions: readonly C[] | undefined): C | undefined {
  return conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
}
