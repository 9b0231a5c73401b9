// Phase Deleting: when no child is left the own finalizer goes and the installation disappears; when all
// remaining children finished this job (DeleteFailed) the installation is DeleteFailed; otherwise it
// waits, naming the children it waits for.
import type { JsonPatchOperation } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { LANDSCAPER_FINALIZER } from '../../api/constants.ts';
import { execution, finishedJob, subinstallations } from '../children.ts';
import { fatalError, waitError } from '../errors.ts';
import { nameOf, namespaceOf, statusOf } from '../helpers.ts';
import { installationsResource } from '../resources.ts';
import type { PhaseHandler } from './types.ts';

export const deleting: PhaseHandler = async (deps, inst) => {
  const jobID = statusOf(inst).jobID ?? '';
  const [subs, exec] = await Promise.all([subinstallations(deps, inst), execution(deps, inst)]);
  const left = [
    ...subs.map((s) => ({ what: `subinstallation ${nameOf(s)}`, status: s.status })),
    ...(exec !== undefined ? [{ what: `execution ${nameOf(exec)}`, status: exec.status }] : []),
  ];
  if (left.length === 0) {
    const finalizers = inst.metadata.finalizers ?? [];
    const index = finalizers.indexOf(LANDSCAPER_FINALIZER);
    if (index >= 0) {
      const ops: JsonPatchOperation[] = [
        { op: 'test', path: '/metadata/resourceVersion', value: inst.metadata.resourceVersion },
        { op: 'test', path: `/metadata/finalizers/${index}`, value: LANDSCAPER_FINALIZER },
        { op: 'remove', path: `/metadata/finalizers/${index}` },
      ];
      try {
        await deps.client.patch(installationsResource, nameOf(inst), ops, { type: 'json', namespace: namespaceOf(inst) });
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    return { gone: true };
  }
  const pending = left.filter((c) => !finishedJob(c, jobID));
  if (pending.length > 0) {
    throw waitError('Deleting', 'DeletionPending', `waiting for the deletion of ${pending.map((c) => `${c.what} (${c.status?.phase ?? 'not started'})`).join(', ')}`);
  }
  throw fatalError('Deleting', 'SubObjectsNotDeleted', `not all sub objects were deleted: ${left.map((c) => `${c.what} is ${c.status?.phase ?? 'unknown'}${c.status?.lastError?.message ? `: ${c.status.lastError.message}` : ''}`).join('; ')}`, []);
};
