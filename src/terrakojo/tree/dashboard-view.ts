// terrakojo in the web dashboard: each Repository of the namespace → Branches → Workflows (with their check run)
// → Job → pods, the model of `bosun tree repository`.
import { dashboardNodeId, type DashboardNode, type DashboardState, type DashboardView } from '../../runtime/index.ts';
import { buildRepositoryTree, type RepositoryTreeObjects } from './build.ts';
import type { BranchNode, JobNode, PodNode, RepositoryNode, WorkflowNode } from './model.ts';
import { repositoryTreeResources } from './resources.ts';

function phaseState(phase: string | undefined): DashboardState {
  if (!phase) return 'unknown';
  if (phase === 'Succeeded') return 'succeeded';
  if (phase === 'Failed' || phase === 'Cancelled') return 'failed';
  if (phase === 'Pending') return 'waiting';
  return 'progressing';
}

function podNode(namespace: string, pod: PodNode): DashboardNode {
  const notes: DashboardNode['notes'] = [];
  if (pod.reason) notes.push({ label: 'reason', tone: pod.reason === 'Completed' ? 'info' : 'error', text: pod.reason });
  if (pod.restarts > 0) notes.push({ label: 'restarts', tone: 'info', text: String(pod.restarts) });
  return { id: dashboardNodeId('Pod', namespace, pod.name), kind: 'Pod', name: pod.name, namespace, ...(pod.phase ? { phase: pod.phase } : {}), state: phaseState(pod.phase), notes, children: [] };
}

function jobNode(namespace: string, job: JobNode): DashboardNode {
  const state: DashboardState = job.finished ? (job.finished.type === 'Complete' ? 'succeeded' : 'failed') : 'progressing';
  const notes: DashboardNode['notes'] = [{ label: 'pods', tone: 'info', text: `${job.active} active, ${job.succeeded} succeeded, ${job.failed} failed` }];
  if (job.finished?.message) notes.push({ label: job.finished.reason ?? job.finished.type, tone: state === 'failed' ? 'error' : 'info', text: job.finished.message });
  return {
    id: dashboardNodeId('Job', namespace, job.name),
    kind: 'Job',
    name: job.name,
    namespace,
    phase: job.finished?.type ?? 'Running',
    state,
    notes,
    children: job.pods.map((pod) => podNode(namespace, pod)),
  };
}

function workflowNode(namespace: string, workflow: WorkflowNode): DashboardNode {
  const notes: DashboardNode['notes'] = [{ label: 'template', tone: 'info', text: workflow.template }];
  if (workflow.checkRunID !== undefined) notes.push({ label: 'check run', tone: 'info', text: `${workflow.checkRunName ?? ''} #${workflow.checkRunID}` });
  if (workflow.problem) notes.push({ label: workflow.problem.reason, tone: 'error', text: workflow.problem.message });
  const finished = workflow.phase === 'Succeeded' || workflow.phase === 'Failed' || workflow.phase === 'Cancelled';
  return {
    id: dashboardNodeId('Workflow', namespace, workflow.name),
    kind: 'Workflow',
    name: workflow.name,
    namespace,
    ...(workflow.phase ? { phase: workflow.phase } : {}),
    state: workflow.deleting ? 'deleting' : phaseState(workflow.phase),
    ...(workflow.createdAt ? { startedAt: workflow.createdAt } : {}),
    ...(finished && workflow.phaseChangedAt ? { finishedAt: workflow.phaseChangedAt } : {}),
    notes,
    children: workflow.job ? [jobNode(namespace, workflow.job)] : [],
  };
}

function branchNode(namespace: string, branch: BranchNode): DashboardNode {
  const notes: DashboardNode['notes'] = [{ label: 'at', tone: 'info', text: `${branch.ref} ${branch.sha.slice(0, 7)}${branch.prNumber !== undefined ? ` (PR #${branch.prNumber})` : ''}` }];
  if (branch.problem) notes.push({ label: branch.problem.reason, tone: 'error', text: branch.problem.message });
  const states = branch.workflows.map((w) => phaseState(w.phase));
  const state: DashboardState = branch.deleting ? 'deleting' : branch.problem || states.includes('failed') ? 'failed' : states.every((s) => s === 'succeeded') ? 'succeeded' : 'progressing';
  return {
    id: dashboardNodeId('Branch', namespace, branch.name),
    kind: 'Branch',
    name: branch.name,
    namespace,
    // A Branch has no phase of its own: the word for what its workflows add up to.
    phase: { failed: 'Failed', succeeded: 'Succeeded', deleting: 'Deleting' }[state as string] ?? 'Running',
    state,
    notes,
    children: branch.workflows.map((workflow) => workflowNode(namespace, workflow)),
  };
}

function repositoryNode(root: RepositoryNode): DashboardNode {
  const notes: DashboardNode['notes'] = [{ label: 'GitHub', tone: 'info', text: `${root.owner}/${root.repo} (default branch ${root.defaultBranch})` }];
  if (root.sync && root.sync.status !== 'True') notes.push({ label: root.sync.reason, tone: 'error', text: root.sync.message });
  return {
    id: dashboardNodeId('Repository', root.namespace, root.name),
    kind: 'Repository',
    name: root.name,
    namespace: root.namespace,
    ...(root.sync ? { phase: root.sync.status === 'True' ? 'Synced' : root.sync.reason } : {}),
    state: root.deleting ? 'deleting' : !root.sync ? 'unknown' : root.sync.status === 'True' ? 'succeeded' : 'failed',
    notes,
    children: root.branches.map((branch) => branchNode(root.namespace, branch)),
  };
}

export const terrakojoDashboardView: DashboardView = {
  name: 'terrakojo',
  title: 'Repositories',
  resources: repositoryTreeResources,
  build: (namespace, objects) => {
    const typed = objects as unknown as RepositoryTreeObjects;
    return typed.repositories
      .filter((r) => (r.metadata.namespace ?? namespace) === namespace)
      .map((r) => buildRepositoryTree(namespace, r.metadata.name ?? '', typed).root)
      .filter((root): root is RepositoryNode => root !== undefined)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map(repositoryNode);
  },
};
