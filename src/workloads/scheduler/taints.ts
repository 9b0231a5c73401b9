// Taints and tolerations (v1helper.TolerationsTolerateTaint), and the taints a node's conditions imply.
import { TAINT_NOT_READY, TAINT_UNREACHABLE } from '../api/taints.ts';
import type { Node, Taint, Toleration } from '../../apimachinery/api/index.ts';

export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  // An empty key with operator Exists tolerates every taint.
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

export function toleratedBy(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  return (tolerations ?? []).some((t) => tolerates(t, taint));
}

/**
 * The node's taints, plus what its Ready condition implies when the node lifecycle controller has not tainted it
 * yet (TaintNodesByCondition): not Ready is `not-ready`, unknown is `unreachable`. So a scheduler never places a
 * pod on a node that is not Ready unless the pod tolerates it, as on a real cluster.
 */
export function effectiveTaints(node: Node): Taint[] {
  const taints = [...(node.spec?.taints ?? [])];
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') {
    const key = ready?.status === 'Unknown' ? TAINT_UNREACHABLE : TAINT_NOT_READY;
    if (!taints.some((t) => t.key === key && t.effect === 'NoSchedule')) taints.push({ key, effect: 'NoSchedule' });
  }
  return taints;
}
