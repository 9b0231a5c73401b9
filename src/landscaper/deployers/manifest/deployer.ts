// The manifest deployer (upstream pkg/deployer/manifest): applies manifests into the cluster of the deploy item's
// kubernetes-cluster Target, tracks them in providerStatus.managedResources (written right after applying, so a
// later delete knows them even if readiness fails), checks readiness, reads exports, then Succeeded. Delete
// removes the managed resources in deletion groups, honouring the policies.
import { DEPLOY_ITEM_TYPE_MANIFEST, ERR_CONFIGURATION_PROBLEM, MANIFEST_PROVIDER_API_VERSION, PHASE_PROGRESSING, PHASE_SUCCEEDED } from '../../api/constants.ts';
import type { AnyJSON } from '../../api/shared.ts';
import type { Deployer, DeployerContext } from '../contract/deployer.ts';
import { DeployerError, isInterrupted } from '../contract/errors.ts';
import { writeExportSecret } from '../contract/exports.ts';
import { targetKubeconfig } from '../contract/target.ts';
import { applyManifests, patchAfterDeployment } from './apply.ts';
import { decodeManifestConfig, type ManifestConfig } from './config.ts';
import { deleteManagedResources, prepareForDelete } from './deletion.ts';
import { readExports } from './exports.ts';
import { waitReady } from './readiness.ts';
import type { ManagedResource } from './resources.ts';
import { isUnreachable, TargetClients, UnreachableTracker, type TargetClient } from './target-client.ts';

export interface ManifestDeployerSettings {
  /** Poll interval of readiness, export and deletion waits; default 1000 ms. */
  pollMs: number;
  /** Per-request deadline towards target clusters; default 10 s. */
  targetRequestTimeoutMs: number;
  /** How long an unreachable target is retried before the job fails; default 60 s. */
  unreachableGraceMs: number;
}

function managedOf(providerStatus: AnyJSON | undefined): ManagedResource[] {
  if (typeof providerStatus !== 'object' || providerStatus === null || Array.isArray(providerStatus)) return [];
  const list = providerStatus['managedResources'];
  return Array.isArray(list) ? (list as unknown as ManagedResource[]) : [];
}

export class ManifestDeployer implements Deployer {
  readonly type = DEPLOY_ITEM_TYPE_MANIFEST;
  private readonly settings: ManifestDeployerSettings;
  private readonly clients: TargetClients;
  private readonly unreachable: UnreachableTracker;

  constructor(settings: ManifestDeployerSettings) {
    this.settings = settings;
    this.clients = new TargetClients(settings.targetRequestTimeoutMs);
    this.unreachable = new UnreachableTracker(settings.unreachableGraceMs);
  }

  close(): Promise<void> {
    return this.clients.close();
  }

  private async targetClient(ctx: DeployerContext): Promise<TargetClient> {
    if (!ctx.target) {
      throw new DeployerError('Reconcile', 'NoTarget', `deploy item ${ctx.item.metadata.namespace}/${ctx.item.metadata.name} of type ${this.type} needs a target`, [ERR_CONFIGURATION_PROBLEM]);
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

  async reconcile(ctx: DeployerContext): Promise<void> {
    const config = decodeManifestConfig(ctx.item.spec.config);
    const status = (ctx.item.status ??= {});
    if (status.phase !== PHASE_PROGRESSING) {
      status.phase = PHASE_PROGRESSING;
      await ctx.writeStatus();
    }
    const tc = await this.targetClient(ctx);
    const poll = this.settings.pollMs;
    await this.guarded(ctx, tc, 'ApplyManifests', async () => {
      const { managed, patches } = await applyManifests({
        client: tc.client,
        deployItemName: ctx.item.metadata.name ?? '',
        config,
        previous: managedOf(status.providerStatus),
        checkpoint: ctx.checkpoint,
        pollMs: poll,
      });
      status.providerStatus = { apiVersion: MANIFEST_PROVIDER_API_VERSION, kind: 'ProviderStatus', managedResources: managed as unknown as AnyJSON };
      await ctx.writeStatus();
      await patchAfterDeployment(tc.client, patches);
      await waitReady({ client: tc.client, managed, config: config.readinessChecks, legacyTimeout: config.timeout, checkpoint: ctx.checkpoint, pollMs: poll });
      const values = await readExports({ client: tc.client, exports: config.exports, checkpoint: ctx.checkpoint, pollMs: poll });
      if (values !== undefined) status.exportRef = await writeExportSecret(ctx.client, ctx.item, { data: JSON.stringify(values) });
    });
    status.phase = PHASE_SUCCEEDED;
  }

  async delete(ctx: DeployerContext): Promise<void> {
    let config: ManifestConfig | undefined;
    try {
      config = decodeManifestConfig(ctx.item.spec.config);
    } catch {
      // A broken configuration must not block the deletion of what was deployed: use the default groups.
      config = undefined;
    }
    const tc = await this.targetClient(ctx);
    const name = ctx.item.metadata.name ?? '';
    await this.guarded(ctx, tc, 'DeleteManagedResources', async () => {
      const toDelete: ManagedResource[] = [];
      for (const mr of managedOf(ctx.item.status?.providerStatus)) if (await prepareForDelete(tc.client, mr, name)) toDelete.push(mr);
      await deleteManagedResources({ client: tc.client, resources: toDelete, groups: config?.deletionGroups, checkpoint: ctx.checkpoint, pollMs: this.settings.pollMs });
    });
  }
}
