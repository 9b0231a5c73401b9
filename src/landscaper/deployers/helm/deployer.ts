// The helm deployer (upstream pkg/deployer/helm): a chart from an archive, a URL or a chart repository, rendered
// with Bosun's Helm engine and deployed either as a real Helm release (helmDeployment: true, the default; Helm's
// own release storage, so `helm list` sees it) or helm-free, applied as manifests. Either way the manifest
// deployer's stages follow: managed resources in providerStatus, readiness, exports, the export Secret.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient } from '../../../client/client.ts';
import { messageOf } from '../../../runtime/index.ts';
import type { Chart } from '../../../template/helm/chart.ts';
import { renderRelease, type RenderedRelease } from '../../../template/helm/release-render.ts';
import { DEPLOY_ITEM_TYPE_HELM } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { HELM_MANAGED_DEPLOY_ITEM_LABEL, HELM_PROVIDER_API_VERSION } from '../../api/helm-deployer.ts';
import type { ContinuousReconcileSpec } from '../../api/mock-deployer.ts';
import { configuredSchedule } from '../contract/continuous-reconcile.ts';
import type { DeployerContext, DeployerResult } from '../contract/deployer.ts';
import { parseTimeoutMs } from '../contract/timeout.ts';
import type { Applied } from '../manifest/apply.ts';
import type { DeletionGroup, ManifestConfig } from '../manifest/config.ts';
import { ManifestDeployer, type DeploymentPlan, type ManifestDeployerSettings } from '../manifest/deployer.ts';
import { refOf, type ManagedResource } from '../manifest/resources.ts';
import type { TargetClient } from '../manifest/target-client.ts';
import type { CreateHelmActions, InstallOrUpgradeRequest, ReleaseSummary } from './release/actions.ts';
import { HelmActionError } from './release/helm-actions.ts';
import { manifestObjects } from './release/release-resources.ts';
import { resolveChart } from './chart-source.ts';
import { decodeHelmConfig, type HelmConfig } from './config.ts';
import { helmFreeManifests } from './helm-free.ts';
import { valueExports } from './value-exports.ts';
import { ConfigurationError, LandscaperError } from '../../ls-error.ts';

/** Releases kept per name in real-Helm mode, as upstream's MaxHistory. */
const HISTORY_MAX = 10;

export interface HelmDeployerSettings extends ManifestDeployerSettings {
  /** Helm's release actions for real-Helm mode. */
  createHelmActions: CreateHelmActions;
}

interface HelmPlan extends DeploymentPlan {
  helm: { config: HelmConfig; chart: Chart };
}

function isHelmPlan(plan: DeploymentPlan): plan is HelmPlan {
  return 'helm' in plan;
}

/** The objects of a release manifest, namespaced ones in the release namespace unless they name one: what real-Helm mode manages. */
async function releaseResources(client: KubeClient, manifest: string, namespace: string): Promise<ManagedResource[]> {
  return (await manifestObjects(client, manifest, namespace)).map((o) => ({ resource: refOf(o.object as unknown as KubeObject), policy: 'manage' }));
}

export class HelmDeployer extends ManifestDeployer {
  override readonly type: string = DEPLOY_ITEM_TYPE_HELM;
  protected override readonly providerStatusApiVersion: string = HELM_PROVIDER_API_VERSION;
  protected override readonly managedLabel: string = HELM_MANAGED_DEPLOY_ITEM_LABEL;
  private readonly createHelmActions: CreateHelmActions;

  constructor(settings: HelmDeployerSettings) {
    super(settings);
    this.createHelmActions = settings.createHelmActions;
  }

  override continuousReconcile(item: DeployItem): ContinuousReconcileSpec | undefined {
    return configuredSchedule(() => decodeHelmConfig(item.spec.config).continuousReconcile);
  }

  protected override async plan(ctx: DeployerContext, tc: TargetClient): Promise<DeploymentPlan> {
    const config = decodeHelmConfig(ctx.item.spec.config);
    const chart = await resolveChart(config.chart, { client: ctx.client, namespace: ctx.item.metadata.namespace ?? '', lsContext: ctx.lsContext, signal: ctx.signal });
    const rendered = this.render(config, chart);
    const knownExports = valueExports(config.exports?.exports ?? [], chart, rendered, { name: config.name, namespace: config.namespace });
    const manifests: ManifestConfig = config.helmDeployment
      ? ({ updateStrategy: config.updateStrategy, manifests: [], ...(config.readinessChecks ? { readinessChecks: config.readinessChecks } : {}), exports: { ...config.exports, exports: (config.exports?.exports ?? []).filter((e) => e.fromResource !== undefined) } } as ManifestConfig)
      : await helmFreeManifests(tc.client, config, rendered);
    const plan: HelmPlan = { config: manifests, helm: { config, chart }, ...(knownExports ? { knownExports } : {}) };
    return plan;
  }

  /** The chart rendered as an install renders it; every engine error is the item's configuration error. */
  private render(config: HelmConfig, chart: Chart): RenderedRelease {
    try {
      const skipSchemaValidation = config.helmDeploymentConfig?.install?.skipSchemaValidation === true;
      return renderRelease(chart, { releaseName: config.name, namespace: config.namespace, values: structuredClone(config.values), skipSchemaValidation });
    } catch (err) {
      throw new ConfigurationError('TemplateChart', 'TemplateFailed', `chart ${chart.metadata.name}: ${messageOf(err)}`, undefined, { cause: err });
    }
  }

  protected override async apply(ctx: DeployerContext, tc: TargetClient, plan: DeploymentPlan, previous: ManagedResource[]): Promise<Applied> {
    if (!isHelmPlan(plan) || !plan.helm.config.helmDeployment) return super.apply(ctx, tc, plan, previous);
    const { config, chart } = plan.helm;
    const upgrade = previous.length > 0;
    const options = (upgrade ? config.helmDeploymentConfig?.upgrade : config.helmDeploymentConfig?.install) ?? {};
    const release = await this.installOrUpgrade(tc, {
      name: config.name,
      namespace: config.namespace,
      chart,
      values: structuredClone(config.values),
      ...(config.createNamespace === true ? { createNamespace: true } : {}),
      ...(options.atomic === true ? { atomic: true } : {}),
      ...(options.wait === true ? { wait: true } : {}),
      ...(options.force === true ? { force: true } : {}),
      timeoutMs: parseTimeoutMs(options.timeout, '5m') ?? 300_000,
      historyMax: HISTORY_MAX,
      signal: ctx.signal,
    });
    return { managed: await releaseResources(tc.client, release.manifest, config.namespace), patches: [], orphans: [] };
  }

  protected override deletionGroups(item: DeployItem): DeletionGroup[] | undefined {
    try {
      return decodeHelmConfig(item.spec.config).deletionGroups;
    } catch {
      return undefined;
    }
  }

  override async delete(ctx: DeployerContext): Promise<DeployerResult | undefined> {
    let config: HelmConfig;
    try {
      config = decodeHelmConfig(ctx.item.spec.config);
    } catch {
      // A broken configuration must not block the deletion of what was deployed.
      return super.delete(ctx);
    }
    if (!config.helmDeployment) return super.delete(ctx);
    return this.withTarget(ctx, 'UninstallRelease', async (tc) => {
      const options = config.helmDeploymentConfig?.uninstall ?? {};
      await this.actions(tc).uninstall({ name: config.name, namespace: config.namespace, timeoutMs: parseTimeoutMs(options.timeout, '5m') ?? 300_000, signal: ctx.signal });
      return undefined;
    });
  }

  /** Helm's failures as the item's errors (retried: a later try upgrades from the failed revision). */
  private async installOrUpgrade(tc: TargetClient, request: InstallOrUpgradeRequest): Promise<ReleaseSummary> {
    try {
      return await this.actions(tc).installOrUpgrade(request);
    } catch (err) {
      if (err instanceof HelmActionError) throw new LandscaperError('InstallRelease', 'HelmActionFailed', err.message, [], { cause: err });
      throw err;
    }
  }

  private actions(tc: TargetClient) {
    return this.createHelmActions(tc.client);
  }
}
