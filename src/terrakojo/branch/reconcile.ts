// The Branch reconcile (upstream's BranchReconciler.Reconcile): deletion waits for the owned Workflows to go; a
// Branch without a Repository is deleted; once its SHA's Workflows exist (the last-sha annotation) it only waits
// for them, and a default-branch commit's Branch goes when they all ended. Otherwise it plans and creates the
// Workflows for its changed files, and records them in status and in the annotation.
import { objectKey } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import type {
  Action,
  CleanupPending,
  EventRecorder,
  ReadonlyStore,
  ReadYourWrites,
  ReconcileContext,
  StatusWriter,
} from '../../runtime/index.ts';
import { action, cleanupPending, finalizer, forEachLimited } from '../../runtime/index.ts';
import { CLEANUP_WORKFLOWS_FINALIZER, KIND_BRANCH, LAST_SHA_ANNOTATION, OWNER_UID_LABEL, TERMINAL_WORKFLOW_PHASES } from '../api/constants.ts';
import { branchesResource, workflowsResource, workflowTemplatesResource } from '../api/resources.ts';
import type { Branch, Repository, Workflow, WorkflowTemplate } from '../api/types.ts';
import { deleteBranch } from '../repository/branch-objects.ts';
import { credentialsProblem, type GitHubClientProvider } from '../repository/github-access.ts';
import { controlledBy, controllerOf } from '../repository/ownership.ts';
import { findRepository } from './repository-lookup.ts';
import { applyOutcome, BranchReason, type BranchOutcome } from './status.ts';
import { planWorkflows, workflowObject } from './workflow-plan.ts';
import { messageOf } from '../../apimachinery/error-message.ts';

/** Workflow creates in flight at once: one push can touch hundreds of folders. */
const CREATE_PARALLELISM = 8;

export interface BranchDeps {
  client: KubeClient;
  github: GitHubClientProvider;
  repositories: Pick<ReadonlyStore<Repository>, 'get' | 'byIndex'>;
  workflows: Pick<ReadonlyStore<Workflow>, 'byIndex'>;
  recorder: EventRecorder;
  writer: StatusWriter<Branch>;
  /** Our own writes (status, last-sha), so a pass right after one never redoes the work on a stale cache. */
  writes: ReadYourWrites<Branch>;
}

/** An object of the planned name exists but is not this Branch's Workflow for this SHA. */
export class WorkflowNameTakenError extends Error {
  override readonly name = 'WorkflowNameTakenError' as const;
}

export async function reconcileBranch(cached: Branch, ctx: ReconcileContext<BranchDeps>): Promise<Action> {
  const d = ctx.data;
  return finalizer(d.client, branchesResource, CLEANUP_WORKFLOWS_FINALIZER, d.writes.resolve(cached), {
    apply: (branch) => reconcileLive(d, branch, ctx),
    cleanup: (branch) => deleteOwnedWorkflows(d, branch),
  });
}

async function reconcileLive(d: BranchDeps, branch: Branch, ctx: ReconcileContext<BranchDeps>): Promise<Action> {
  const repo = await findRepository(d.repositories, d.client, branch);
  if (!repo) {
    ctx.log.info({ ref: branch.spec.name, sha: branch.spec.sha }, 'no Repository for the Branch; deleting it');
    await deleteBranch(d.client, branch);
    return action.awaitChange();
  }
  // A Repository being deleted deletes this Branch next: nothing new should start for it.
  if (repo.metadata.deletionTimestamp) return action.awaitChange();
  const isDefaultBranch = branch.spec.name === repo.spec.defaultBranch;
  const workflows = controlledBy(d.workflows, branch, KIND_BRANCH);
  if (branch.metadata.annotations?.[LAST_SHA_ANNOTATION] === branch.spec.sha) {
    // A default-branch commit is done once its Workflows ended (or it had none); a ref's Branch stays. The cache
    // may not show a Workflow just made yet, so the API confirms before the Branch goes.
    if (isDefaultBranch && workflows.every(isTerminal) && (await listOwnedWorkflows(d.client, branch)).every(isTerminal)) await deleteBranch(d.client, branch);
    return action.awaitChange();
  }
  // The SHA changed under the Branch: its old Workflows go first (cancelling their check runs); their deletion wakes it.
  const stale = workflows.filter((w) => w.spec.sha !== branch.spec.sha);
  if (stale.length > 0) {
    await forEachLimited(stale, CREATE_PARALLELISM, (w) => deleteWorkflow(d.client, w));
    return action.awaitChange();
  }
  return generate(d, branch, repo, isDefaultBranch);
}

function isTerminal(workflow: Workflow): boolean {
  return workflow.status?.phase !== undefined && TERMINAL_WORKFLOW_PHASES.includes(workflow.status.phase);
}

async function generate(d: BranchDeps, branch: Branch, repo: Repository, isDefaultBranch: boolean): Promise<Action> {
  const what = describe(branch);
  const github = await step(d, branch, BranchReason.GitHubClientFailed, () => d.github(repo), (err) => `${what}: no GitHub client for ${describeRepository(repo)}: ${message(err)}`);
  const { owner, repository, prNumber, sha } = branch.spec;
  const changedFiles = await step(d, branch, BranchReason.ChangedFilesFailed, () =>
    prNumber ? github.pullRequestFiles(owner, repository, prNumber) : github.commitFiles(owner, repository, sha),
  );
  if (changedFiles.length === 0) {
    return nothingToRun(d, branch, isDefaultBranch, { reason: BranchReason.NoChangedFiles, message: `${what}: ${prNumber ? `pull request #${prNumber}` : `commit ${sha.slice(0, 12)}`} changes no files` });
  }
  const namespace = branch.metadata.namespace ?? '';
  const templates = await step(d, branch, BranchReason.TemplateListFailed, async () => (await d.client.list<WorkflowTemplate>(workflowTemplatesResource, { namespace })).items, (err) => `${what}: cannot list the WorkflowTemplates of namespace ${namespace}: ${message(err)}`);
  const planned = planWorkflows(templates, changedFiles);
  if (planned.length === 0) {
    return nothingToRun(d, branch, isDefaultBranch, {
      reason: BranchReason.NoMatchingTemplates,
      message: `${what}: none of the ${templates.length} WorkflowTemplate(s) of namespace ${namespace} gives a Workflow for the ${changedFiles.length} changed file(s)`,
      changedFiles,
    });
  }
  const workflows = planned.map((p) => workflowObject(branch, isDefaultBranch, p));
  let created = 0;
  await step(d, branch, BranchReason.WorkflowCreateFailed, () =>
    forEachLimited(workflows, CREATE_PARALLELISM, async (w) => {
      if (await createWorkflow(d.client, branch, w)) created++;
    }),
  );
  const names = workflows.map((w) => w.metadata.name ?? '');
  const done = `${what}: ${names.length} Workflow(s) for ${sha.slice(0, 12)}`;
  await finish(d, branch, { ready: true, reason: BranchReason.WorkflowCreated, message: done, workflows: names, changedFiles });
  if (created > 0) void d.recorder.normal(branch, 'WorkflowsCreated', created === names.length ? done : `${done} (${created} made now, the rest by an earlier attempt)`);
  return action.awaitChange();
}

/** Nothing to run: a default-branch commit's Branch has no more purpose; a ref's Branch remembers the SHA. */
async function nothingToRun(d: BranchDeps, branch: Branch, isDefaultBranch: boolean, outcome: Omit<BranchOutcome, 'ready'>): Promise<Action> {
  if (isDefaultBranch) await deleteBranch(d.client, branch);
  else await finish(d, branch, { ready: true, workflows: [], changedFiles: [], ...outcome });
  return action.awaitChange();
}

/** Status first, then the last-sha annotation: once that is set the SHA's work counts as done. */
async function finish(d: BranchDeps, branch: Branch, outcome: BranchOutcome): Promise<void> {
  const stored = await d.writer.write(branch, (draft) => applyOutcome(draft, outcome));
  const marked = await d.client.patch<Branch>(branchesResource, stored.metadata.name ?? '', { metadata: { annotations: { [LAST_SHA_ANNOTATION]: branch.spec.sha } } }, { type: 'merge', namespace: stored.metadata.namespace ?? '' });
  d.writes.record(stored.metadata.resourceVersion, marked);
}

/** Runs one step of the pass; on failure WorkflowReady turns False with the reason, and the error propagates. */
async function step<T>(d: BranchDeps, branch: Branch, reason: string, run: () => Promise<T>, describeError: (err: unknown) => string = (err) => `${describe(branch)}: ${message(err)}`): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const problem = credentialsProblem(err);
    const outcome = { ready: false, reason: problem?.reason ?? reason, message: describeError(err) };
    await d.writer.write(branch, (draft) => applyOutcome(draft, outcome));
    void d.recorder.warning(branch, outcome.reason, outcome.message);
    throw err;
  }
}

/** Creates the Workflow unless this Branch's Workflow of that name exists; true when this call made it. */
async function createWorkflow(client: KubeClient, branch: Branch, workflow: Workflow): Promise<boolean> {
  try {
    await client.create(workflowsResource, workflow);
    return true;
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
    // Create-if-absent: ours from an earlier attempt is fine; anything else under the name is not.
    const name = workflow.metadata.name ?? '';
    const existing = await client.get<Workflow>(workflowsResource, name, { namespace: workflow.metadata.namespace ?? '' });
    if (controllerOf(existing, KIND_BRANCH)?.uid !== branch.metadata.uid || existing.spec.sha !== branch.spec.sha || existing.metadata.deletionTimestamp) {
      throw new WorkflowNameTakenError(`Workflow ${name} exists but is not ${describe(branch)}'s Workflow for ${branch.spec.sha.slice(0, 12)} (yet): waiting for it to go`, { cause: err });
    }
    return false;
  }
}

async function deleteWorkflow(client: KubeClient, workflow: Workflow): Promise<void> {
  if (workflow.metadata.deletionTimestamp) return;
  try {
    await client.delete(workflowsResource, workflow.metadata.name ?? '', { namespace: workflow.metadata.namespace ?? '' });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

/**
 * Deletes every owned Workflow and keeps the finalizer until they are gone (their own finalizers cancel running
 * check runs): each deletion wakes the Branch through the Workflow watch. The last check reads the API.
 */
/** Deletes the Branch's Workflows; the finalizer stays until none is left (their finalizers cancel check runs first). */
async function deleteOwnedWorkflows(d: BranchDeps, branch: Branch): Promise<Action | CleanupPending> {
  const owned = await listOwnedWorkflows(d.client, branch);
  await forEachLimited(owned, CREATE_PARALLELISM, (w) => deleteWorkflow(d.client, w));
  return owned.length > 0 ? cleanupPending() : action.awaitChange();
}

/** The Branch's Workflows as the API (not the cache) has them. */
async function listOwnedWorkflows(client: KubeClient, branch: Branch): Promise<Workflow[]> {
  const uid = branch.metadata.uid ?? '';
  const listed = await client.list<Workflow>(workflowsResource, { namespace: branch.metadata.namespace ?? '', labelSelector: `${OWNER_UID_LABEL}=${uid}` });
  return listed.items.filter((w) => controllerOf(w, KIND_BRANCH)?.uid === uid);
}

function describe(branch: Branch): string {
  return `Branch ${objectKey(branch.metadata.namespace, branch.metadata.name ?? '')} (${branch.spec.owner}/${branch.spec.repository} ${branch.spec.name})`;
}

function describeRepository(repo: Repository): string {
  return `Repository ${objectKey(repo.metadata.namespace, repo.metadata.name ?? '')}`;
}

function message(err: unknown): string {
  return messageOf(err);
}
