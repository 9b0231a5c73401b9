// Indexed Jobs (the job controller's indexed_job_utils): each pod carries a completion index in
// [0, completions); the Job succeeds when every index has a succeeded pod, and status.completedIndexes lists
// them as intervals ("0-2,4"). Pods learn their index from an annotation, a label, their hostname
// (<job>-<index>) and the JOB_COMPLETION_INDEX environment variable.
import type { Job, Pod, PodTemplateSpec } from '../../apimachinery/api/index.ts';
import { compareForDeletion } from '../pods/deletion-order.ts';

export const COMPLETION_INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_LABEL = 'batch.kubernetes.io/job-completion-index';
export const COMPLETION_INDEX_ENV = 'JOB_COMPLETION_INDEX';

/** The pod's completion index; undefined when it has none or a malformed one. */
export function completionIndex(pod: Pod): number | undefined {
  const value = pod.metadata.annotations?.[COMPLETION_INDEX_ANNOTATION];
  return value !== undefined && /^(0|[1-9]\d*)$/.test(value) ? Number(value) : undefined;
}

/** Parses "0-2,4" into indexes below completions; anything malformed is skipped, as upstream does. */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  for (const part of (text ?? '').split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) continue;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let i = first; i <= last && i < completions; i++) out.add(i);
  }
  return out;
}

/** Indexes as ordered intervals: [0, 1, 2, 4] → "0-2,4". */
export function formatIndexes(indexes: ReadonlySet<number>): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

/** The lowest `count` indexes that have neither succeeded nor an active pod. */
export function firstPendingIndexes(activePods: readonly Pod[], succeeded: ReadonlySet<number>, count: number, completions: number): number[] {
  const taken = new Set(activePods.map(completionIndex).filter((i): i is number => i !== undefined));
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!succeeded.has(i) && !taken.has(i)) out.push(i);
  return out;
}

/**
 * Active pods that must go whatever the parallelism: a malformed or out-of-range index, an index that already
 * succeeded, or a second pod of the same index (the most advanced one stays).
 */
export function redundantIndexedPods(activePods: readonly Pod[], succeeded: ReadonlySet<number>, completions: number): Pod[] {
  const redundant: Pod[] = [];
  const byIndex = new Map<number, Pod[]>();
  for (const pod of activePods) {
    const index = completionIndex(pod);
    if (index === undefined || index >= completions || succeeded.has(index)) redundant.push(pod);
    else byIndex.set(index, [...(byIndex.get(index) ?? []), pod]);
  }
  for (const pods of byIndex.values()) redundant.push(...pods.sort(compareForDeletion).slice(0, -1));
  return redundant;
}

/** The template of the pod for one index: annotation, label, hostname and the environment variable. */
export function templateForIndex(job: Job, template: PodTemplateSpec, index: number): PodTemplateSpec {
  const out = structuredClone(template);
  const meta = (out.metadata ??= {});
  meta.annotations = { ...meta.annotations, [COMPLETION_INDEX_ANNOTATION]: String(index) };
  meta.labels = { ...meta.labels, [COMPLETION_INDEX_LABEL]: String(index) };
  out.spec.hostname = `${job.metadata.name ?? ''}-${index}`;
  const env = { name: COMPLETION_INDEX_ENV, valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${COMPLETION_INDEX_ANNOTATION}']` } } };
  for (const container of [...out.spec.containers, ...(out.spec.initContainers ?? [])]) {
    const vars = (container['env'] as { name: string }[] | undefined) ?? [];
    if (!vars.some((v) => v.name === COMPLETION_INDEX_ENV)) container['env'] = [...vars, env];
  }
  return out;
}
