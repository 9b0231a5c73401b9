// The Landscaper controller family: installations, executions, the landscaper-side deploy item controller
// (pickup timeout), the mock, manifest, helm and container deployers, the in-use protection of Targets and Contexts and the
// context defaulter (a "default" Context in every namespace), each a separate controller as upstream runs them,
// Landscaper's metrics, and, when the process serves admission webhooks, the validating webhook.
import type { AdmissionWebhooks, Family, Manager, PolicyRule } from '../runtime/index.ts';
import { LANDSCAPER_GROUP } from './api/constants.ts';
import { registerContextDefaulter } from './context/index.ts';
import { registerContainerDeployer, type ContainerDeployerOptions } from './deployers/container/index.ts';
import { registerHelmDeployer, type HelmDeployerOptions } from './deployers/helm/index.ts';
import { registerManifestDeployer, type ManifestDeployerOptions } from './deployers/manifest/index.ts';
import { registerMockDeployer, type MockDeployerOptions } from './deployers/mock/index.ts';
import { registerDeployItemController, type DeployItemControllerOptions } from './deployitem/index.ts';
import { registerExecutionController, type ExecutionControllerOptions } from './execution/index.ts';
import { registerInstallationController, type InstallationControllerOptions } from './installation/index.ts';
import { registerLandscaperMetrics } from './metrics.ts';
import { landscaperDashboardView } from './tree/dashboard-view.ts';
import { registerProtection } from './protection/index.ts';
import { registerLandscaperWebhook } from './webhook/index.ts';

/** Per-controller options of the family; everything defaults to what `bosun up` runs. */
export interface LandscaperOptions {
  installation?: InstallationControllerOptions;
  execution?: ExecutionControllerOptions;
  /** The landscaper-side deploy item controller: the pickup timeout. */
  deployItem?: DeployItemControllerOptions;
  mock?: MockDeployerOptions;
  manifest?: ManifestDeployerOptions;
  helm?: HelmDeployerOptions;
  container?: ContainerDeployerOptions;
  /**
   * The process's admission webhooks: the validating webhook for Installations, Executions, DeployItems and
   * Targets is served there and its configuration written when they start. Without it nothing is validated
   * on write (the controllers still check what they read).
   */
  webhooks?: AdmissionWebhooks;
}

export function registerLandscaper(mgr: Manager, options: LandscaperOptions = {}): void {
  if (options.webhooks) registerLandscaperWebhook(options.webhooks);
  registerInstallationController(mgr, options.installation);
  registerExecutionController(mgr, options.execution);
  const mock = registerMockDeployer(mgr, options.mock);
  const manifest = registerManifestDeployer(mgr, options.manifest);
  const helm = registerHelmDeployer(mgr, options.helm);
  const container = registerContainerDeployer(mgr, options.container);
  registerDeployItemController(mgr, { knownTypes: [mock.type, manifest.type, helm.type, container.type], ...options.deployItem });
  registerProtection(mgr);
  registerContextDefaulter(mgr);
  registerLandscaperMetrics(mgr);
  // Target-cluster clients live as long as the manager.
  void mgr.done.finally(() => Promise.all([manifest.close(), helm.close()])).catch(() => {});
}

/**
 * What the controllers read, watch and write, found by reading them: the installation, execution and deploy
 * item controllers and the deployers watch and write their kinds and status; installations create
 * subinstallations, executions and Contexts, write exports as DataObjects and Targets (deleting stale ones)
 * and keep template state in Secrets; imports come from DataObjects, Targets, Secrets and ConfigMaps; the
 * deployers read their Target and its kubeconfig Secret and write exports to a Secret; the in-use protection
 * watches Targets and Contexts and patches its finalizer onto them, and onto the Secrets Targets read (marked with a
 * label it patches on, and watched by that label); the context defaulter watches Namespaces and
 * creates a "default" Context in each; each controller records Events.
 */
const rbac: readonly PolicyRule[] = [
  { apiGroups: [LANDSCAPER_GROUP], resources: ['installations', 'executions', 'deployitems'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  { apiGroups: [LANDSCAPER_GROUP], resources: ['installations/status', 'executions/status', 'deployitems/status'], verbs: ['update'] },
  { apiGroups: [LANDSCAPER_GROUP], resources: ['dataobjects'], verbs: ['get', 'list', 'create', 'update', 'delete'] },
  { apiGroups: [LANDSCAPER_GROUP], resources: ['targets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  { apiGroups: [LANDSCAPER_GROUP], resources: ['contexts'], verbs: ['get', 'list', 'watch', 'create', 'patch'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
  { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
  // The container deployer: a pod per operation, read back through its log.
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'create', 'delete'] },
  { apiGroups: [''], resources: ['pods/log'], verbs: ['get'] },
  { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

export const landscaperFamily: Family = {
  name: 'landscaper',
  groups: [LANDSCAPER_GROUP],
  // Upstream's CRDs without a controller here (componentversionoverwrites … targetsyncs) are served all the same,
  // so that upstream charts and manifests that create them apply (docs/landscaper.md says which).
  crds: [
    'componentversionoverwrites', 'contexts', 'criticalproblems', 'dataobjects', 'deployitems', 'executions', 'installations', 'lshealthchecks', 'syncobjects',
    'targets', 'targetsyncs',
  ].map((plural) => `${plural}.${LANDSCAPER_GROUP}`),
  rbac,
  views: [landscaperDashboardView],
  register: (mgr, env) => registerLandscaper(mgr, env.webhooks ? { webhooks: env.webhooks } : {}),
};
