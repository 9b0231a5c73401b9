// Siblings, predecessors and successors (upstream installations/context.go, pkg/utils/dependencies,
// reconcilehelper): siblings share a parent (roots: no encompassed-by label); a predecessor exports
// something I import, a successor imports something I export. Index functions let the controller wake
// both sides of an edge on any change, so waiting never polls.
import { ENCOMPASSED_BY_LABEL, OPERATION_ANNOTATION, OPERATION_RECONCILE, PHASE_DELETE_FAILED, PHASE_SUCCEEDED } from '../api/constants.ts';
import type { Installation } from '../api/installation.ts';
import type { Waiting } from '../../runtime/index.ts';
import { findCycleThrough, reachableFrom } from '../../runtime/index.ts';
import { isRoot, nameOf, namespaceOf, statusOf } from './helpers.ts';
import type { Deps } from './types.ts';
import { ConfigurationError, JobFailedError } from '../ls-error.ts';

export const SCOPE_INDEX = 'landscaper.scope';
export const IMPORTS_INDEX = 'landscaper.imports';
export const EXPORTS_INDEX = 'landscaper.exports';

/** "<namespace>/<parent or empty>": the sibling group of an installation. */
export function scopeKey(inst: Installation): string {
  return `${namespaceOf(inst)}/${inst.metadata.labels?.[ENCOMPASSED_BY_LABEL] ?? ''}`;
}

/** Export keys ("data:<dataRef>", "target:<name>") an installation writes into its scope. */
export function exportKeys(inst: Installation): string[] {
  return [
    ...(inst.spec.exports?.data ?? []).map((d) => `data:${d.dataRef}`),
    ...(inst.spec.exports?.targets ?? []).map((t) => `target:${t.target}`),
  ];
}

/** Import keys it reads from its scope; targetListRef/targetMapRef and Secret/ConfigMap imports come from the parent, not siblings. */
export function importKeys(inst: Installation): string[] {
  const keys: string[] = [];
  for (const d of inst.spec.imports?.data ?? []) if (d.dataRef !== undefined && d.dataRef !== '') keys.push(`data:${d.dataRef}`);
  for (const t of inst.spec.imports?.targets ?? []) {
    if (t.target !== undefined && t.target !== '') keys.push(`target:${t.target}`);
    for (const x of t.targets ?? []) keys.push(`target:${x}`);
    for (const x of Object.values(t.targetMap ?? {})) keys.push(`target:${x}`);
  }
  return [...new Set(keys)];
}

export const indexers = {
  [SCOPE_INDEX]: (i: Installation): string => scopeKey(i),
  [IMPORTS_INDEX]: (i: Installation): string[] => importKeys(i).map((k) => `${scopeKey(i)}|${k}`),
  [EXPORTS_INDEX]: (i: Installation): string[] => exportKeys(i).map((k) => `${scopeKey(i)}|${k}`),
};

export function siblings(deps: Deps, inst: Installation): Installation[] {
  const me = nameOf(inst);
  return deps.installations.byIndex(SCOPE_INDEX, scopeKey(inst)).filter((s) => nameOf(s) !== me);
}

/**
 * The siblings on the other side of `keys` in `index`, from the cache's index: a scope can hold every root of
 * a namespace (thousands), and most installations have no edge at all.
 */
function edgeSiblings(deps: Deps, inst: Installation, index: string, keys: readonly string[]): Installation[] {
  const scope = scopeKey(inst);
  const me = nameOf(inst);
  const out = new Map<string, Installation>();
  for (const k of keys) for (const s of deps.installations.byIndex(index, `${scope}|${k}`)) if (nameOf(s) !== me) out.set(nameOf(s), s);
  return [...out.values()];
}

/** The siblings exporting something `inst` imports: all that predecessors() looks at among the siblings. */
export function exportingSiblings(deps: Deps, inst: Installation): Installation[] {
  return edgeSiblings(deps, inst, EXPORTS_INDEX, importKeys(inst));
}

/** The siblings importing something `inst` exports: all that successors() looks at among the siblings. */
export function importingSiblings(deps: Deps, inst: Installation): Installation[] {
  return edgeSiblings(deps, inst, IMPORTS_INDEX, exportKeys(inst));
}

/** Keys of the installations that import what `inst` exports or export what it imports (same scope). */
export function neighbourKeys(deps: Deps, inst: Installation): string[] {
  const out = new Set([...importingSiblings(deps, inst), ...exportingSiblings(deps, inst)].map((s) => `${namespaceOf(s)}/${nameOf(s)}`));
  return [...out];
}

/** The siblings exporting what `inst` imports; two exporters of one import are fatal. */
export function predecessors(inst: Installation, sibs: readonly Installation[]): Installation[] {
  const exporters = new Map<string, Installation[]>();
  for (const s of sibs) for (const k of exportKeys(s)) exporters.set(k, [...(exporters.get(k) ?? []), s]);
  const out = new Map<string, Installation>();
  for (const k of importKeys(inst)) {
    const found = exporters.get(k) ?? [];
    if (found.length > 1) {
      const [kind, ref] = k.split(/:(.*)/s);
      throw new ConfigurationError('Init', 'DuplicateExport', `${kind} export ${JSON.stringify(ref)} imported by ${nameOf(inst)} is exported by more than one sibling: ${found.map(nameOf).sort().join(', ')}`);
    }
    for (const f of found) out.set(nameOf(f), f);
  }
  return [...out.values()];
}

/** Each of the group's installations → the names of those in the group exporting what it imports. */
function importGraph(group: readonly Installation[]): Map<string, string[]> {
  const exporters = new Map<string, string[]>();
  for (const s of group) for (const k of exportKeys(s)) exporters.set(k, [...(exporters.get(k) ?? []), nameOf(s)]);
  return new Map(group.map((s) => [nameOf(s), [...new Set(importKeys(s).flatMap((k) => exporters.get(k) ?? []))]]));
}

/**
 * Siblings that import each other's exports, directly or around a longer loop, would each wait for the other
 * to finish, forever (upstream's trap): a cycle through `inst` is fatal and named.
 */
export function rejectImportCycle(inst: Installation, sibs: readonly Installation[]): void {
  const cycle = findCycleThrough(importGraph([inst, ...sibs]), nameOf(inst));
  if (cycle === undefined) return;
  throw new ConfigurationError('Init', 'ImportCycle', `import cycle between sibling installations: ${cycle.join(' → ')}`);
}

/** The siblings `inst` imports from, directly or through others: on an import cycle, these include its successors. */
export function transitivePredecessors(inst: Installation, sibs: readonly Installation[]): Set<string> {
  return reachableFrom(importGraph([inst, ...sibs]), nameOf(inst));
}

/**
 * The successors that `inst`'s finish or deletion has to wait for or trigger: those that are also its
 * (transitive) predecessors form an import cycle with it, and waiting for them would never end.
 */
export function successorsOutsideCycles(deps: Deps, inst: Installation): Installation[] {
  const succs = successors(inst, importingSiblings(deps, inst));
  if (succs.length === 0) return succs;
  // A cycle may run through any sibling: only now the whole scope is needed.
  const preds = transitivePredecessors(inst, siblings(deps, inst));
  return succs.filter((s) => !preds.has(nameOf(s)));
}

/** The siblings importing one of `inst`'s exports (targetMap imports count too, unlike upstream). */
export function successors(inst: Installation, sibs: readonly Installation[]): Installation[] {
  const mine = new Set(exportKeys(inst));
  if (mine.size === 0) return [];
  return sibs.filter((s) => importKeys(s).some((k) => mine.has(k)));
}

/**
 * Readiness of the predecessors (reconcilehelper): a root's predecessor must have no pending reconcile
 * annotation and a finished job; a non-root's must have finished my job. Unfinished → wait; finished but
 * not Succeeded → fatal.
 */
export function predecessorsWait(inst: Installation, preds: readonly Installation[]): Waiting | undefined {
  const root = isRoot(inst);
  const myJob = statusOf(inst).jobID ?? '';
  const waiting: string[] = [];
  const failed: string[] = [];
  for (const p of preds) {
    const ps = statusOf(p);
    const finished = root
      ? p.metadata.annotations?.[OPERATION_ANNOTATION] !== OPERATION_RECONCILE && (ps.jobID ?? '') === (ps.jobIDFinished ?? '')
      : (ps.jobIDFinished ?? '') === myJob;
    if (!finished) waiting.push(nameOf(p));
    else if (ps.phase !== PHASE_SUCCEEDED) failed.push(`${nameOf(p)} (${ps.phase ?? 'no phase'})`);
  }
  if (waiting.length > 0) {
    return { reason: 'PredecessorsNotFinished', message: `waiting for predecessor installation(s) to finish: ${waiting.sort().join(', ')}` };
  }
  if (failed.length > 0) {
    throw new JobFailedError('Init', 'PredecessorFailed', `predecessor installation(s) did not succeed: ${failed.sort().join(', ')}`);
  }
  return undefined;
}

/** Successors blocking my deletion: all of them unless they already failed their deletion (then fatal). */
export function successorsBlockingDelete(inst: Installation, succs: readonly Installation[]): Waiting | undefined {
  if (succs.length === 0) return undefined;
  const failed = succs.filter((s) => statusOf(s).phase === PHASE_DELETE_FAILED && (statusOf(s).jobID ?? '') === (statusOf(s).jobIDFinished ?? ''));
  if (failed.length > 0) {
    throw new JobFailedError('InitDelete', 'SuccessorDeleteFailed', `cannot delete: successor installation(s) failed their deletion: ${failed.map(nameOf).sort().join(', ')}`);
  }
  const list = succs.map((s) => `${nameOf(s)}${s.metadata.deletionTimestamp !== undefined ? ' (being deleted)' : ''}`).sort();
  return {
    reason: 'WaitingForSuccessors',
    message: `waiting for successor installation(s) that import this installation's exports to be deleted first: ${list.join(', ')} (annotate landscaper.gardener.cloud/delete-ignore-successors=true to skip)`,
  };
}

