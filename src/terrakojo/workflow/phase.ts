// A Workflow's phase from its Job, and what the GitHub check run shows for each phase (upstream's
// determineWorkflowPhase and checkRunStatus). Job conditions are not read, as upstream does not: with the
// default backoffLimit 0 the first failed pod ends the Job anyway.
import { TERMINAL_WORKFLOW_PHASES, type WorkflowPhase } from '../api/constants.ts';
import type { JobStatus } from '../../apimachinery/api/index.ts';
import type { CheckRunConclusion, CheckRunStatus } from '../github/github-client.ts';

/**
 * The counters of a batch/v1 JobStatus this controller reads; uncountedTerminatedPods holds finished pods the Job
 * controller has seen but not counted yet (pod tracking with finalizers, Kubernetes 1.26+).
 */
export type JobCounts = Pick<JobStatus, 'active' | 'succeeded' | 'failed' | 'uncountedTerminatedPods'>;

/**
 * succeeded > 0 → Succeeded, failed > 0 → Failed, active > 0 → Running, else Pending: checked in that order.
 * A finished pod counts from the moment it lands in uncountedTerminatedPods: the Job controller first moves it
 * there (active drops, nothing counted yet), then into succeeded or failed. Upstream reads the counters alone and
 * so shows Pending in between, which sent a check run back from in_progress to queued.
 */
export function phaseOfJob(status: JobCounts | undefined): WorkflowPhase {
  const uncounted = status?.uncountedTerminatedPods;
  if ((status?.succeeded ?? 0) + (uncounted?.succeeded?.length ?? 0) > 0) return 'Succeeded';
  if ((status?.failed ?? 0) + (uncounted?.failed?.length ?? 0) > 0) return 'Failed';
  if ((status?.active ?? 0) > 0) return 'Running';
  return 'Pending';
}

export interface CheckRunState {
  status: CheckRunStatus;
  /** Only with status "completed". */
  conclusion?: CheckRunConclusion;
}

/** Pending and anything unknown (no phase yet) → queued, as a check run is created. */
export function checkRunStateOf(phase: string | undefined): CheckRunState {
  switch (phase) {
    case 'Running':
      return { status: 'in_progress' };
    case 'Succeeded':
      return { status: 'completed', conclusion: 'success' };
    case 'Failed':
      return { status: 'completed', conclusion: 'failure' };
    case 'Cancelled':
      return { status: 'completed', conclusion: 'cancelled' };
    default:
      return { status: 'queued' };
  }
}

/** Whether a check run that shows `from` must be PATCHed to show `to`. */
export function checkRunChanges(from: string | undefined, to: string | undefined): boolean {
  const a = checkRunStateOf(from);
  const b = checkRunStateOf(to);
  return a.status !== b.status || a.conclusion !== b.conclusion;
}

export function isTerminalPhase(phase: string | undefined): boolean {
  return (TERMINAL_WORKFLOW_PHASES as readonly (string | undefined)[]).includes(phase);
}
