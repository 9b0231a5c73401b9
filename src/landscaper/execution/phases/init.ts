// Phase Init: bring the deploy items in line with the templates. Orphans (no template, a duplicate of
// one, or already being deleted) are deleted; every template gets exactly one live deploy item,
// created or updated. Nothing is triggered yet: that needs the job ID (Progressing).
import { BadRequestError, InvalidError } from '../../../client/errors.ts';
import { forEachLimited, messageOf, phaseResult } from '../../../runtime/index.ts';
import { EXECUTION_MANAGED_NAME_LABEL, PHASE_PROGRESSING } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { DeployItemTemplate, Execution } from '../../api/execution.ts';
import { deleteDeployItem } from '../deploy-item-writes.ts';
import { listManagedDeployItems, type ExecutionEnv } from '../env.ts';
import { deployItemChanged, desiredDeployItem } from '../materialize.ts';
import { deployItemsResource } from '../../api/resources.ts';
import { templatesOf } from '../templates.ts';
import { validateTemplates } from '../validation.ts';
import { lsTime } from '../../status-helpers.ts';
import type { PhaseHandler } from './types.ts';
import { ConfigurationError, LandscaperError } from '../../ls-error.ts';

/** Picks the live deploy item of each template; everything else is an orphan. */
export function matchDeployItems(exec: Execution, templates: readonly DeployItemTemplate[], items: readonly DeployItem[]): { active: Map<string, DeployItem>; orphans: DeployItem[] } {
  const known = new Map((exec.status?.deployItemCache?.activeDIs ?? []).map((p) => [p.specName ?? '', p.objectName ?? '']));
  const wanted = new Set(templates.map((t) => t.name));
  const active = new Map<string, DeployItem>();
  const orphans: DeployItem[] = [];
  const candidates = new Map<string, DeployItem[]>();
  for (const di of items) {
    const name = di.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL] ?? '';
    if (!wanted.has(name) || di.metadata.deletionTimestamp !== undefined) orphans.push(di);
    else candidates.set(name, [...(candidates.get(name) ?? []), di]);
  }
  for (const [name, list] of candidates) {
    // The one the status already names wins; otherwise the oldest (a crash may have left a twin).
    list.sort((a, b) => rank(a) - rank(b) || (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
    function rank(di: DeployItem): number {
      return di.metadata.name === known.get(name) ? 0 : 1;
    }
    active.set(name, list[0]!);
    orphans.push(...list.slice(1));
  }
  return { active, orphans };
}

export const init: PhaseHandler = async (exec, run) => {
  const { env } = run;
  const templates = templatesOf(exec);
  validateTemplates(templates);
  let items: DeployItem[];
  try {
    items = await listManagedDeployItems(env, exec);
  } catch (err) {
    throw new LandscaperError('Init', 'ListDeployItems', `listing the deploy items of execution ${exec.metadata.name ?? ''}: ${messageOf(err)}`, [], { cause: err });
  }
  const { active, orphans } = matchDeployItems(exec, templates, items);

  await forEachLimited(orphans, env.writeConcurrency, async (di) => {
    try {
      await deleteDeployItem(env, di);
    } catch (err) {
      throw new LandscaperError('Init', 'DeleteOrphanedDeployItem', `deleting orphaned deploy item ${di.metadata.name ?? ''}: ${messageOf(err)}`, [], { cause: err });
    }
  });

  const written = new Map<string, DeployItem>();
  const now = env.now();
  await forEachLimited(templates, env.writeConcurrency, async (t) => {
    written.set(t.name, await applyTemplate(env, exec, t, active.get(t.name), now));
  });
  run.written = written;
  const activeDIs = templates.map((t) => ({ specName: t.name, objectName: written.get(t.name)?.metadata.name ?? '' }));
  const orphanedDIs = orphans.map((di) => di.metadata.name ?? '').sort();
  return phaseResult.next(PHASE_PROGRESSING, (s) => {
    s.deployItemCache = { activeDIs, orphanedDIs };
    s.transitionTimes = { ...s.transitionTimes, waitTime: lsTime(now) };
  });
};

/** Creates or updates the template's deploy item (an unchanged one is not rewritten); returns it as stored. */
async function applyTemplate(env: ExecutionEnv, exec: Execution, t: DeployItemTemplate, existing: DeployItem | undefined, now: Date): Promise<DeployItem> {
  const desired = desiredDeployItem(exec, t, existing, now);
  try {
    if (!existing) {
      const created = await env.client.create<DeployItem>(deployItemsResource, desired);
      env.deployItemWrites.record(undefined, created);
      return created;
    }
    if (!deployItemChanged(existing, desired)) return existing;
    const updated = await env.client.update<DeployItem>(deployItemsResource, desired);
    env.deployItemWrites.record(existing.metadata.resourceVersion, updated);
    return updated;
  } catch (err) {
    const reason = existing ? 'UpdateDeployItem' : 'CreateDeployItem';
    const message = `${existing ? 'updating' : 'creating'} deploy item "${t.name}": ${messageOf(err)}`;
    // The server refuses the object itself: retrying the same template cannot help.
    if (err instanceof InvalidError || err instanceof BadRequestError) throw new ConfigurationError('Init', reason, message, undefined, { cause: err });
    throw new LandscaperError('Init', reason, message, [], { cause: err });
  }
}
