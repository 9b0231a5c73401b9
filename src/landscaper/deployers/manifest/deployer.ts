// The manifest deployer (upstream pkg/deployer/manifest): applies manifests into the cluster of the deploy item's
// kubernetes-cluster Target, tracks them in providerStatus.managedResources (written right after applying, so a
// later delete knows them even if readiness fails), cleans up orphans, checks readiness, reads exports, then
// Succeeded. Delete removes the managed resources in deletion groups, honouring the policies.
//
// Nothing here blocks or polls: a stage that has to wait (orphan deletion, readiness, exports, uninstall) returns
// what it waits for, and watches on the objects involved requeue the item when they change. What a job has done
// so far lives in memory; after a restart the job re-applies (idempotent) and its waits start over.
import { messageOf } from '../../../runtime/index.ts';
import { DEPLOY_ITEM_TYPE_MANIFEST, MANIFEST_PROVIDER_API_VERSION, PHASE_PROGRESSING, PHASE_SUCCEEDED } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { ContinuousReconcileSpec } from '../../api/mock-deployer.ts';
import type { AnyJSON } from '../../api/shared.ts';
import { configuredSchedule } from '../contract/continuous-reconcile.ts';
import type { Deployer, DeployerContext, DeployerResult } from '../contract/deployer.ts';
import { isInterrupted } from '../contract/errors.ts';
import { writeExportSecret } from '../contract/exports.ts';
import { targetKubeconfig } from '../contract/target.ts';
import { applyManifests, patchAfterDeployment, type Applied } from './apply.ts';
import { decodeManifestConfig, MANAGED_DEPLOY_ITEM_LABEL, type DeletionGroup, type ManifestConfig } from './config.ts';
import { deleteInGroups, prepareForDelete } from './deletion.ts';
import { readExports } from './exports.ts';
import { checkReadiness, readinessTimeoutMs } from './readiness.ts';
import { describeRef, sameResource, type ManagedResource } from './resources.ts';
import { isUnreachable, TargetClients, UnreachableTracker, type TargetClient } from './target-client.ts';
import { TargetWatches, type Pending } from './target-watches.ts';
import { ConfigurationError, LandscaperError } from '../../ls-error.ts';

export interface ManifestDeployerSettings {
  /** Per-request deadline towards target clusters; default 10 s. */
  targetRequestTimeoutMs: number;
  /** How long an unreachable target is retried before the job fails; default 60 s. */
  unreachableGraceMs: number;
  /** How long a watch on a target cluster outlives the last item waiting on it; default 60 s. */
  watchLingerMs: number;
}

type Stage = 'cleanup' | 'readiness' | 'exports' | 'deletion';

const STAGE_TEXT: Record<Stage, string> = {
  cleanup: 'cleaning up orphaned resources: waiting for',
  readiness: 'waiting for readiness:',
  exports: 'waiting for exports:',
  deletion: 'waiting for',
};

/** What a job deploys: the manifest deployer decodes it from the item; the helm deployer renders a chart. */
export interface DeploymentPlan {
  config: ManifestConfig;
  /** Exports known when planning (the helm deployer's from its values), under those read from resources. */
  knownExports?: Record<string, AnyJSON>;
}

/** What one job of one item has done so far. */
export interface Progress {
  jobID: string;
  generation: number;
  /** Planned once per job: a chart is fetched and rendered once, not on every event while the job waits. */
  plan: DeploymentPlan | undefined;
  applied: boolean;
  orphans: ManagedResource[];
  /** Resources the uninstall deletes (policies applied, annotated/patched before delete). */
  toDelete: ManagedResource[] | undefined;
  stage: Stage | undefined;
  /** When the current stage began (its timeouts count from here). */
  since: number;
}

function managedOf(providerStatus: AnyJSON | undefined): ManagedResource[] {
  if (typeof providerStatus !== 'object' || providerStatus === null || Array.isArray(providerStatus)) return [];
  const list = providerStatus['managedResources'];
  return Array.isArray(list) ? (list as unknown as ManagedResource[]) : [];
}

/**
 * The manifest deployer, and the base of the deployers that deploy resources the same way (the helm deployer):
 * they say what to apply (plan), how (apply), how to delete it (deleteDeployed) and their provider status's
 * apiVersion and managed label; the stages, waits and status writes are shared.
 */
export class ManifestDeployer implements Deployer {
  readonly type: string = DEPLOY_ITEM_TYPE_MANIFEST;
  protected readonly providerStatusApiVersion: string = MANIFEST_PROVIDER_API_VERSION;
  /** The label on every resource applied: the deploy item's name (a `fallback` object without it is not ours). */
  protected readonly managedLabel: string = MANAGED_DEPLOY_ITEM_LABEL;
  private readonly clients: TargetClients;
  private readonly unreachable: UnreachableTracker;
  private readonly progress = new Map<string, Progress>();
  private readonly watches: TargetWatches;
  private wake: (key: string) => void = () => {};

  constructor(settings: ManifestDeployerSettings) {
    this.clients = new TargetClients(settings.targetRequestTimeoutMs);
    this.unreachable = new UnreachableTracker(settings.unreachableGraceMs);
    this.watches = new TargetWatches({ wake: (key) => this.wake(key), lingerMs: settings.watchLingerMs });
  }

  bind(wake: (key: string) => void): void {
    this.wake = wake;
  }

  release(key: string): void {
    this.progress.delete(key);
    this.watches.release(key);
  }

  continuousReconcile(item: DeployItem): ContinuousReconcileSpec | undefined {
    return configuredSchedule(() => decodeManifestConfig(item.spec.config).continuousReconcile);
  }

  /** What this job deploys. */
  protected plan(ctx: DeployerContext, _tc: TargetClient): Promise<DeploymentPlan> {
    return Promise.resolve({ config: decodeManifestConfig(ctx.item.spec.config) });
  }

  /** Applies the plan; previous: what the item managed before. */
  protected apply(ctx: DeployerContext, tc: TargetClient, plan: DeploymentPlan, previous: ManagedResource[]): Promise<Applied> {
    return applyManifests({ client: tc.client, deployItemName: ctx.item.metadata.name ?? '', config: plan.config, previous, checkpoint: ctx.checkpoint, managedLabel: this.managedLabel });
  }

  /** The deletion groups of a deletion; a broken configuration must not block it: the default groups then. */
  protected deletionGroups(item: DeployItem): DeletionGroup[] | undefined {
    try {
      return decodeManifestConfig(item.spec.config).deletionGroups;
    } catch {
      return undefined;
    }
  }

  protected providerStatus(managed: ManagedResource[]): AnyJSON {
    return { apiVersion: this.providerStatusApiVersion, kind: 'ProviderStatus', managedResources: managed as unknown as AnyJSON };
  }

  /** Runs a deployment's work against its target: the target client, this job's progress, failures named. */
  protected async withTarget(ctx: DeployerContext, what: string, work: (tc: TargetClient, p: Progress) => Promise<DeployerResult | undefined>): Promise<DeployerResult | undefined> {
    const tc = await this.targetClient(ctx);
    const p = this.progressOf(ctx);
    return this.guarded(ctx, tc, what, () => work(tc, p));
  }

  get activeWatches(): number {
    return this.watches.size;
  }

  async close(): Promise<void> {
    await this.watches.close();
    await this.clients.close();
  }

  private async targetClient(ctx: DeployerContext): Promise<TargetClient> {
    if (!ctx.target) {
      throw new ConfigurationError('Reconcile', 'NoTarget', `deploy item ${ctx.item.metadata.namespace}/${ctx.item.metadata.name} of type ${this.type} needs a target`);
    }
    return this.clients.get(ctx.target, await targetKubeconfig(ctx.client, ctx.target));
  }

  /** Runs work against the target, turning network failures into errors that name target and server. */
  private async guarded<T>(ctx: DeployerContext, tc: TargetClient, what: string, work: () => Promise<T>): Promise<T> {
    const jobKey = `${ctx.item.metadata.uid ?? ''}/${ctx.jobID}`;
    try {
      const out = await work();
      this.unreachable.reached(jobKey);
      return out;
    } catch (err) {
      if (!isInterrupted(err) && isUnreachable(err)) this.unreachable.fail(jobKey, tc, err, what);
      throw err;
    }
  }

  /** This job's progress; a new job or a changed spec starts from scratch. */
  private progressOf(ctx: DeployerContext): Progress {
    const key = ctx.key;
    const generation = ctx.item.metadata.generation ?? 0;
    let p = this.progress.get(key);
    if (!p || p.jobID !== ctx.jobID || p.generation !== generation) {
      p = { jobID: ctx.jobID, generation, plan: undefined, applied: false, orphans: [], toDelete: undefined, stage: undefined, since: Date.now() };
      this.progress.set(key, p);
    }
    return p;
  }

  /**
   * Runs a stage's check: undefined when it is done, else the wait to report. The item watches what the check
   * consulted; when that is new, the check runs again, since an event may have passed before the watch held it.
   */
  protected async until(ctx: DeployerContext, tc: TargetClient, p: Progress, stage: Stage, check: (waitedMs: number) => Promise<Pending | undefined>): Promise<DeployerResult | undefined> {
    if (p.stage !== stage) {
      p.stage = stage;
      p.since = Date.now();
    }
    let pending = await check(Date.now() - p.since);
    for (let round = 0; pending && this.watches.set(ctx.key, tc, pending.interests) && round < 3; round++) {
      pending = await check(Date.now() - p.since);
    }
    if (!pending) return undefined;
    return { waitingFor: `${STAGE_TEXT[stage]} ${pending.waiting}`, ...(pending.recheckInMs !== undefined ? { requeueAfterMs: Math.max(0, pending.recheckInMs) + 10 } : {}) };
  }

  async reconcile(ctx: DeployerContext): Promise<DeployerResult | undefined> {
    const status = (ctx.item.status ??= {});
    if (status.phase !== PHASE_PROGRESSING) {
      status.phase = PHASE_PROGRESSING;
      await ctx.writeStatus();
    }
    return this.withTarget(ctx, 'ApplyManifests', async (tc, p) => {
      const plan = (p.plan ??= await this.plan(ctx, tc));
      const config = plan.config;
      if (!p.applied) {
        const applied = await this.apply(ctx, tc, plan, managedOf(status.providerStatus));
        // Orphans stay tracked until they are gone, so a restart still deletes them.
        status.providerStatus = this.providerStatus([...applied.managed, ...applied.orphans]);
        await ctx.writeStatus();
        await patchAfterDeployment(tc.client, applied.patches);
        p.applied = true;
        p.orphans = applied.orphans;
      }
      if (p.orphans.length > 0) {
        const orphans = p.orphans;
        const cleanup = await this.until(ctx, tc, p, 'cleanup', () =>
          deleteInGroups({ client: tc.client, resources: orphans, groups: config.deletionGroupsDuringUpdate }).catch((err: unknown) => {
            if (err instanceof LandscaperError || isUnreachable(err)) throw err;
            throw new LandscaperError('ApplyObjects', 'CleanupOrphanedObjects', `unable to clean up orphaned resources (${orphans.map((o) => describeRef(o.resource)).join(', ')}): ${messageOf(err)}`, [], { cause: err });
          }),
        );
        if (cleanup) return cleanup;
        status.providerStatus = this.providerStatus(managedOf(status.providerStatus).filter((m) => !p.orphans.some((o) => sameResource(o.resource, m.resource))));
        p.orphans = [];
        await ctx.writeStatus();
      }
      const managed = managedOf(status.providerStatus);
      const readinessTimeout = readinessTimeoutMs(config.readinessChecks, config.timeout);
      const unready = await this.until(ctx, tc, p, 'readiness', async (waitedMs) => {
        const pending = await checkReadiness({ client: tc.client, managed, config: config.readinessChecks });
        if (!pending || readinessTimeout === undefined) return pending;
        if (waitedMs >= readinessTimeout) throw new LandscaperError('CheckResourceReadiness', 'ReadinessCheckTimeout', `resources not ready after ${Math.round(readinessTimeout / 1000)} s: ${pending.waiting}`);
        return { ...pending, recheckInMs: readinessTimeout - waitedMs };
      });
      if (unready) return unready;
      let values: Record<string, AnyJSON> | undefined;
      const missing = await this.until(ctx, tc, p, 'exports', async (waitedMs) => {
        const r = await readExports({ client: tc.client, exports: config.exports, waitedMs });
        if ('waiting' in r) return r;
        values = r.values;
        return undefined;
      });
      if (missing) return missing;
      if (plan.knownExports !== undefined) values = { ...plan.knownExports, ...values };
      if (values !== undefined) status.exportRef = await writeExportSecret(ctx.client, ctx.item, { data: JSON.stringify(values) });
      status.phase = PHASE_SUCCEEDED;
      return undefined;
    });
  }

  async delete(ctx: DeployerContext): Promise<DeployerResult | undefined> {
    const groups = this.deletionGroups(ctx.item);
    const name = ctx.item.metadata.name ?? '';
    return this.withTarget(ctx, 'DeleteManagedResources', async (tc, p) => {
      if (!p.toDelete) {
        const toDelete: ManagedResource[] = [];
        for (const mr of managedOf(ctx.item.status?.providerStatus)) if (await prepareForDelete(tc.client, mr, name, this.managedLabel)) toDelete.push(mr);
        p.toDelete = toDelete;
      }
      const resources = p.toDelete;
      return this.until(ctx, tc, p, 'deletion', () => deleteInGroups({ client: tc.client, resources, groups }));
    });
  }
}
