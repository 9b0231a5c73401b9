// controller.ActivePods ordering: which pods to delete first when there are too many. Earlier stages go first:
// unassigned before assigned, pending before unknown before running, not ready before ready, ready for a shorter
// time before longer, more restarts before fewer, newer before older.
import type { Pod } from '../../apimachinery/api/index.ts';
import { isPodReady, podCondition, restartCount } from './pod-state.ts';

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

function time(value: string | undefined): number {
  const t = value ? Date.parse(value) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

export function compareForDeletion(a: Pod, b: Pod): number {
  const assigned = (p: Pod): number => (p.spec.nodeName ? 1 : 0);
  if (assigned(a) !== assigned(b)) return assigned(a) - assigned(b);
  const phase = (p: Pod): number => phaseRank[p.status?.phase ?? 'Pending'] ?? 0;
  if (phase(a) !== phase(b)) return phase(a) - phase(b);
  const ready = (p: Pod): number => (isPodReady(p) ? 1 : 0);
  if (ready(a) !== ready(b)) return ready(a) - ready(b);
  if (isPodReady(a) && isPodReady(b)) {
    const readySince = (p: Pod): number => time(podCondition(p, 'Ready')?.lastTransitionTime);
    if (readySince(a) !== readySince(b)) return readySince(b) - readySince(a);
  }
  if (restartCount(a) !== restartCount(b)) return restartCount(b) - restartCount(a);
  return time(b.metadata.creationTimestamp) - time(a.metadata.creationTimestamp);
}

/** The first count pods in deletion order. */
export function podsToDelete(pods: readonly Pod[], count: number): Pod[] {
  return [...pods].sort(compareForDeletion).slice(0, Math.max(0, count));
}
