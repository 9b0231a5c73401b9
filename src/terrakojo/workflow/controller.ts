// The WorkflowReconciler (upstream internal/controller/workflow_controller.go), in the spec's order:
// Branch lookup → deletion (finalizer cleanup) → finalizer → Branch gone → Job exists: follow its phase →
// no Job: template → check run (create and persist, reuse, or repair its name) → Job create → phase.
// Bosun's deliberate differences are commented where they happen.
//
// Where each step of the spec's reconciliation flow (terrakojo-workflow-reconciler.md) lives:
// | spec step                                      | file (function)                                              |
// |------------------------------------------------|--------------------------------------------------------------|
// | 1-3. fetch Workflow and Branch                 | reconcileWorkflow (getBranch) below                          |
// | 4-5. GitHub client for the Branch              | reconcileLive (gh, built on first use) below; options.ts     |
// | 6. deletion: cancel the check run, finalizer   | reconcileWorkflow (runtime finalizer()) → deletion.ts (cancelCheckRunOnDeletion) |
// | 7. finalizer; Branch gone → delete Workflow    | runtime finalizer(); reconcileLive below                     |
// | 8-9. Job exists: phase, check run, status      | followJob below → phase.ts (phaseOfJob), check-run-sync.ts (syncJobPhase), workflow-status.ts |
// | 10. no Job: template, check run, Job, phase    | reconcileLive, createJob below → check-run-sync.ts (createCheckRun), job-builder.ts (buildJob) |
// | Job construction: defaults, hardening          | job-builder.ts (applyJobDefaults), runtime-env.ts, workspace.ts |
// | check run mapping                              | phase.ts (checkRunStateOf)                                   |
// | failure handling: Invalid/Forbidden terminal   | failJobCreate below; errors.ts                               |
import { jobsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../client/client.ts';
import { AlreadyExistsError, ForbiddenError, ignoreNotFound, InvalidError, NotFoundError } from '../../client/errors.ts';
import type { Action, Informer, ReconcileContext } from '../../runtime/index.ts';
import { action, finalizer } from '../../runtime/index.ts';
import { CLEANUP_CHECKRUN_FINALIZER } from '../api/constants.ts';
import { branchesResource, workflowsResource, workflowTemplatesResource } from '../api/resources.ts';
import type { Branch, Workflow, WorkflowTemplate } from '../api/types.ts';
import { GitHubRequestError } from '../github/errors.ts';
import type { GitHubClient } from '../github/github-client.ts';
import { createCheckRun, defaultCheckRunName, showPhase, syncJobPhase } from './check-run-sync.ts';
import { cancelCheckRunOnDeletion } from './deletion.ts';
import { CancelPendingError, isConfigurationError, JobNotControlledError } from './errors.ts';
import { EVENT_BRANCH_NOT_FOUND, EVENT_CHECK_RUN_CREATE_FAILED, EVENT_GITHUB_ACCESS_FAILED, EVENT_JOB_CREATE_FAILED, EVENT_JOB_CREATED, EVENT_JOB_NOT_CONTROLLED, EVENT_TEMPLATE_NOT_FOUND } from './events.ts';
import { buildJob } from './job-builder.ts';
import type { Job } from '../../apimachinery/api/index.ts';
import type { WorkflowControllerData } from './options.ts';
import { noJobOutput } from './output.ts';
import { isTerminalPhase, phaseOfJob } from './phase.ts';
import { writeCheckRunName, writeFailedWithoutJob, writeJobCondition } from './workflow-status.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

type Ctx = ReconcileContext<WorkflowControllerData>;

export async function reconcileWorkflow(workflow: Workflow, ctx: Ctx): Promise<Action> {
  const d = ctx.data;
  const branch = await getBranch(d, workflow, ctx.signal);
  return finalizer(d.client, workflowsResource, CLEANUP_CHECKRUN_FINALIZER, workflow, {
    apply: (wf) => reconcileLive(wf, branch, ctx),
    cleanup: async (wf) => {
      await cancelCheckRunOnDeletion(d, wf, branch, ctx.signal);
      return action.awaitChange();
    },
  });
}

/** A failed deletion cancel comes back no later than its deadline; everything else backs off as usual. */
export function workflowErrorPolicy(_workflow: Workflow, err: unknown): Action {
  return err instanceof CancelPendingError ? action.requeue({ atMostMs: err.retryInMs }) : action.requeue();
}

async function reconcileLive(workflow: Workflow, branch: Branch | undefined, ctx: Ctx): Promise<Action> {
  const d = ctx.data;
  if (!branch) {
    ctx.log.info({ branch: workflow.spec.branch }, 'Branch not found for Workflow, deleting it');
    void d.recorder.normal(workflow, EVENT_BRANCH_NOT_FOUND, `Branch ${workflow.spec.branch} not found; deleting the Workflow`);
    try {
      await d.client.delete(workflowsResource, workflow.metadata.name ?? '', { namespace: workflow.metadata.namespace ?? '', preconditions: { uid: workflow.metadata.uid ?? '' } });
    } catch (err) {
      if (!(err instanceof NotFoundError)) ctx.log.error({ err }, 'Failed to delete Workflow with missing branch');
    }
    return action.awaitChange();
  }
  // The client is built only when GitHub is called, once per reconcile. Credentials that cannot work are
  // retried with backoff (a fixed Secret is not watched) and said in a Warning Event, aggregated by the recorder.
  let client: Promise<GitHubClient> | undefined;
  const gh = (): Promise<GitHubClient> =>
    (client ??= d.github(branch, ctx.signal).catch((err: unknown) => {
      if (isConfigurationError(err)) void d.recorder.warning(workflow, EVENT_GITHUB_ACCESS_FAILED, messageOf(err));
      throw err;
    }));

  const existing = d.jobs.get(workflow.metadata.name ?? '', workflow.metadata.namespace);
  if (existing) return followJob(workflow, existing, gh, ctx);

  // Bosun: a Workflow that ended never runs again. Upstream re-creates a Job that is gone (a TTL, a
  // person) and reruns it, and re-tries a refused Job on every status write.
  if (isTerminalPhase(workflow.status?.phase)) return action.awaitChange();

  const template = await getTemplate(d, workflow, ctx.signal);
  let current = workflow;
  if (!template) return failWithoutTemplate(current, gh, ctx);

  const name = defaultCheckRunName(template.spec.displayName, workflow.spec.path);
  if (!current.status?.checkRunID) {
    const github = await gh();
    const stored = await createCheckRun(d, github, current, name).catch((err: unknown) => {
      // Retried with backoff; without the Event nothing would show why a Workflow (on a commit GitHub does not
      // know: 422) never gets a phase.
      if (err instanceof GitHubRequestError) void d.recorder.warning(workflow, EVENT_CHECK_RUN_CREATE_FAILED, err.message);
      throw err;
    });
    if (!stored) {
      ctx.log.info('Workflow was deleted during reconcile, ignoring');
      return action.awaitChange();
    }
    current = stored;
  } else if (!current.status.checkRunName) {
    const stored = await ignoreNotFound(writeCheckRunName(d.status, current, name));
    if (!stored) return action.awaitChange();
    current = stored;
  }

  let job: Job;
  try {
    job = await createJob(d, current, buildJob(current, template, branch), ctx.signal);
  } catch (err) {
    if (err instanceof JobNotControlledError) return refuseForeignJob(current, err, ctx);
    if (err instanceof AlreadyExistsError) return action.requeue();
    return failJobCreate(current, err, gh, ctx);
  }
  return followJob(current, job, gh, ctx);
}

/** The Job exists: it must be ours; then the check run and phase follow it. */
async function followJob(workflow: Workflow, job: Job, gh: () => Promise<GitHubClient>, ctx: Ctx): Promise<Action> {
  const d = ctx.data;
  // Bosun: upstream reads any Job of the Workflow's name; a Job it does not control is refused here too.
  if (!controlledBy(job, workflow)) return refuseForeignJob(workflow, notControlled(job, workflow), ctx);
  let current = workflow;
  if (!current.status?.checkRunID) {
    // The status lost its check run (restored from a backup, edited): make one rather than PATCH id 0.
    const template = await getTemplate(d, current, ctx.signal);
    const stored = await createCheckRun(d, await gh(), current, defaultCheckRunName(template?.spec.displayName ?? current.spec.template, current.spec.path));
    if (!stored) return action.awaitChange();
    current = stored;
  }
  await syncJobPhase(d, gh, current, job, phaseOfJob(job.status), ctx.signal);
  return action.awaitChange();
}

/** Creates the Job; AlreadyExists is a race: continue with the Job found, if this Workflow controls it. */
export async function createJob(d: Pick<WorkflowControllerData, 'client' | 'recorder'>, workflow: Workflow, job: Job, signal: AbortSignal): Promise<Job> {
  const namespace = workflow.metadata.namespace ?? '';
  try {
    const created = await d.client.create<Job>(jobsResource, job, { signal });
    void d.recorder.normal(workflow, EVENT_JOB_CREATED, `Created Job ${created.metadata.name ?? ''}`);
    return created;
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
    let found: Job;
    try {
      found = await d.client.get<Job>(jobsResource, job.metadata.name ?? '', { namespace, signal });
    } catch (getErr) {
      // Gone again between create and get: the caller requeues.
      if (getErr instanceof NotFoundError) throw err;
      throw getErr;
    }
    if (!controlledBy(found, workflow)) throw notControlled(found, workflow);
    return found;
  }
}

/**
 * The Job could not be created. Invalid and Forbidden (a bad container name, PodSecurity, quota) cannot heal
 * by retrying: the check run fails (best effort), the Workflow ends Failed, no retry loop, no second check
 * run. Other errors are retried with the same check run. Bosun: upstream also marks the Workflow Failed
 * before retrying those; with terminal phases final (a Workflow that ended never runs again) that would end a run for a passing API hiccup.
 */
async function failJobCreate(workflow: Workflow, err: unknown, gh: () => Promise<GitHubClient>, ctx: Ctx): Promise<Action> {
  const d = ctx.data;
  const message = `Job ${workflow.metadata.name ?? ''} could not be created: ${messageOf(err)}`;
  ctx.log.error({ err }, 'Failed to create Job for Workflow');
  void d.recorder.warning(workflow, EVENT_JOB_CREATE_FAILED, message);
  const terminal = err instanceof InvalidError || err instanceof ForbiddenError;
  if (!terminal) throw err;
  try {
    await showPhase(await gh(), workflow, 'Failed', noJobOutput(workflow.status?.checkRunName ?? '', message));
  } catch (ghErr) {
    ctx.log.error({ err: ghErr }, 'Failed to mark GitHub CheckRun failed after Job creation failure');
  }
  await ignoreNotFound(writeFailedWithoutJob(d.status, workflow, EVENT_JOB_CREATE_FAILED, message));
  return action.awaitChange();
}

/**
 * Bosun: upstream leaves a Workflow whose template is missing without a phase forever (its Branch
 * never completes). Here it ends Failed, with an Event and a check run that says why.
 */
async function failWithoutTemplate(workflow: Workflow, gh: () => Promise<GitHubClient>, ctx: Ctx): Promise<Action> {
  const d = ctx.data;
  const message = `WorkflowTemplate ${workflow.metadata.namespace ?? ''}/${workflow.spec.template} not found: no Job was created`;
  void d.recorder.warning(workflow, EVENT_TEMPLATE_NOT_FOUND, message);
  let current: Workflow | undefined = workflow;
  if (!current.status?.checkRunID) current = await createCheckRun(d, await gh(), current, defaultCheckRunName(workflow.spec.template, workflow.spec.path));
  if (!current) return action.awaitChange();
  await showPhase(await gh(), current, 'Failed', noJobOutput(current.status?.checkRunName ?? '', message));
  await ignoreNotFound(writeFailedWithoutJob(d.status, current, EVENT_TEMPLATE_NOT_FOUND, message));
  return action.awaitChange();
}

/** Never adopted: the condition and an Event say so, and the error retries with backoff (someone may remove it). */
async function refuseForeignJob(workflow: Workflow, err: JobNotControlledError, ctx: Ctx): Promise<Action> {
  void ctx.data.recorder.warning(workflow, EVENT_JOB_NOT_CONTROLLED, err.message);
  await ignoreNotFound(writeJobCondition(ctx.data.status, workflow, EVENT_JOB_NOT_CONTROLLED, err.message));
  throw err;
}

function controlledBy(job: Job, workflow: Workflow): boolean {
  return (job.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === workflow.metadata.uid);
}

function notControlled(job: Job, workflow: Workflow): JobNotControlledError {
  return new JobNotControlledError(`existing Job ${job.metadata.namespace ?? ''}/${job.metadata.name ?? ''} is not controlled by Workflow ${workflow.metadata.namespace ?? ''}/${workflow.metadata.name ?? ''}; refusing to adopt it`);
}

function getBranch(d: WorkflowControllerData, workflow: Workflow, signal: AbortSignal): Promise<Branch | undefined> {
  return cachedOrLive(d, d.branches, branchesResource, workflow.spec.branch, workflow.metadata.namespace ?? '', signal);
}

function getTemplate(d: WorkflowControllerData, workflow: Workflow, signal: AbortSignal): Promise<WorkflowTemplate | undefined> {
  return cachedOrLive(d, d.templates, workflowTemplatesResource, workflow.spec.template, workflow.metadata.namespace ?? '', signal);
}

/**
 * From the cache; a miss is confirmed with the API server, since what follows a miss cannot be undone (the
 * Workflow deleted, or failed for want of a template) and a new object may not have reached the cache yet.
 */
async function cachedOrLive<T extends KubeObject>(d: WorkflowControllerData, cache: Informer<T>, resource: ResourceRef, name: string, namespace: string, signal: AbortSignal): Promise<T | undefined> {
  const cached = cache.get(name, namespace);
  if (cached) return cached;
  return ignoreNotFound(d.client.get<T>(resource, name, { namespace, signal }));
}

