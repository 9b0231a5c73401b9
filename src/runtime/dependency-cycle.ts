// Cycles among objects that wait on each other (a deploy item's dependsOn, a job's needs): found and named,
// so that a controller's Failed message can say which ones form the cycle.

/**
 * A cycle in the dependency graph (node → the nodes it waits on): the names along it, the first repeated
 * last, or undefined. Names the graph has no entry for are ignored.
 */
export function findCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    const s = state.get(node);
    if (s === 'done') return undefined;
    if (s === 'visiting') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  // Sorted start points: the same graph always names the same cycle.
  for (const node of [...graph.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

