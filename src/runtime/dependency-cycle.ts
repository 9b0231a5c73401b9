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


/**
 * The nodes `start` waits on, directly or through others (start itself only when it lies on a cycle). Names
 * the graph has no entry for are ignored.
 */
export function reachableFrom(graph: ReadonlyMap<string, readonly string[]>, start: string): Set<string> {
  const seen = new Set<string>();
  const queue = [...(graph.get(start) ?? [])];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    if (seen.has(node) || !graph.has(node)) continue;
    seen.add(node);
    queue.push(...(graph.get(node) ?? []));
  }
  return seen;
}

/**
 * The shortest cycle through `node` (node → … → node), or undefined when node lies on none. A controller that
 * can only act for one object names the cycle that object is part of, not some other cycle in the graph.
 */
export function findCycleThrough(graph: ReadonlyMap<string, readonly string[]>, node: string): string[] | undefined {
  // Breadth first with the way back: the first time node is reached again, the path is a shortest cycle.
  const cameFrom = new Map<string, string>();
  const queue: string[] = [node];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    for (const next of [...(graph.get(current) ?? [])].sort()) {
      if (!graph.has(next)) continue;
      if (next === node) {
        const path = [node];
        for (let at: string | undefined = current; at !== node && at !== undefined; at = cameFrom.get(at)) path.push(at);
        return [node, ...path.slice(1).reverse(), node];
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, current);
      queue.push(next);
    }
  }
  return undefined;
}
