// Decoding of the helm deployer's ProviderConfiguration, with upstream's validation (validation.go): one chart
// source, a release name and namespace, known update strategy, the allow-listed helmDeploymentConfig keys.
import { HELM_PROVIDER_API_VERSION, type HelmDeploymentConfiguration, type HelmProviderConfiguration } from '../../api/helm-deployer.ts';
import type { AnyJSON, JSONObject } from '../../api/shared.ts';
import { parseContinuousReconcile } from '../contract/continuous-reconcile.ts';
import { ConfigurationError } from '../../ls-error.ts';

export interface HelmConfig extends HelmProviderConfiguration {
  updateStrategy: 'update' | 'patch';
  /** Real Helm releases unless the configuration says false, as upstream's default. */
  helmDeployment: boolean;
  /** The user's values (an object; chart defaults are coalesced under them). */
  values: JSONObject;
}

const INSTALL_KEYS = new Set(['atomic', 'force', 'skipSchemaValidation', 'takeOwnership', 'wait', 'timeout']);
const UNINSTALL_KEYS = new Set(['wait', 'timeout']);

function isObject(v: unknown): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bad(message: string): never {
  throw new ConfigurationError('Reconcile', 'InvalidProviderConfiguration', `helm provider configuration: ${message}`);
}

function checkDeploymentConfig(raw: AnyJSON | undefined): HelmDeploymentConfiguration | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!isObject(raw)) return bad('helmDeploymentConfig must be an object');
  for (const [section, allowed] of [['install', INSTALL_KEYS], ['upgrade', INSTALL_KEYS], ['uninstall', UNINSTALL_KEYS]] as const) {
    const value = raw[section];
    if (value === undefined || value === null) continue;
    if (!isObject(value)) bad(`helmDeploymentConfig.${section} must be an object`);
    for (const key of Object.keys(value)) if (!allowed.has(key)) bad(`helmDeploymentConfig.${section}.${key} is not supported (allowed: ${[...allowed].join(', ')})`);
  }
  return raw as unknown as HelmDeploymentConfiguration;
}

export function decodeHelmConfig(raw: AnyJSON | undefined): HelmConfig {
  if (!isObject(raw)) return bad('expected an object');
  if (raw['apiVersion'] !== undefined && raw['apiVersion'] !== HELM_PROVIDER_API_VERSION) bad(`unsupported apiVersion ${JSON.stringify(raw['apiVersion'])}, expected ${HELM_PROVIDER_API_VERSION}`);
  const name = raw['name'];
  if (typeof name !== 'string' || name === '') bad('name (the release name) is required');
  const namespace = raw['namespace'];
  if (typeof namespace !== 'string' || namespace === '') bad('namespace (the release namespace) is required');
  const chart = raw['chart'];
  if (!isObject(chart)) return bad('chart is required');
  if (chart['fromResource'] !== undefined) bad('chart.fromResource is no longer supported');
  const archive = chart['archive'];
  const sources = [chart['ref'], chart['resourceRef'], chart['helmChartRepo'], archive].filter((s) => s !== undefined && s !== null && s !== '');
  if (sources.length !== 1) bad('chart needs exactly one of ref, archive, helmChartRepo and resourceRef');
  if (isObject(archive) && [archive['raw'], archive['remote']].filter((s) => s !== undefined && s !== null && s !== '').length !== 1) bad('chart.archive needs exactly one of raw and remote');
  const repo = chart['helmChartRepo'];
  if (isObject(repo)) {
    for (const key of ['helmChartRepoUrl', 'helmChartName', 'helmChartVersion']) if (typeof repo[key] !== 'string' || repo[key] === '') bad(`chart.helmChartRepo.${key} is required`);
  }
  const strategy = raw['updateStrategy'] ?? 'update';
  if (strategy !== 'update' && strategy !== 'patch') bad(`${JSON.stringify(strategy)} is not a valid update strategy (update, patch)`);
  const values = raw['values'] ?? {};
  if (!isObject(values)) bad('values must be an object');
  const helmDeployment = raw['helmDeployment'] ?? true;
  if (typeof helmDeployment !== 'boolean') bad('helmDeployment must be true or false');
  const deploymentConfig = checkDeploymentConfig(raw['helmDeploymentConfig']);
  const config = { ...(raw as unknown as HelmProviderConfiguration), updateStrategy: strategy, helmDeployment, values } as HelmConfig;
  if (deploymentConfig) config.helmDeploymentConfig = deploymentConfig;
  // exportsFromManifests is the deprecated spelling of exports.exports: both are read.
  const legacy = raw['exportsFromManifests'];
  if (Array.isArray(legacy) && legacy.length > 0) config.exports = { ...config.exports, exports: [...(config.exports?.exports ?? []), ...(legacy as unknown as NonNullable<HelmConfig['exportsFromManifests']>)] };
  const continuous = parseContinuousReconcile(raw['continuousReconcile'], bad);
  if (continuous === undefined) delete config.continuousReconcile;
  else config.continuousReconcile = continuous;
  return config;
}
