// The finalizer's cleanup (terrakojo.io/cleanup-checkrun): a Workflow deleted while its Job still runs
// marks its check run completed/cancelled, so GitHub does not show it running forever. Nothing to do
// without a check run, when the Job finished or is gone, or when the Branch is gone (upstream cannot build
// a GitHub client then, and neither can we).
//
// Bosun: upstream builds the GitHub client before it looks at the deletion, so a Secret that cannot be
// read wedges every deletion until the credentials come back. Here the client is asked for only when there
// is a check run to cancel, and a failure is retried (backoff bounded by the deadline) until cancelTimeoutMs
// after the deletion timestamp; a failure retrying cannot fix gives up at once: a Secret that is missing or
// does not parse (GitHubCredentialsError), credentials GitHub refuses (401), a check run or repository GitHub
// does not know (404), or any TerminalError from the client provider. Giving up leaves the check run as it was, says so in a Warning
// Event, and lets the deletion finish: a check run left queued is a smaller harm than a namespace that
// cannot be deleted. A transient GitHub outage shorter than the deadline still gets its cancel.
import { jobsResource } from '../../apimachinery/builtin-resources.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { Branch, Workflow } from '../api/types.ts';
import { showPhase } from './check-run-sync.ts';
import { CancelPendingError, isConfigurationError } from './errors.ts';
import { EVENT_CHECK_RUN_CANCEL_SKIPPED, EVENT_CHECK_RUN_CANCELLED } from './events.ts';
import type { Job } from '../../apimachinery/api/index.ts';
import type { WorkflowControllerData } from './options.ts';
import { cancelledOutput } from './output.ts';
import { isTerminalPhase, phaseOfJob } from './phase.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

export async function cancelCheckRunOnDeletion(d: WorkflowControllerData, workflow: Workflow, branch: Branch | undefined, signal: AbortSignal): Promise<void> {
  d.shown.forget(workflow.metadata.uid ?? '');
  const id = workflow.status?.checkRunID ?? 0;
  if (!branch || id === 0 || isTerminalPhase(workflow.status?.phase)) return;
  if (!(await jobUnfinished(d, workflow, signal))) return;
  try {
    const gh = await d.github(branch, signal);
    await showPhase(gh, workflow, 'Cancelled', cancelledOutput(workflow.status?.checkRunName ?? '', workflow.metadata.name ?? ''));
  } catch (err) {
    const message = messageOf(err);
    const left = d.cancelTimeoutMs - (d.now().getTime() - Date.parse(workflow.metadata.deletionTimestamp ?? ''));
    if (isConfigurationError(err) || !(left > 0)) {
      void d.recorder.warning(workflow, EVENT_CHECK_RUN_CANCEL_SKIPPED, `Deleting without cancelling GitHub check run ${id}: ${message}`);
      return;
    }
    throw new CancelPendingError(`cancelling GitHub check run ${id} failed (retrying for ${Math.ceil(left / 1000)} s more): ${message}`, left, { cause: err });
  }
  void d.recorder.normal(workflow, EVENT_CHECK_RUN_CANCELLED, `Marked GitHub check run ${id} cancelled: the Workflow was deleted before its Job finished`);
}

// Read live: a cache that lags a Job's success must not turn a green check run into a cancelled one.
async function jobUnfinished(d: WorkflowControllerData, workflow: Workflow, signal: AbortSignal): Promise<boolean> {
  try {
    const job = await d.client.get<Job>(jobsResource, workflow.metadata.name ?? '', { namespace: workflow.metadata.namespace ?? '', signal });
    const phase = phaseOfJob(job.status);
    return phase === 'Pending' || phase === 'Running';
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}
