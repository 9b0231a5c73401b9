// One reconcile of an installation: the gates of upstream's reconcileInstallation in their order, then
// the phase machine while a job runs, then the automatic reconcile of finished roots.
//
// Where each step of the installation controller's spec (landscaper-installation-controller.md) lives:
// | spec step                                   | file (function)                                                   |
// |---------------------------------------------|-------------------------------------------------------------------|
// | reconcile jobs: jobID / jobIDFinished       | gate 7 below (new job), ../job-phases.ts (finishJob), helpers.ts (jobRunning) |
// | creation: root via reconcile annotation     | gate 7 below; gate 6 drops the annotation on non-roots            |
// | creation: non-root gets the parent's job ID | phases/objects-created.ts                                         |
// | Init: blueprint, context                    | phases/init.ts → blueprint.ts (resolveBlueprint), context.ts      |
// | Init: parent, siblings, predecessors        | phases/init.ts → siblings.ts (predecessors, predecessorsWait)     |
// | Init: imports, their hash                   | phases/init.ts → imports.ts (loadImports), import-copies.ts       |
// | Init: subobjects templated and created      | subinstallations.ts (ensureSubinstallations), execution.ts (ensureExecution) |
// | orphaned subinstallations deleted           | phases/cleanup-orphaned.ts                                        |
// | ObjectsCreated: job ID to the subobjects    | phases/objects-created.ts                                         |
// | Progressing: wait for the subobjects        | phases/progressing.ts                                             |
// | Completing: collecting exports              | phases/completing.ts                                              |
// | Completing: triggering successors           | phase-machine.ts (status.enter records dependentsToTrigger on a final phase); gate 4 below pokes them |
// | errors: normal and fatal                    | ../ls-error.ts (classify), runtime/phases/phase-machine.ts        |
// | another job: postponed while one runs       | gate 7 below; gate 2 resets the automatic retry count             |
// | deleting: the deletion job                  | gate 7 below (first deletion; a delete-without-uninstall interrupts a running job) |
// | InitDelete: successors first, delete children | phases/init-delete.ts → siblings.ts (successorsBlockingDelete)  |
// | TriggerDelete: job ID to the children       | phases/trigger-delete.ts                                          |
// | Deleting: wait, finalizer or DeleteFailed   | phases/deleting.ts                                                |
// | interrupting a job                          | gate 5 below (interruptChildren); ../execution/interrupt.ts       |
// | delete without uninstall                    | phases/init-delete.ts (deleteChild); ../execution/phases/init-delete.ts; ../deployers/contract/phases/init-delete.ts |
import type { KubeObject } from '../../apimachinery/object.ts';
import type { ResourceRef } from '../../client/client.ts';
import { ignoreNotFound } from '../../client/errors.ts';
import type { Action, ReconcileContext } from '../../runtime/index.ts';
import { action, addFinalizer, hasFinalizer, runPhases } from '../../runtime/index.ts';
import {
  DELETE_WITHOUT_UNINSTALL_ANNOTATION,
  LANDSCAPER_FINALIZER,
  OPERATION_ANNOTATION,
  OPERATION_INTERRUPT,
  OPERATION_RECONCILE,
  RECONCILE_IF_CHANGED_ANNOTATION,
  RECONCILE_REASON_ANNOTATION,
  RECONCILE_REASON_RETRY,
  isDeletionPhase,
} from '../api/constants.ts';
import type { Installation } from '../api/installation.ts';
import { ScheduleError } from '../schedule.ts';
import { automaticReconcile } from './automatic-reconcile.ts';
import { execution, subinstallations } from './children.ts';
import { annotation, isDeleting, isRoot, jobRunning, nameOf, namespaceOf, operationOf, statusOf, touchPatch } from './helpers.ts';
import { installationMachine } from './phase-machine.ts';
import { executionsResource, installationsResource } from '../api/resources.ts';
import { writeStatus } from './status-writer.ts';
import type { Deps } from './types.ts';

function patchMeta(deps: Deps, resource: ResourceRef, obj: KubeObject, body: Record<string, unknown>): Promise<KubeObject> {
  return deps.client.patch(resource, nameOf(obj), body, { type: 'merge', namespace: namespaceOf(obj) });
}


/** Sets the interrupt annotation (and `extra`) on the children `which` selects; returns how many it patched. */
async function interruptChildren(deps: Deps, inst: Installation, extra: Record<string, string> = {}, which: (child: KubeObject) => boolean = () => true): Promise<number> {
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  const children = [
    ...subs.map((child) => ({ resource: installationsResource, child })),
    ...(exec !== undefined ? [{ resource: executionsResource, child: exec }] : []),
  ].filter(({ child }) => which(child));
  const body = (o: KubeObject): Record<string, unknown> => touchPatch(o, { [OPERATION_ANNOTATION]: OPERATION_INTERRUPT, ...extra });
  await Promise.all(children.map(({ resource, child }) => ignoreNotFound(patchMeta(deps, resource, child, body(child)))));
  return children.length;
}

export async function reconcileInstallation(deps: Deps, inst: Installation, ctx: ReconcileContext<unknown>): Promise<Action> {
  const root = isRoot(inst);
  const s = statusOf(inst);
  const op = operationOf(inst);

  // 1. reconcile-if-changed: a GitOps-friendly trigger for a changed spec of a finished root.
  // As upstream (isAutomaticReconcileOnSpecChange), a fresh object counts as changed: generation 1 ≠ observedGeneration 0.
  if (root && annotation(inst, RECONCILE_IF_CHANGED_ANNOTATION) === 'true' && !jobRunning(inst) && op === undefined && !isDeleting(inst)
    && (inst.metadata.generation ?? 0) !== s.observedGeneration) {
    await patchMeta(deps, installationsResource, inst, { metadata: { annotations: { [OPERATION_ANNOTATION]: OPERATION_RECONCILE } } });
    return action.awaitChange();
  }

  // 2. A reconcile annotation set by a user (not by the automatic retry) restarts the retry count.
  if (op === OPERATION_RECONCILE && annotation(inst, RECONCILE_REASON_ANNOTATION) !== RECONCILE_REASON_RETRY && s.automaticReconcileStatus !== undefined) {
    await writeStatus(deps, inst, (x) => void delete x.automaticReconcileStatus);
    return action.awaitChange();
  }

  // 3. Finalizer.
  if (!isDeleting(inst) && !hasFinalizer(inst, LANDSCAPER_FINALIZER)) {
    await addFinalizer(deps.client, installationsResource, inst, LANDSCAPER_FINALIZER);
    return action.awaitChange();
  }

  // 4. Successors recorded when the last job finished are poked now (roots get the reconcile annotation).
  if ((s.dependentsToTrigger ?? []).length > 0) {
    for (const d of s.dependentsToTrigger ?? []) {
      const dep = deps.installations.get(d.name, namespaceOf(inst));
      if (dep === undefined) continue;
      const extra: Record<string, string> = isRoot(dep) ? { [OPERATION_ANNOTATION]: OPERATION_RECONCILE } : {};
      await ignoreNotFound(patchMeta(deps, installationsResource, dep, touchPatch(dep, extra)));
    }
    await writeStatus(deps, inst, (x) => void delete x.dependentsToTrigger);
    return action.awaitChange();
  }

  // 5. Interrupt: forwarded to the execution and the subinstallations, removed here.
  if (op === OPERATION_INTERRUPT) {
    await interruptChildren(deps, inst);
    await patchMeta(deps, installationsResource, inst, { metadata: { annotations: { [OPERATION_ANNOTATION]: null } } });
    return action.awaitChange();
  }

  // 6. Only roots start jobs: a reconcile annotation elsewhere is dropped.
  if (!root && op === OPERATION_RECONCILE) {
    await patchMeta(deps, installationsResource, inst, { metadata: { annotations: { [OPERATION_ANNOTATION]: null, [RECONCILE_REASON_ANNOTATION]: null } } });
    return action.awaitChange();
  }

  // 7. A new job: roots with the reconcile annotation, or at their first deletion; postponed while a job runs.
  // A deletion without uninstall does not wait for the running job's deploy items (they may never finish: the
  // target is gone, the deployer stopped): it interrupts the job, and the deletion job starts once it ended Failed.
  // The annotation it copies to the children with the interrupt marks them as interrupted, so this happens once.
  const firstDeletion = isDeleting(inst) && !isDeletionPhase(s.phase);
  if (root && firstDeletion && jobRunning(inst) && annotation(inst, DELETE_WITHOUT_UNINSTALL_ANNOTATION) === 'true') {
    const withoutUninstall = { [DELETE_WITHOUT_UNINSTALL_ANNOTATION]: 'true' };
    const interrupted = await interruptChildren(deps, inst, withoutUninstall, (child) => annotation(child, DELETE_WITHOUT_UNINSTALL_ANNOTATION) !== 'true');
    if (interrupted > 0) return action.awaitChange();
  }
  if (root && (op === OPERATION_RECONCILE || firstDeletion) && !jobRunning(inst)) {
    const jobID = deps.newJobID();
    await writeStatus(deps, inst, (x, now) => {
      x.jobID = jobID;
      x.transitionTimes = { triggerTime: now };
    });
    if (op === OPERATION_RECONCILE) {
      await patchMeta(deps, installationsResource, inst, { metadata: { annotations: { [OPERATION_ANNOTATION]: null, [RECONCILE_REASON_ANNOTATION]: null } } });
    }
    ctx.log.debug({ jobID }, 'new job');
    return action.awaitChange();
  }

  // 8. The phase machine while a job runs.
  if (jobRunning(inst)) return runPhases(installationMachine(deps), inst, deps);

  // 9. Finished roots may be due for an automatic reconcile.
  try {
    return await automaticReconcile(deps, inst, action.awaitChange());
  } catch (err) {
    if (err instanceof ScheduleError) {
      ctx.log.warn({ err }, 'automatic reconcile: invalid schedule');
      return action.awaitChange();
    }
    throw err;
  }
}
