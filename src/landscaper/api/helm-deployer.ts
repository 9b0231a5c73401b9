// The helm deployer's ProviderConfiguration and ProviderStatus (upstream apis/deployer/helm/v1alpha1), unchanged.
import type { DeletionGroupDefinition, ExportSpec, ExportsSpec, ManagedResourceStatus, ReadinessCheckConfiguration } from './manifest-deployer.ts';
import type { ContinuousReconcileSpec } from './mock-deployer.ts';
import type { AnyJSON, Duration } from './shared.ts';

export const HELM_PROVIDER_API_VERSION = 'helm.deployer.landscaper.gardener.cloud/v1alpha1';
/** The label on every resource the helm-free mode applies: the deploy item's name. */
export const HELM_MANAGED_DEPLOY_ITEM_LABEL = 'helm.deployer.landscaper.gardener.cloud/deployitem';
/** The Context's configuration key with the chart repositories' credentials. */
export const HELM_CHART_REPO_CREDENTIALS_KEY = 'helmChartRepoCredentials';

export interface HelmChartRepo {
  helmChartRepoUrl?: string;
  helmChartName?: string;
  helmChartVersion?: string;
}

export interface HelmChart {
  /** An OCI reference (tag required). */
  ref?: string;
  archive?: { raw?: string; remote?: { url?: string } };
  helmChartRepo?: HelmChartRepo;
  resourceRef?: string;
  fromResource?: AnyJSON;
}

export interface HelmInstallConfiguration {
  atomic?: boolean;
  force?: boolean;
  skipSchemaValidation?: boolean;
  takeOwnership?: boolean;
  wait?: boolean;
  timeout?: Duration;
}

export interface HelmUninstallConfiguration {
  wait?: boolean;
  timeout?: Duration;
}

export interface HelmDeploymentConfiguration {
  install?: HelmInstallConfiguration;
  upgrade?: HelmInstallConfiguration;
  uninstall?: HelmUninstallConfiguration;
}

export interface HelmProviderConfiguration {
  apiVersion?: typeof HELM_PROVIDER_API_VERSION;
  kind?: 'ProviderConfiguration';
  updateStrategy?: 'update' | 'patch';
  readinessChecks?: ReadinessCheckConfiguration;
  chart: HelmChart;
  /** The release name. */
  name: string;
  namespace: string;
  createNamespace?: boolean;
  values?: AnyJSON;
  exportsFromManifests?: ExportSpec[];
  exports?: ExportsSpec;
  continuousReconcile?: ContinuousReconcileSpec;
  /** Real Helm releases (default true) or helm-free: rendered and applied as manifests. */
  helmDeployment?: boolean;
  helmDeploymentConfig?: HelmDeploymentConfiguration;
  deletionGroups?: DeletionGroupDefinition[];
  deletionGroupsDuringUpdate?: DeletionGroupDefinition[];
}

export interface HelmProviderStatus {
  apiVersion: typeof HELM_PROVIDER_API_VERSION;
  kind: 'ProviderStatus';
  managedResources?: ManagedResourceStatus[];
}

/** An entry of the Context's helmChartRepoCredentials.auths: exactly one of authHeader and secretRef. */
export interface HelmChartRepoAuth {
  url?: string;
  customCAData?: string;
  authHeader?: string;
  secretRef?: { name: string; key?: string };
}
