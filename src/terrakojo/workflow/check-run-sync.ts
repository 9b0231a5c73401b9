// The Workflow's GitHub check run: created (queued) before the Job and its id persisted first, so a retry
// reuses it and a refused Job still has a check run to fail; then PATCHed only when what it shows changes.
// Bosun: upstream PATCHes on every Job event whether or not anything changed; here a Workflow costs one
// create plus one PATCH per check run state it passes through after queued (in_progress, completed).
import { NotFoundError } from '../../client/errors.ts';
import type { WorkflowPhase } from '../api/constants.ts';
import type { Workflow } from '../api/types.ts';
import type { CheckRunOutput, GitHubClient } from '../github/github-client.ts';
import { EVENT_CHECK_RUN_CREATED } from './events.ts';
import type { Job } from '../../apimachinery/api/index.ts';
import type { WorkflowControllerData } from './options.ts';
import { jobOutput } from './output.ts';
import { checkRunChanges, checkRunStateOf } from './phase.ts';
import { readJobLogTail } from './pod-log.ts';
import { writeCheckRun, writeJobPhase } from './workflow-status.ts';

/** Upstream's `<displayName>(<path>)`, e.g. "Plan(infra/app)" or "Plan(.)". */
export function defaultCheckRunName(displayName: string, path: string | undefined): string {
  return `${displayName}(${path ?? ''})`;
}

/** `${base}/namespaces/<ns>/workflows/<name>`; undefined without a base. */
export function checkRunDetailsUrl(base: string | undefined, workflow: Workflow): string | undefined {
  if (!base) return undefined;
  const ns = encodeURIComponent(workflow.metadata.namespace ?? '');
  const name = encodeURIComponent(workflow.metadata.name ?? '');
  return `${base.replace(/\/+$/, '')}/namespaces/${ns}/workflows/${name}`;
}

/**
 * Creates the check run and persists its id and name before anything else happens. Returns the stored
 * Workflow, or undefined when the Workflow was deleted meanwhile (the reconcile then ends quietly).
 *
 * The check run carries the Workflow's UID as its external_id, and one with that id is looked for first: a
 * controller killed between GitHub's answer and the status write finds the check run it made instead of making
 * a second one (upstream leaves a queued duplicate behind). That look-up is the one GitHub read per Workflow.
 */
export async function createCheckRun(d: WorkflowControllerData, gh: GitHubClient, workflow: Workflow, name: string): Promise<Workflow | undefined> {
  const detailsUrl = checkRunDetailsUrl(d.detailsUrlBase, workflow);
  const { owner, repository, sha } = workflow.spec;
  const externalId = workflow.metadata.uid ?? '';
  let id = externalId ? await gh.findCheckRun(owner, repository, sha, name, externalId) : undefined;
  if (id === undefined) {
    id = await gh.createCheckRun(owner, repository, { name, headSha: sha, ...(externalId ? { externalId } : {}), ...(detailsUrl ? { detailsUrl } : {}) });
    void d.recorder.normal(workflow, EVENT_CHECK_RUN_CREATED, `Created GitHub check run ${id} "${name}" on ${owner}/${repository}@${sha}`);
  }
  try {
    return await writeCheckRun(d.status, workflow, id, name);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** PATCHes the check run to show phase; output only with a completed state. */
export async function showPhase(gh: GitHubClient, workflow: Workflow, phase: WorkflowPhase, output?: CheckRunOutput): Promise<void> {
  const id = workflow.status?.checkRunID ?? 0;
  const state = checkRunStateOf(phase);
  await gh.updateCheckRun(workflow.spec.owner, workflow.spec.repository, id, {
    name: workflow.status?.checkRunName ?? '',
    status: state.status,
    ...(state.conclusion ? { conclusion: state.conclusion } : {}),
    ...(output && state.status === 'completed' ? { output } : {}),
  });
}

/**
 * Brings the check run and status.phase in line with the Job. The status is written after the PATCH, so a
 * crash in between PATCHes again (GitHub takes the same state twice) instead of losing the update; a reconcile
 * on a cached Workflow that lags that status write does not (d.shown).
 */
export async function syncJobPhase(d: WorkflowControllerData, gh: () => Promise<GitHubClient>, workflow: Workflow, job: Job, phase: WorkflowPhase, signal: AbortSignal): Promise<void> {
  const previous = workflow.status?.phase;
  if (previous === phase) return;
  const uid = workflow.metadata.uid ?? '';
  const state = checkRunStateOf(phase);
  if (checkRunChanges(previous, phase) && !d.shown.shows(uid, state)) {
    const output = state.status === 'completed' ? jobOutput(workflow.status?.checkRunName ?? '', phase, job.metadata.name ?? '', await readJobLogTail(d.client, job, d.logTail, signal)) : undefined;
    await showPhase(await gh(), workflow, phase, output);
    d.shown.record(uid, state);
  }
  try {
    await writeJobPhase(d.status, workflow, phase);
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
