// Phase InitDelete: successors (siblings importing my exports) must go first, unless
// delete-ignore-successors is set or they are my predecessors too (an import cycle: none of them could go
// first); then delete-without-uninstall is passed down and the children deleted.
import { phaseResult } from '../../../runtime/index.ts';
import { DELETE_IGNORE_SUCCESSORS_ANNOTATION, DELETE_WITHOUT_UNINSTALL_ANNOTATION, PHASE_TRIGGER_DELETE } from '../../api/constants.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { ResourceRef } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { execution, subinstallations } from '../children.ts';
import { annotation, nameOf, namespaceOf } from '../helpers.ts';
import { executionsResource, installationsResource } from '../../api/resources.ts';
import { successorsBlockingDelete, successorsOutsideCycles } from '../siblings.ts';
import type { Deps } from '../types.ts';
import type { PhaseHandler } from './types.ts';

async function deleteChild(deps: Deps, resource: ResourceRef, child: KubeObject, withoutUninstall: boolean): Promise<void> {
  const ns = namespaceOf(child);
  try {
    if (withoutUninstall && annotation(child, DELETE_WITHOUT_UNINSTALL_ANNOTATION) !== 'true') {
      await deps.client.patch(resource, nameOf(child), { metadata: { annotations: { [DELETE_WITHOUT_UNINSTALL_ANNOTATION]: 'true' } } }, { type: 'merge', namespace: ns });
    }
    if (child.metadata.deletionTimestamp === undefined) await deps.client.delete(resource, nameOf(child), { namespace: ns });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

export const initDelete: PhaseHandler = async (inst, deps) => {
  if (annotation(inst, DELETE_IGNORE_SUCCESSORS_ANNOTATION) !== 'true' && inst.spec.optimization?.hasNoSiblingExports !== true) {
    const wait = successorsBlockingDelete(inst, successorsOutsideCycles(deps, inst));
    if (wait) return phaseResult.wait(wait.reason, wait.message);
  }
  const withoutUninstall = annotation(inst, DELETE_WITHOUT_UNINSTALL_ANNOTATION) === 'true';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  await Promise.all([
    ...subs.map((s) => deleteChild(deps, installationsResource, s, withoutUninstall)),
    ...(exec !== undefined ? [deleteChild(deps, executionsResource, exec, withoutUninstall)] : []),
  ]);
  return phaseResult.next(PHASE_TRIGGER_DELETE);
};
