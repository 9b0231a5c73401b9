// Phase Completing: the deploy items' exports are collected into the execution's DataObject, and the job
// ends in Succeeded.
import { phaseResult } from '../../../runtime/index.ts';
import { PHASE_SUCCEEDED } from '../../api/constants.ts';
import { setDeployItemsCondition } from '../condition.ts';
import { executionItems } from '../execution-items.ts';
import { collectExports } from '../exports.ts';
import { templatesOf } from '../templates.ts';
import type { PhaseHandler } from './types.ts';

export const completing: PhaseHandler = async (exec, run) => {
  const { env } = run;
  const items = await executionItems(env, exec, templatesOf(exec), run.written);
  const exportRef = await collectExports(env, exec, items);
  const now = env.now();
  return phaseResult.next(PHASE_SUCCEEDED, (s) => {
    s.exportRef = exportRef;
    s.deployItemCache = { ...s.deployItemCache, orphanedDIs: [] };
    setDeployItemsCondition(s, 'True', 'DeployItemsReconciled', 'All DeployItems are successfully reconciled', [], now);
  });
};
