// registerWorkflowController(mgr, options): the terrakojo WorkflowReconciler on Bosun's runtime. Workflows
// are the primary kind; the Jobs they control wake them (upstream's For(Workflow).Owns(Job)). Branches and
// WorkflowTemplates are read through shared caches, not watched, as upstream.
import { jobsResource, secretsResource } from '../../apimachinery/builtin-resources.ts';
import { objectKey, type KubeObject } from '../../apimachinery/object.ts';
import type { Controller, Manager } from '../../runtime/index.ts';
import { statusWriter } from '../../runtime/index.ts';
import { KIND_BRANCH, KIND_REPOSITORY } from '../api/constants.ts';
import { branchesResource, repositoriesResource, workflowsResource, workflowTemplatesResource } from '../api/resources.ts';
import type { Branch, Repository, Workflow, WorkflowTemplate } from '../api/types.ts';
import { controlledBy } from '../repository/ownership.ts';
import { indexRepositoriesBySecret, repositoriesUsing, secretContentChanged } from '../repository/secret-index.ts';
import { reconcileWorkflow, workflowErrorPolicy } from './controller.ts';
import type { Job } from '../../apimachinery/api/index.ts';
import type { WorkflowControllerData, WorkflowControllerOptions } from './options.ts';
import { ShownCheckRuns } from './shown-check-runs.ts';

export type { GitHubClientForBranch, WorkflowControllerData, WorkflowControllerOptions } from './options.ts';

export const WORKFLOW_CONTROLLER_NAME = 'terrakojo-workflow';
const DEFAULT_CANCEL_TIMEOUT_MS = 5 * 60_000;
const DEFAULT_LOG_TAIL_LINES = 50;
const DEFAULT_LOG_LIMIT_BYTES = 16 * 1024;

export function registerWorkflowController(mgr: Manager, options: WorkflowControllerOptions): Controller<Workflow, WorkflowControllerData> {
  const jobs = mgr.informer<Job>(jobsResource);
  const data: WorkflowControllerData = {
    client: mgr.client,
    github: options.github,
    recorder: mgr.recorder('terrakojo-workflow-controller'),
    status: statusWriter<Workflow>(mgr.client, workflowsResource),
    branches: mgr.informer<Branch>(branchesResource),
    templates: mgr.informer<WorkflowTemplate>(workflowTemplatesResource),
    jobs,
    detailsUrlBase: options.detailsUrlBase,
    cancelTimeoutMs: options.cancelTimeoutMs ?? DEFAULT_CANCEL_TIMEOUT_MS,
    logTail: { tailLines: options.logTail?.tailLines ?? DEFAULT_LOG_TAIL_LINES, limitBytes: options.logTail?.limitBytes ?? DEFAULT_LOG_LIMIT_BYTES },
    shown: new ShownCheckRuns(),
    now: options.now ?? (() => new Date()),
  };
  const repositories = mgr.informer<Repository>(repositoriesResource);
  const workflows = mgr.informer<Workflow>(workflowsResource);
  indexRepositoriesBySecret(repositories);
  // A change of the Secret a Workflow's Repository reads wakes it: a fixed Secret ends a credentials error at once.
  const workflowsReading = (secret: KubeObject): string[] =>
    repositoriesUsing(repositories, secret)
      .flatMap((repo) => controlledBy(data.branches.store, repo, KIND_REPOSITORY))
      .flatMap((branch) => controlledBy(workflows.store, branch, KIND_BRANCH))
      .map((w) => objectKey(w.metadata.namespace, w.metadata.name ?? ''));
  return mgr
    .controller<Workflow, WorkflowControllerData>({
      name: options.name ?? WORKFLOW_CONTROLLER_NAME,
      for: workflowsResource,
      data,
      concurrency: options.concurrency ?? 4,
      reconcile: reconcileWorkflow,
      errorPolicy: workflowErrorPolicy,
    })
    .owns(jobs)
    .watches(mgr.informer(secretsResource), workflowsReading, { predicates: [secretContentChanged] });
}
