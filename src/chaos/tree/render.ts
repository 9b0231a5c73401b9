// Pure text rendering of a Disruption's tree: the disruption with its injection status and counts, each target
// with one line per kind (its injection status and chaos pod), and what cleanup waits for while it is deleted.
import { between, formatDuration } from '../../apimachinery/elapsed.ts';
import type { Paint, Style, TextTreeNode } from '../../runtime/index.ts';
import { painter, textTreeLines } from '../../runtime/index.ts';
import type { ChaosPodNode, DisruptionNode, DisruptionTreeModel, TargetKindNode, TargetNode } from './model.ts';

export interface DisruptionRenderOptions {
  color: boolean;
  now: Date;
  maxErrorLength?: number;
  wide?: boolean;
}

function statusStyle(status: string | undefined): Style {
  if (status === undefined || status === '') return 'dim';
  if (status === 'Injected') return 'green';
  if (status === 'IsStuckOnRemoval') return 'red';
  if (status.startsWith('Previously')) return 'dim';
  return 'yellow';
}

function podText(pod: ChaosPodNode, paint: Paint): string {
  const parts = [`pod ${paint('bold', pod.name)}`, paint(pod.phase === 'Failed' ? 'red' : 'dim', pod.phase ?? 'no phase')];
  if (pod.ready) parts.push(paint('green', 'ready'));
  if (pod.reason) parts.push(pod.reason);
  if (pod.deleting) parts.push(paint('magenta', pod.finalizer ? 'deleting, injector cleaning' : 'deleting'));
  return parts.join('  ');
}

function kindLine(kind: TargetKindNode, paint: Paint): TextTreeNode {
  const parts = [paint(statusStyle(kind.status), `[${kind.status ?? 'NotInjected'}]`), kind.kind];
  parts.push(kind.pod ? podText(kind.pod, paint) : paint('dim', 'no chaos pod'));
  return { line: parts.join('  '), notes: [], children: [] };
}

function targetLine(target: TargetNode, paint: Paint): TextTreeNode {
  const parts = [`Target ${paint('bold', target.name)}`, paint(target.state === 'gone' ? 'red' : 'dim', target.state)];
  if (target.node) parts.push(paint('dim', `on ${target.node}`));
  return { line: parts.join('  '), notes: [], children: target.kinds.map((k) => kindLine(k, paint)) };
}

function timeText(root: DisruptionNode, now: Date): string | undefined {
  if (!root.createdAt) return undefined;
  const age = between(root.createdAt, now);
  if (age === undefined) return undefined;
  return root.duration ? `${formatDuration(age)} of ${root.duration}` : `for ${formatDuration(age)}`;
}

/** While the disruption is being deleted: what its finalizer still waits for. */
function cleanupNotes(root: DisruptionNode): { label: string; style: Style; text: string }[] {
  if (!root.deleting) return [];
  const pods = [...root.targets.flatMap((t) => t.kinds.flatMap((k) => (k.pod ? [k.pod] : []))), ...root.strays];
  if (root.stuckOnRemoval) {
    const stuck = pods.filter((p) => p.finalizer).map((p) => `${p.name} (${p.phase ?? 'no phase'}${p.reason ? `, ${p.reason}` : ''})`);
    return [{ label: 'stuck on removal:', style: 'red', text: stuck.length > 0 ? `chaos pods ${stuck.join(', ')} did not clean; read their logs, then remove their finalizer` : 'see the StuckOnRemoval event' }];
  }
  if (pods.length > 0) return [{ label: 'cleanup waits for:', style: 'yellow', text: `${pods.length} chaos pod${pods.length === 1 ? '' : 's'} to clean and go (${pods.map((p) => p.name).join(', ')})` }];
  if (root.cleanedAt) return [{ label: 'cleaned at', style: 'green', text: `${root.cleanedAt}; the finalizer goes after the finalizer deletion delay` }];
  return [{ label: 'cleanup:', style: 'yellow', text: 'waiting for the controller' }];
}

export function renderDisruptionTree(model: DisruptionTreeModel, options: DisruptionRenderOptions): string {
  const paint = painter(options);
  const root = model.root;
  if (!root) return `${paint('red', 'not found:')} Disruption ${model.namespace}/${model.name}\n`;
  const c = root.counts;
  const parts = [
    paint(statusStyle(root.injectionStatus), `[${root.injectionStatus || 'NotInjected'}]`),
    `Disruption ${paint('bold', `${root.namespace}/${root.name}`)}`,
    `${root.level} level: ${root.kinds.join(', ') || 'no kind'}`,
    `targets ${c.injected}/${c.desired} injected, ${c.selected} selected, ${c.ignored} ignored`,
  ];
  if (root.dryRun) parts.push(paint('cyan', 'dry-run'));
  if (root.deleting) parts.push(paint('magenta', 'deleting'));
  const time = timeText(root, options.now);
  if (time) parts.push(paint('dim', time));
  const strays: TextTreeNode[] = root.strays.map((pod) => ({ line: `${paint('dim', '(no longer a target)')}  ${podText(pod, paint)}`, notes: [], children: [] }));
  const top: TextTreeNode = { line: parts.join('  '), notes: cleanupNotes(root), children: [...root.targets.map((t) => targetLine(t, paint)), ...strays] };
  return textTreeLines([top], options, paint).join('\n') + '\n';
}
