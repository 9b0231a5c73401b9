// Pure text rendering of an installation tree, in the shape of landscaper-cli's `installations inspect`:
// `[Phase] Kind name` per node with ├── │ └── guides, a yellow `Waiting:` line under nodes that wait (the normal
// course of a job) and a red `Last error:` line under nodes that failed or retry an error.
import { isFailedPhase, PHASE_SUCCEEDED } from '../api/constants.ts';
import { between, formatDuration } from '../../apimachinery/elapsed.ts';
import type { Paint, Style, TextTreeNode } from '../../runtime/index.ts';
import { painter, textTreeLines } from '../../runtime/index.ts';
import type { ForestModel, TreeModel, TreeNode } from './model.ts';

export interface RenderOptions {
  /** ANSI colours (the caller decides: a TTY without NO_COLOR). */
  color: boolean;
  /** The reference time for running durations; a parameter so output is reproducible. */
  now: Date;
  /** Error messages are cut to this many characters (default 160). */
  maxErrorLength?: number;
  /** Print error and wait messages whole, on as many lines as they have, instead of cutting them. */
  wide?: boolean;
}

const SHORT_JOB_ID = 8;

/** Succeeded green, Failed/DeleteFailed red, anything else still moving yellow, no phase yet dim. */
export function phaseStyle(phase: string | undefined): Style {
  if (phase === undefined) return 'dim';
  if (phase === PHASE_SUCCEEDED) return 'green';
  if (isFailedPhase(phase)) return 'red';
  return 'yellow';
}

function running(node: TreeNode): boolean {
  return node.jobID !== undefined && node.jobID !== (node.jobIDFinished ?? '');
}

/** "took 12s" for a finished job, "running 12s" for a running one, "for 12s" (in this phase) otherwise. */
export function durationText(node: TreeNode, now: Date): string | undefined {
  if (node.startedAt && node.finishedAt && !running(node)) {
    const ms = between(node.startedAt, node.finishedAt);
    if (ms !== undefined) return `took ${formatDuration(ms)}`;
  }
  if (node.startedAt && running(node)) {
    const ms = between(node.startedAt, now);
    if (ms !== undefined) return `running ${formatDuration(ms)}`;
  }
  if (node.phaseChangedAt) {
    const ms = between(node.phaseChangedAt, now);
    if (ms !== undefined) return `for ${formatDuration(ms)}`;
  }
  return undefined;
}

/** The given trees as text-tree nodes: `[Phase] Kind name` lines, waits and last errors as notes. */
function textNodes(roots: readonly TreeNode[], options: RenderOptions, paint: Paint): TextTreeNode[] {
  const nodeLine = (node: TreeNode, isRoot: boolean): string => {
    const parts = [
      paint(phaseStyle(node.phase), `[${node.phase ?? 'no phase'}]`),
      `${node.kind} ${paint('bold', isRoot ? `${node.namespace}/${node.name}` : node.name)}${node.type ? ` (${node.type})` : ''}`,
    ];
    if (node.deleting) parts.push(paint('magenta', 'deleting'));
    if (node.jobID) {
      const job = `job ${node.jobID.slice(0, SHORT_JOB_ID)}`;
      parts.push(running(node) ? `${paint('cyan', job)} ${paint('yellow', '(running)')}` : paint('cyan', job));
    }
    const duration = durationText(node, options.now);
    if (duration) parts.push(paint('dim', duration));
    return parts.join('  ');
  };
  const label = (name: string, ...where: (string | undefined)[]): string => {
    const w = where.filter((s) => s).join('/');
    return w ? `${name} (${w}):` : `${name}:`;
  };
  const convert = (node: TreeNode, isRoot: boolean): TextTreeNode => {
    const notes: TextTreeNode['notes'][number][] = [];
    if (node.waitingFor) notes.push({ label: label('Waiting', node.waitingReason), style: 'yellow', text: node.waitingFor });
    const e = node.lastError;
    if (e) notes.push({ label: label('Last error', e.operation, e.reason), style: 'red', text: e.message });
    return { line: nodeLine(node, isRoot), notes, children: node.children.map((c) => convert(c, false)) };
  };
  return roots.map((root) => convert(root, true));
}

function treeLines(roots: readonly TreeNode[], options: RenderOptions, paint: Paint): string[] {
  return textTreeLines(textNodes(roots, options, paint), options, paint);
}

export function renderTree(model: TreeModel, options: RenderOptions): string {
  const paint = painter(options);
  if (!model.root) return `${paint('red', 'not found:')} ${model.rootKind ?? 'Installation'} ${model.namespace}/${model.name}\n`;
  return [...treeLines([model.root], options, paint), summaryLine([model.root], paint)].join('\n') + '\n';
}

/** Every top-level installation's tree, one after the other, and one summary over all of them. */
export function renderForest(model: ForestModel, options: RenderOptions): string {
  const paint = painter(options);
  if (model.roots.length === 0) return `no installations in namespace ${model.namespace}\n`;
  return [...treeLines(model.roots, options, paint), summaryLine(model.roots, paint)].join('\n') + '\n';
}

/** Counts by phase over the whole tree, e.g. "6 objects: 5 Succeeded, 1 Progressing". */
function summaryLine(roots: readonly TreeNode[], paint: Paint): string {
  const counts = new Map<string, number>();
  let total = 0;
  const count = (n: TreeNode): void => {
    total++;
    const key = n.phase ?? 'no phase';
    counts.set(key, (counts.get(key) ?? 0) + 1);
    n.children.forEach(count);
  };
  roots.forEach(count);
  const parts = [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([phase, n]) => paint(phaseStyle(phase === 'no phase' ? undefined : phase), `${n} ${phase}`));
  return `${total} object${total === 1 ? '' : 's'}: ${parts.join(', ')}`;
}
