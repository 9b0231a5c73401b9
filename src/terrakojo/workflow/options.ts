// What registerWorkflowController takes, and what every reconcile sees (ctx.data).
import type { KubeClient } from '../../client/client.ts';
import type { EventRecorder, Informer, StatusWriter } from '../../runtime/index.ts';
import type { Branch, Workflow, WorkflowTemplate } from '../api/types.ts';
import type { GitHubClient } from '../github/github-client.ts';
import type { Job } from '../../apimachinery/api/index.ts';
import type { LogLimits } from './pod-log.ts';
import type { ShownCheckRuns } from './shown-check-runs.ts';

/**
 * The GitHub client for a Branch's Repository (upstream's GitHubClientManager.GetClientForBranch): the
 * family wires the shared client cache (GitHubClients) here. A permanent failure (no such Repository, a Secret
 * that cannot work) should be a GitHubCredentialsError or a TerminalError: a deletion then skips its check
 * run cancel at once instead of wedging the finalizer until the credentials come back.
 */
export type GitHubClientForBranch = (branch: Branch, signal: AbortSignal) => Promise<GitHubClient>;

export interface WorkflowControllerOptions {
  github: GitHubClientForBranch;
  /**
   * Where a check run's "Details" link points: `${detailsUrlBase}/namespaces/<ns>/workflows/<name>`. No
   * details_url without it.
   */
  detailsUrlBase?: string;
  /** Workflows reconciled in parallel; default 4. */
  concurrency?: number;
  /**
   * How long a deletion keeps trying to mark the check run cancelled when GitHub or the credentials fail,
   * counted from the deletion timestamp; then the finalizer goes without it (Warning Event). Default 5 minutes.
   */
  cancelTimeoutMs?: number;
  /** How much of the Job's log a completed check run shows; default the last 50 lines, at most 16 KiB. */
  logTail?: Partial<LogLimits>;
  name?: string;
  now?: () => Date;
}

export interface WorkflowControllerData {
  client: KubeClient;
  github: GitHubClientForBranch;
  recorder: EventRecorder;
  status: StatusWriter<Workflow>;
  branches: Informer<Branch>;
  templates: Informer<WorkflowTemplate>;
  jobs: Informer<Job>;
  detailsUrlBase: string | undefined;
  cancelTimeoutMs: number;
  logTail: LogLimits;
  /** What this controller last PATCHed each check run to, so a reconcile on a stale cache does not repeat it. */
  shown: ShownCheckRuns;
  now(): Date;
}
