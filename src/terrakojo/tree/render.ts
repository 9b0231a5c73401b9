// Pure text rendering of a Repository's tree: `[Phase] Kind name` lines with the check run each Workflow
// mirrors, its Job and pods, and problems (a False condition, a failed Job) as notes under their node.
import { between, formatDuration } from '../../apimachinery/elapsed.ts';
import type { Paint, Style, TextTreeNode } from '../../runtime/index.ts';
import { painter, textTreeLines } from '../../runtime/index.ts';
import { checkRunStateOf, isTerminalPhase } from '../workflow/phase.ts';
import type { BranchNode, JobNode, PodNode, RepositoryTreeModel, WorkflowNode } from './model.ts';

export interface RepositoryRenderOptions {
  color: boolean;
  /** The reference time for running durations; a parameter so output is reproducible. */
  now: Date;
  maxErrorLength?: number;
  wide?: boolean;
}

const SHORT_SHA = 8;

function phaseStyle(phase: string | undefined): Style {
  if (phase === undefined) return 'dim';
  if (phase === 'Succeeded') return 'green';
  if (phase === 'Failed') return 'red';
  if (phase === 'Cancelled') return 'magenta';
  return 'yellow';
}

function checkRunText(workflow: WorkflowNode): string {
  if (!workflow.checkRunID) return 'no check run yet';
  const state = checkRunStateOf(workflow.phase);
  return `check run #${workflow.checkRunID} ${state.conclusion ? `${state.status}/${state.conclusion}` : state.status}`;
}

function durationText(workflow: WorkflowNode, now: Date): string | undefined {
  if (!workflow.createdAt) return undefined;
  if (isTerminalPhase(workflow.phase) && workflow.phaseChangedAt) {
    const ms = between(workflow.createdAt, workflow.phaseChangedAt);
    return ms === undefined ? undefined : `took ${formatDuration(ms)}`;
  }
  const ms = between(workflow.createdAt, now);
  return ms === undefined ? undefined : `for ${formatDuration(ms)}`;
}

function podLine(pod: PodNode, paint: Paint): TextTreeNode {
  const parts = [paint(phaseStyle(pod.phase), `[${pod.phase ?? 'no phase'}]`), `Pod ${paint('bold', pod.name)}`];
  if (pod.node) parts.push(paint('dim', `on ${pod.node}`));
  if (pod.reason) parts.push(pod.reason);
  if (pod.restarts > 0) parts.push(paint('yellow', `${pod.restarts} restart${pod.restarts === 1 ? '' : 's'}`));
  return { line: parts.join('  '), notes: [], children: [] };
}

function jobLine(job: JobNode, paint: Paint): TextTreeNode {
  const counts = [job.active && `${job.active} active`, job.succeeded && `${job.succeeded} succeeded`, job.failed && `${job.failed} failed`].filter((c) => c);
  const parts = [`Job ${paint('bold', job.name)}`, counts.length > 0 ? counts.join(', ') : paint('dim', 'no pods yet')];
  if (job.finished) parts.push(paint(job.finished.type === 'Complete' ? 'green' : 'red', job.finished.type));
  const notes = job.finished?.type === 'Failed' && job.finished.message ? [{ label: `Failed${job.finished.reason ? ` (${job.finished.reason})` : ''}:`, style: 'red' as const, text: job.finished.message }] : [];
  return { line: parts.join('  '), notes, children: job.pods.map((p) => podLine(p, paint)) };
}

function workflowLine(workflow: WorkflowNode, options: RepositoryRenderOptions, paint: Paint): TextTreeNode {
  const parts = [
    paint(phaseStyle(workflow.phase), `[${workflow.phase ?? 'no phase'}]`),
    `Workflow ${paint('bold', workflow.name)}`,
    workflow.checkRunName ?? `${workflow.template}(${workflow.path ?? ''})`,
    paint('cyan', checkRunText(workflow)),
  ];
  if (workflow.deleting) parts.push(paint('magenta', 'deleting'));
  const duration = durationText(workflow, options.now);
  if (duration) parts.push(paint('dim', duration));
  const notes = workflow.problem ? [{ label: `${workflow.problem.reason}:`, style: 'red' as const, text: workflow.problem.message }] : [];
  return { line: parts.join('  '), notes, children: workflow.job ? [jobLine(workflow.job, paint)] : [] };
}

function branchLine(branch: BranchNode, options: RepositoryRenderOptions, paint: Paint): TextTreeNode {
  const parts = [`Branch ${paint('bold', branch.name)}`, `${branch.ref} @ ${branch.sha.slice(0, SHORT_SHA)}`];
  if (branch.prNumber) parts.push(`PR #${branch.prNumber}`);
  if (branch.deleting) parts.push(paint('magenta', 'deleting'));
  if (branch.workflows.length === 0) parts.push(paint('dim', 'no workflows'));
  const notes = branch.problem ? [{ label: `${branch.problem.reason}:`, style: 'red' as const, text: branch.problem.message }] : [];
  return { line: parts.join('  '), notes, children: branch.workflows.map((w) => workflowLine(w, options, paint)) };
}

export function renderRepositoryTree(model: RepositoryTreeModel, options: RepositoryRenderOptions): string {
  const paint = painter(options);
  const repo = model.root;
  if (!repo) return `${paint('red', 'not found:')} Repository ${model.namespace}/${model.name}\n`;
  const parts = [`Repository ${paint('bold', `${repo.namespace}/${repo.name}`)}`, `${repo.owner}/${repo.repo}`, `${repo.defaultBranch}${repo.cursor ? ` at ${repo.cursor.slice(0, SHORT_SHA)}` : ''}`];
  if (repo.sync) parts.push(paint(repo.sync.status === 'True' ? 'green' : 'red', repo.sync.status === 'True' ? 'synced' : 'not synced'));
  if (repo.deleting) parts.push(paint('magenta', 'deleting'));
  const notes = repo.sync && repo.sync.status !== 'True' ? [{ label: `${repo.sync.reason}:`, style: 'red' as const, text: repo.sync.message }] : [];
  const root: TextTreeNode = { line: parts.join('  '), notes, children: repo.branches.map((b) => branchLine(b, options, paint)) };
  return [...textTreeLines([root], options, paint), summaryLine(repo.branches, paint)].join('\n') + '\n';
}

/** "2 branches, 3 workflows: 2 Succeeded, 1 Running". */
function summaryLine(branches: readonly BranchNode[], paint: Paint): string {
  const counts = new Map<string, number>();
  let workflows = 0;
  for (const b of branches) {
    for (const w of b.workflows) {
      workflows++;
      const key = w.phase ?? 'no phase';
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  const parts = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([phase, n]) => paint(phaseStyle(phase === 'no phase' ? undefined : phase), `${n} ${phase}`));
  const head = `${branches.length} branch${branches.length === 1 ? '' : 'es'}, ${workflows} workflow${workflows === 1 ? '' : 's'}`;
  return parts.length > 0 ? `${head}: ${parts.join(', ')}` : head;
}
