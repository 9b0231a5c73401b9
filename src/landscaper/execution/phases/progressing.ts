// Phase Progressing: orphans first (fully removed before any new or updated item runs), then classes
// A–E over the templates' deploy items (./classification.ts):
// - all succeeded (A) → Completing;
// - a failed item (B) stops all triggering; once nothing runs (C) the job ends in Failed;
// - neither running (C) nor runnable (D) items but pending ones (E): stuck (a cycle, say) → Failed;
// - otherwise the runnable items (D) get the job ID, and the execution waits for its items.
import { findCycle, forEachLimited, phaseResult } from '../../../runtime/index.ts';
import { ERR_CYCLIC_DEPENDENCIES, PHASE_COMPLETING, PHASE_PROGRESSING } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { formatCycle } from '../validation.ts';
import { nameList } from '../../status-helpers.ts';
import { blockers, classifyForReconcile } from '../classification.ts';
import { driveDeletion } from '../deletion.ts';
import { triggerDeployItem } from '../deploy-item-writes.ts';
import { cachedDeployItem } from '../env.ts';
import { executionItems } from '../execution-items.ts';
import { describeFailedItem } from '../outcome.ts';
import { forgetProgress, rememberProgress, unchangedProgress } from '../progress-memo.ts';
import { templatesOf } from '../templates.ts';
import type { PhaseHandler } from './types.ts';
import { waitForItems } from './waiting.ts';
import { ConfigurationError, JobFailedError } from '../../ls-error.ts';

export const progressing: PhaseHandler = async (exec, run) => {
  const { env } = run;
  const jobID = exec.status?.jobID ?? '';
  const orphans = (exec.status?.deployItemCache?.orphanedDIs ?? [])
    .map((name) => cachedDeployItem(env, exec.metadata.namespace, name))
    .filter((di): di is DeployItem => di !== undefined);
  if (orphans.length > 0) return waitForItems(exec, await driveDeletion(env, exec, orphans, 'orphaned deploy items', PHASE_PROGRESSING), env.now());

  const unchanged = unchangedProgress(env, exec, run.written);
  if (unchanged) return phaseResult.wait(unchanged.reason, unchanged.message);
  // Whatever the walk decides, a memo of an earlier walk no longer holds.
  forgetProgress(env, exec);
  const items = await executionItems(env, exec, templatesOf(exec), run.written);
  const c = classifyForReconcile(jobID, items);
  if (c.failed.length > 0 && c.running.length === 0) {
    const missing = c.failed.some((i) => !i.deployItem || i.deployItem.metadata.deletionTimestamp !== undefined);
    throw new JobFailedError(PHASE_PROGRESSING, missing ? 'DeployItemsMissing' : 'DeployItemsFailed', `has failed or missing deploy items: ${c.failed.map(describeFailedItem).join('; ')}`);
  }
  if (c.running.length === 0 && c.runnable.length === 0 && c.pending.length > 0) {
    const cycle = findCycle(new Map(c.pending.map((i) => [i.name, i.dependsOn])));
    if (cycle) throw new ConfigurationError(PHASE_PROGRESSING, 'CyclicDependencies', `deploy items could not be started: ${formatCycle(cycle)}`, [ERR_CYCLIC_DEPENDENCIES]);
    const detail = c.pending.map((i) => `${i.name} (waits for ${blockers(i, items, jobID, false).join(', ')})`);
    throw new JobFailedError(PHASE_PROGRESSING, 'DeployItemsStuck', `deploy items could not be started: ${detail.join('; ')}`);
  }
  if (c.failed.length > 0) {
    const message = `${nameList(c.failed.map((i) => i.name))} failed; waiting for ${nameList(c.running.map((i) => i.name))} to finish`;
    return waitForItems(exec, { reason: 'DeployItemsFailed', message, triggered: 0 }, env.now());
  }
  if (c.running.length === 0 && c.runnable.length === 0) return phaseResult.next(PHASE_COMPLETING);

  await forEachLimited(c.runnable, env.writeConcurrency, async (item) => {
    await triggerDeployItem(env, item.deployItem!, jobID);
  });
  const waitingFor = [...c.running, ...c.runnable].map((i) => i.name);
  const then = c.pending.length > 0 ? `; then ${nameList(c.pending.map((i) => i.name))}` : '';
  const wait = { reason: 'WaitingForDeployItems', message: `waiting for deploy items: ${nameList(waitingFor)}${then}` };
  rememberProgress(env, exec, c, wait);
  return waitForItems(exec, { ...wait, triggered: c.runnable.length }, env.now());
};
