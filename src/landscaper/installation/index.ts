// The Landscaper Installation controller on Bosun's runtime: registerInstallationController(mgr).
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { Controller, Manager, Predicate } from '../../runtime/index.ts';
import { statusWriter } from '../../runtime/index.ts';
import { OPERATION_ANNOTATION } from '../api/constants.ts';
import type { Context } from '../api/context.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';
import { reconcileInstallation } from './reconcile.ts';
import { contextsResource, executionsResource, installationsResource } from '../api/resources.ts';
import { indexers, neighbourKeys } from './siblings.ts';
import type { Deps, InstallationControllerOptions } from './types.ts';

/** Only changes a neighbour's readiness checks look at: job, phase, deletion, reconcile annotation. */
const neighbourRelevant: Predicate = (e) => {
  if (e.type !== 'modified' || e.old === undefined) return true;
  const a = e.old as Installation;
  const b = e.object as Installation;
  return (
    a.status?.jobID !== b.status?.jobID ||
    a.status?.jobIDFinished !== b.status?.jobIDFinished ||
    a.status?.phase !== b.status?.phase ||
    a.metadata.deletionTimestamp !== b.metadata.deletionTimestamp ||
    a.metadata.annotations?.[OPERATION_ANNOTATION] !== b.metadata.annotations?.[OPERATION_ANNOTATION]
  );
};

export type { InstallationControllerOptions } from './types.ts';
export const INSTALLATION_CONTROLLER_NAME = 'landscaper-installation';

/**
 * Registers the controller: Installations are the primary kind; owned Installations (subinstallations)
 * and Executions wake their parent; any Installation change also wakes its siblings on both sides of an
 * import/export edge, so waiting for predecessors or successors is event driven.
 */
export function registerInstallationController(mgr: Manager, options: InstallationControllerOptions = {}): Controller<Installation, Deps> {
  const installations = mgr.informer<Installation>(installationsResource);
  const executions = mgr.informer<Execution>(executionsResource);
  for (const [name, fn] of Object.entries(indexers)) installations.addIndexer(name, fn as (o: Installation) => string | string[]);
  const deps: Deps = {
    client: mgr.client,
    installations,
    executions,
    contexts: mgr.informer<Context>(contextsResource),
    recorder: mgr.recorder(options.component ?? 'landscaper-installation-controller'),
    writer: statusWriter<Installation>(mgr.client, installationsResource),
    log: mgr.log.child({ controller: INSTALLATION_CONTROLLER_NAME }),
    now: options.now ?? (() => new Date()),
    newJobID: options.newJobID ?? randomUUID,
  };
  return mgr
    .controller<Installation, Deps>({
      name: INSTALLATION_CONTROLLER_NAME,
      for: installationsResource,
      data: deps,
      concurrency: options.concurrency ?? 4,
      reconcile: (obj, ctx) => reconcileInstallation(ctx.data, obj, ctx),
    })
    .owns(installations)
    .owns(executions)
    .watches(installations, (obj: KubeObject) => neighbourKeys(deps, obj as Installation), { predicates: [neighbourRelevant] });
}
