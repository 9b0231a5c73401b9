// An installation's children: its subinstallations (from status.subInstCache when known, else a label
// list on the server) and its Execution (named like the installation). Reads go to the cache first and
// to the server for objects the cache has not seen yet.
import { ENCOMPASSED_BY_LABEL } from '../api/constants.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';
import { getFresh, nameOf, namespaceOf, statusOf } from './helpers.ts';
import { executionsResource, installationsResource } from '../api/resources.ts';
import type { Deps } from './types.ts';

function controlledBy(child: Installation, parent: Installation): boolean {
  return (child.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === parent.metadata.uid);
}

/** Every existing subinstallation (active and orphaned). */
export async function subinstallations(deps: Deps, inst: Installation, fromServer = false): Promise<Installation[]> {
  const cache = statusOf(inst).subInstCache;
  const ns = namespaceOf(inst);
  if (cache !== undefined && !fromServer) {
    const names = new Set([...(cache.activeSubs ?? []).map((s) => s.objectName ?? ''), ...(cache.orphanedSubs ?? [])].filter((n) => n !== ''));
    const found = await Promise.all([...names].map((n) => getFresh<Installation>(deps, deps.installations, installationsResource, ns, n)));
    return found.filter((s): s is Installation => s !== undefined && controlledBy(s, inst));
  }
  const list = await deps.client.list<Installation>(installationsResource, { namespace: ns, labelSelector: `${ENCOMPASSED_BY_LABEL}=${nameOf(inst)}` });
  return list.items.filter((s) => controlledBy(s, inst));
}

export async function execution(deps: Deps, inst: Installation): Promise<Execution | undefined> {
  return owned(inst, await getFresh<Execution>(deps, deps.executions, executionsResource, namespaceOf(inst), nameOf(inst)));
}

/** The execution as the cache has it (a copy), without asking the server about one the cache has not seen. */
export function cachedExecution(deps: Deps, inst: Installation): Execution | undefined {
  const cached = deps.executions.get(nameOf(inst), namespaceOf(inst));
  return owned(inst, cached === undefined ? undefined : structuredClone(cached));
}

function owned(inst: Installation, exec: Execution | undefined): Execution | undefined {
  return exec !== undefined && (exec.metadata.ownerReferences ?? []).some((r) => r.uid === inst.metadata.uid) ? exec : undefined;
}

export function finishedJob(obj: { status?: { jobID?: string; jobIDFinished?: string } }, jobID: string): boolean {
  return (obj.status?.jobIDFinished ?? '') === jobID;
}
