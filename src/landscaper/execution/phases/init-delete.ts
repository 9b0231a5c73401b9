// Phase InitDelete: every deploy item the execution manages is deleted (delete-without-uninstall is
// propagated to them first). Their finalizers keep them until a deployer uninstalled them (Deleting).
import { forEachLimited, phaseResult } from '../../../runtime/index.ts';
import { DELETE_WITHOUT_UNINSTALL_ANNOTATION, PHASE_DELETING } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { lsTime } from '../../status-helpers.ts';
import { deleteDeployItem, markDeleteWithoutUninstall } from '../deploy-item-writes.ts';
import { listManagedDeployItems } from '../env.ts';
import type { PhaseHandler } from './types.ts';

export const initDelete: PhaseHandler = async (exec, run) => {
  const { env } = run;
  const withoutUninstall = exec.metadata.annotations?.[DELETE_WITHOUT_UNINSTALL_ANNOTATION] === 'true';
  const left: DeployItem[] = [];
  await forEachLimited(await listManagedDeployItems(env, exec), env.writeConcurrency, async (item) => {
    const di = withoutUninstall ? await markDeleteWithoutUninstall(env, item) : item;
    const remaining = await deleteDeployItem(env, di);
    if (remaining) left.push(remaining);
  });
  run.left = left;
  const now = env.now();
  return phaseResult.next(PHASE_DELETING, (s) => {
    s.transitionTimes = { ...s.transitionTimes, waitTime: lsTime(now) };
  });
};
