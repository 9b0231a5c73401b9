// Builds a Repository's tree from plain object lists. Each level is found by its controller owner reference, as
// the controllers link them (Branch → Repository, Workflow → Branch, Job → Workflow, pod → Job).
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Branch, Repository, TerrakojoCondition, Workflow } from '../api/types.ts';
import type { BranchNode, JobNode, PodNode, RepositoryTreeModel, WorkflowNode } from './model.ts';

export interface RepositoryTreeObjects {
  repositories: readonly Repository[];
  branches: readonly Branch[];
  workflows: readonly Workflow[];
  jobs: readonly KubeObject[];
  pods: readonly KubeObject[];
}

type Status = Record<string, unknown>;

function controlledBy(children: readonly KubeObject[], owner: KubeObject): KubeObject[] {
  const uid = owner.metadata.uid;
  return children.filter((c) => c.metadata.ownerReferences?.some((r) => r.controller === true && r.uid === uid));
}

const byName = (a: KubeObject, b: KubeObject): number => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');

/** The first condition that says something is wrong: status False (or Unknown with a reason other than a wait). */
function problemOf(conditions: readonly TerrakojoCondition[] | undefined): { reason: string; message: string } | undefined {
  const bad = conditions?.find((c) => c.status === 'False');
  return bad ? { reason: bad.reason, message: bad.message } : undefined;
}

function podNode(pod: KubeObject): PodNode {
  const status = (pod['status'] ?? {}) as Status;
  const spec = (pod['spec'] ?? {}) as Status;
  const containers = (status['containerStatuses'] ?? []) as { restartCount?: number; state?: Record<string, { reason?: string }> }[];
  const node: PodNode = { name: pod.metadata.name ?? '', restarts: containers.reduce((n, c) => n + (c.restartCount ?? 0), 0) };
  if (typeof status['phase'] === 'string') node.phase = status['phase'];
  if (typeof spec['nodeName'] === 'string') node.node = spec['nodeName'];
  const reason = containers.map((c) => c.state?.['waiting']?.reason ?? c.state?.['terminated']?.reason).find((r) => r);
  if (reason) node.reason = reason;
  return node;
}

function jobNode(job: KubeObject, pods: readonly KubeObject[]): JobNode {
  const status = (job['status'] ?? {}) as Status;
  const count = (key: string): number => (typeof status[key] === 'number' ? (status[key] as number) : 0);
  const node: JobNode = {
    name: job.metadata.name ?? '',
    active: count('active'),
    succeeded: count('succeeded'),
    failed: count('failed'),
    pods: controlledBy(pods, job).sort(byName).map(podNode),
  };
  const conditions = (status['conditions'] ?? []) as { type: string; status: string; reason?: string; message?: string }[];
  const finished = conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (finished) node.finished = { type: finished.type, ...(finished.reason ? { reason: finished.reason } : {}), ...(finished.message ? { message: finished.message } : {}) };
  return node;
}

function workflowNode(workflow: Workflow, objects: RepositoryTreeObjects): WorkflowNode {
  const status = workflow.status ?? {};
  const node: WorkflowNode = { name: workflow.metadata.name ?? '', template: workflow.spec.template, deleting: workflow.metadata.deletionTimestamp !== undefined };
  if (workflow.spec.path !== undefined) node.path = workflow.spec.path;
  if (status.phase) node.phase = status.phase;
  if (status.checkRunID) node.checkRunID = status.checkRunID;
  if (status.checkRunName) node.checkRunName = status.checkRunName;
  if (workflow.metadata.creationTimestamp) node.createdAt = workflow.metadata.creationTimestamp;
  const changed = status.conditions?.find((c) => c.type === 'JobStatus')?.lastTransitionTime;
  if (changed) node.phaseChangedAt = changed;
  const problem = problemOf(status.conditions);
  if (problem) node.problem = problem;
  const job = controlledBy(objects.jobs, workflow)[0];
  if (job) node.job = jobNode(job, objects.pods);
  return node;
}

function branchNode(branch: Branch, objects: RepositoryTreeObjects): BranchNode {
  const node: BranchNode = {
    name: branch.metadata.name ?? '',
    ref: branch.spec.name,
    sha: branch.spec.sha,
    deleting: branch.metadata.deletionTimestamp !== undefined,
    workflows: (controlledBy(objects.workflows, branch) as Workflow[]).sort(byName).map((w) => workflowNode(w, objects)),
  };
  if (branch.spec.prNumber) node.prNumber = branch.spec.prNumber;
  const problem = problemOf(branch.status?.conditions);
  if (problem) node.problem = problem;
  return node;
}

export function buildRepositoryTree(namespace: string, name: string, objects: RepositoryTreeObjects): RepositoryTreeModel {
  const repository = objects.repositories.find((r) => r.metadata.name === name && (r.metadata.namespace ?? namespace) === namespace);
  if (!repository) return { namespace, name, root: undefined };
  const sync = repository.status?.conditions?.find((c) => c.type === 'Ready' || c.type === 'Synced');
  // The default branch's commits first (oldest name order is not time order, so by ref then name).
  const branches = (controlledBy(objects.branches, repository) as Branch[]).sort((a, b) => a.spec.name.localeCompare(b.spec.name) || byName(a, b));
  return {
    namespace,
    name,
    root: {
      name,
      namespace,
      owner: repository.spec.owner,
      repo: repository.spec.name,
      defaultBranch: repository.spec.defaultBranch,
      ...(repository.status?.lastDefaultBranchHeadSha ? { cursor: repository.status.lastDefaultBranchHeadSha } : {}),
      deleting: repository.metadata.deletionTimestamp !== undefined,
      ...(sync ? { sync: { status: sync.status, reason: sync.reason, message: sync.message } } : {}),
      branches: branches.map((b) => branchNode(b, objects)),
    },
  };
}
