// What to do with a chaos pod being deleted (upstream's HandleChaosPodTermination), as a pure decision: drop its
// finalizer when its end cannot have left anything behind, wait while the injector still cleans, or report it
// stuck when it failed in a way that may have left the target disrupted.
import type { DisruptionKindName } from '../api/constants.ts';
import { INJECTOR_CONTAINER } from './chaos-pod.ts';
import type { Pod } from '../../apimachinery/api/index.ts';

export type TerminationDecision = 'ignore' | 'removeFinalizer' | 'wait' | 'stuck';

/** Kinds that leave nothing to clean on the target (upstream's NoSideEffectDisruptions). */
export const NO_SIDE_EFFECT_KINDS: readonly DisruptionKindName[] = ['node-failure', 'pod-replacement', 'container-failure'];

export interface TerminationInput {
  pod: Pod;
  /** The chaos pod carries the chaos-pod finalizer. */
  hasFinalizer: boolean;
  /** The target pod exists and runs (its node exists, for a pod-level nodeFailure), or the target node is Ready. */
  targetHealthy: boolean;
  kind: string;
  /** The disruption is a dry run: its injector changed nothing on the target. */
  dryRun?: boolean;
}

export function decideTermination(t: TerminationInput): TerminationDecision {
  if (!t.hasFinalizer || !t.pod.metadata.deletionTimestamp) return 'ignore';
  // The injector cannot clean a target that is gone or broken: its result does not matter.
  if (!t.targetHealthy) return 'removeFinalizer';
  if (NO_SIDE_EFFECT_KINDS.includes(t.kind as DisruptionKindName) || t.dryRun === true) return 'removeFinalizer';
  const status = t.pod.status ?? {};
  switch (status.phase) {
    case 'Succeeded':
    case 'Pending':
      return 'removeFinalizer';
    case 'Failed': {
      const statuses = status.containerStatuses ?? [];
      if (statuses.length === 0 || status.reason === 'DeadlineExceeded') return 'removeFinalizer';
      const injector = statuses.find((s) => s.name === INJECTOR_CONTAINER);
      // Never started: nothing was injected, nothing to clean. Upstream reads `started: false` alone, but kubelet
      // reports that for every terminated container, so an injector whose clean failed (exit 1) was never flagged
      // stuck; a container that ran has its terminated state's startedAt.
      const terminated = injector?.state?.terminated;
      if (injector && ((injector.started === false && !terminated?.startedAt) || terminated?.reason === 'StartError')) return 'removeFinalizer';
      return 'stuck';
    }
    default:
      // Still running (cleaning): look again on its next change.
      return 'wait';
  }
}
