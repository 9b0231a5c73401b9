// The checks of a deploy item list that the webhook, the execution controller and blueprint rendering all
// make (upstream's ValidateDeployItemTemplateList): names present and unique, a type, dependsOn naming items
// of the list, not the item itself, and no cycle. Each caller words the problems its own way.
import { findCycle } from '../../runtime/index.ts';

export interface DeployItemListEntry {
  name?: string;
  type?: string;
  dependsOn?: readonly string[];
}

export type DeployItemListProblem =
  | { kind: 'missingName'; index: number }
  | { kind: 'duplicateName'; index: number; name: string }
  | { kind: 'missingType'; index: number; name: string }
  | { kind: 'unknownDependency'; index: number; name: string; dependsOnIndex: number; dependency: string }
  | { kind: 'selfDependency'; index: number; name: string; dependsOnIndex: number }
  /** Names along the cycle, the first repeated last. */
  | { kind: 'cycle'; cycle: string[] };

/**
 * Every problem, in a stable order: per item (name, duplicate, type), then dependsOn per item, then
 * cycles. Cycles are looked for only without duplicate names (a name would not say which item is meant);
 * cycles that share an item with one already reported are not reported again.
 */
export function deployItemListProblems(items: readonly DeployItemListEntry[]): DeployItemListProblem[] {
  const problems: DeployItemListProblem[] = [];
  const names = new Set<string>();
  let duplicates = false;
  items.forEach((item, index) => {
    const name = item.name ?? '';
    if (name === '') problems.push({ kind: 'missingName', index });
    else if (names.has(name)) {
      problems.push({ kind: 'duplicateName', index, name });
      duplicates = true;
    }
    names.add(name);
    if (!item.type) problems.push({ kind: 'missingType', index, name });
  });
  items.forEach((item, index) => {
    const name = item.name ?? '';
    (item.dependsOn ?? []).forEach((dependency, dependsOnIndex) => {
      if (dependency === name && name !== '') problems.push({ kind: 'selfDependency', index, name, dependsOnIndex });
      else if (!names.has(dependency) || dependency === '') problems.push({ kind: 'unknownDependency', index, name, dependsOnIndex, dependency });
    });
  });
  if (duplicates) return problems;
  // Self-dependencies are reported above; without them the graph shows the longer cycles.
  const graph = new Map(items.filter((i) => i.name).map((i) => [i.name ?? '', (i.dependsOn ?? []).filter((d) => d !== i.name)]));
  for (let cycle = findCycle(graph); cycle !== undefined; cycle = findCycle(graph)) {
    problems.push({ kind: 'cycle', cycle });
    for (const node of cycle) graph.delete(node);
  }
  return problems;
}
