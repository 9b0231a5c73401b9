// Pure text rendering of an installation tree, in the shape of landscaper-cli's `installations inspect`:
// `[Phase] Kind name` per node with ├── │ └── guides, a yellow `Waiting:` line under nodes that wait (the normal
// course of a job) and a red `Last error:` line under nodes that failed or retry an error.
import { styleText } from 'node:util';
import { isFailedPhase, PHASE_SUCCEEDED } from '../api/constants.ts';
import { between, formatDuration } from '../../apimachinery/elapsed.ts';
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

type Style = Parameters<typeof styleText>[0];

const SHORT_JOB_ID = 8;
const DEFAULT_MAX_ERROR = 160;

/** Succeeded green, Failed/DeleteFailed red, anything else still moving yellow, no phase yet dim. */
export function phaseStyle(phase: string | undefined): Style {
  if (phase === undefined) return 'dim';
  if (phase === PHASE_SUCCEEDED) return 'green';
  if (isFailedPhase(phase)) return 'red';
  return 'yellow';
}

/** One line, whitespace collapsed, cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
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

/** The lines of the given trees, each root at the left margin. */
function treeLines(roots: readonly TreeNode[], options: RenderOptions, paint: Paint): string[] {
  const maxError = options.maxErrorLength ?? DEFAULT_MAX_ERROR;

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

  // A labelled message under a node: one cut line, or with `wide` every line of it, the later ones indented.
  const message = (under: string, label: string, style: Style, text: string): string[] => {
    if (!options.wide) return [`${under}${paint('dim', label)} ${paint(style, truncate(text, maxError))}`];
    const [first = '', ...rest] = text.trimEnd().split('\n');
    return [`${under}${paint('dim', label)} ${paint(style, first)}`, ...rest.map((line) => `${under}  ${paint(style, line)}`)];
  };

  const label = (name: string, ...where: (string | undefined)[]): string => {
    const w = where.filter((s) => s).join('/');
    return w ? `${name} (${w}):` : `${name}:`;
  };

  const lines: string[] = [];
  const walk = (node: TreeNode, prefix: string, connector: string, isRoot: boolean): void => {
    lines.push(prefix + connector + nodeLine(node, isRoot));
    // Children (and the message lines) hang under this node's column.
    const inner = isRoot ? '' : prefix + (connector === '└── ' ? '    ' : '│   ');
    const under = `${inner}${node.children.length > 0 ? '│   ' : '    '}`;
    if (node.waitingFor) lines.push(...message(under, label('Waiting', node.waitingReason), 'yellow', node.waitingFor));
    const e = node.lastError;
    if (e) lines.push(...message(under, label('Last error', e.operation, e.reason), 'red', e.message));
    node.children.forEach((child, i) => walk(child, inner, i === node.children.length - 1 ? '└── ' : '├── ', false));
  };
  for (const root of roots) walk(root, '', '', true);
  return lines;
}

type Paint = (style: Style, text: string) => string;

function painter(options: RenderOptions): Paint {
  // validateStream false: the caller has decided about colour; styleText must not second-guess it.
  return (style, text) => (options.color ? styleText(style, text, { validateStream: false }) : text);
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
