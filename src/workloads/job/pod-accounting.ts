// What the Job's pods add up to in one sync (syncJob's counting, getNewFinishedPods): the finished pods not yet
// counted (they still carry the tracking finalizer and are neither uncounted nor being released), the active, ready
// and terminating ones, and for Indexed Jobs the succeeded indexes.
import type { Job, JobStatus, Pod } from '../../apimachinery/api/index.ts';
import { isPodActive, isPodReady, isPodTerminating } from '../pods/pod-state.ts';
import { completionIndex, parseIndexes } from './indexed.ts';
import { hasTrackingFinalizer } from './tracking-finalizer.ts';

/** status.uncountedTerminatedPods as this sync changes it. */
export interface Uncounted {
  succeeded: string[];
  failed: string[];
}

export function uncountedOf(status: JobStatus): Uncounted {
  return { succeeded: [...(status.uncountedTerminatedPods?.succeeded ?? [])], failed: [...(status.uncountedTerminatedPods?.failed ?? [])] };
}

/** Failed, or deleted before it succeeded (an orphan that never reached a terminal phase). */
export function isPodFailed(pod: Pod): boolean {
  return pod.status?.phase === 'Failed' || (pod.metadata.deletionTimestamp !== undefined && pod.status?.phase !== 'Succeeded');
}

export interface PodCounts {
  newSucceeded: Pod[];
  newFailed: Pod[];
  activePods: Pod[];
  active: number;
  ready: number;
  terminating: number;
  /** Indexed: the succeeded indexes, the recorded ones and those of succeeded pods not counted yet. */
  succeededIndexes: Set<number> | undefined;
  succeeded: number;
  failed: number;
}

export function countPods(job: Job, pods: readonly Pod[], status: JobStatus, uncounted: Uncounted, expectedRemovals: ReadonlySet<string>): PodCounts {
  const completions = job.spec.completions;
  const isUncounted = (uid: string): boolean => uncounted.succeeded.includes(uid) || uncounted.failed.includes(uid);
  const tracked = (p: Pod): boolean => hasTrackingFinalizer(p) && !isUncounted(p.metadata.uid ?? '') && !expectedRemovals.has(p.metadata.uid ?? '');
  const newSucceeded = pods.filter((p) => tracked(p) && p.status?.phase === 'Succeeded');
  const newFailed = pods.filter((p) => tracked(p) && isPodFailed(p));
  const activePods = pods.filter(isPodActive);
  const previousIndexes = job.spec.completionMode === 'Indexed' ? parseIndexes(status.completedIndexes, completions ?? 0) : undefined;
  const succeededIndexes = previousIndexes && new Set(previousIndexes);
  if (succeededIndexes) {
    for (const pod of pods) {
      const index = completionIndex(pod);
      if (pod.status?.phase === 'Succeeded' && hasTrackingFinalizer(pod) && index !== undefined && index < (completions ?? 0)) succeededIndexes.add(index);
    }
  }
  return {
    newSucceeded,
    newFailed,
    activePods,
    active: activePods.length,
    ready: activePods.filter(isPodReady).length,
    terminating: pods.filter(isPodTerminating).length,
    succeededIndexes,
    succeeded: succeededIndexes ? succeededIndexes.size : (status.succeeded ?? 0) + newSucceeded.length + uncounted.succeeded.length,
    failed: (status.failed ?? 0) + newFailed.length + uncounted.failed.length,
  };
}
