// Decoding of the manifest provider configuration (v1alpha2; v1alpha1's bare manifest list is converted with
// policy manage). Deletion groups carry upstream's forceDelete, which the shared API type lacks (adapter here).
import { MANIFEST_PROVIDER_API_VERSION } from '../../api/constants.ts';
import type { DeletionGroupDefinition, Manifest, ManifestPolicy, ManifestProviderConfiguration, UpdateStrategy } from '../../api/manifest-deployer.ts';
import type { AnyJSON, JSONObject } from '../../api/shared.ts';
import { parseContinuousReconcile } from '../contract/continuous-reconcile.ts';
import { ConfigurationError } from '../../ls-error.ts';

export const MANIFEST_V1ALPHA1 = 'manifest.deployer.landscaper.gardener.cloud/v1alpha1';
/** Label put on every resource the deployer creates or updates: the deploy item's name. */
export const MANAGED_DEPLOY_ITEM_LABEL = 'manifest.deployer.landscaper.gardener.cloud/deployitem';

export type DeletionGroup = DeletionGroupDefinition & {
  predefinedResourceGroup?: { forceDelete?: boolean };
  customResourceGroup?: { forceDelete?: boolean };
};

export interface ManifestConfig extends Omit<ManifestProviderConfiguration, 'manifests' | 'deletionGroups' | 'deletionGroupsDuringUpdate'> {
  updateStrategy: UpdateStrategy;
  manifests: (Manifest & { policy: ManifestPolicy; manifest: JSONObject })[];
  deletionGroups?: DeletionGroup[];
  deletionGroupsDuringUpdate?: DeletionGroup[];
}

const POLICIES = new Set<string>(['manage', 'fallback', 'keep', 'ignore', 'immutable']);
const STRATEGIES = new Set<string>(['update', 'patch', 'merge', 'mergeOverwrite']);

function isObject(v: AnyJSON | undefined): v is JSONObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function bad(message: string): never {
  throw new ConfigurationError('Reconcile', 'InvalidProviderConfiguration', `manifest provider configuration: ${message}`);
}

export function decodeManifestConfig(raw: AnyJSON | undefined): ManifestConfig {
  if (!isObject(raw)) return bad('expected an object');
  const apiVersion = raw['apiVersion'];
  if (apiVersion !== MANIFEST_PROVIDER_API_VERSION && apiVersion !== MANIFEST_V1ALPHA1) {
    bad(`unsupported apiVersion ${JSON.stringify(apiVersion)}, expected ${MANIFEST_PROVIDER_API_VERSION}`);
  }
  const strategy = raw['updateStrategy'] ?? 'update';
  if (typeof strategy !== 'string' || !STRATEGIES.has(strategy)) bad(`${JSON.stringify(strategy)} is not a valid update strategy`);
  const list = raw['manifests'] ?? [];
  if (!Array.isArray(list)) return bad('manifests must be a list');
  const manifests = list.map((entry, i) => {
    if (!isObject(entry)) return bad(`manifests[${i}] is not an object`);
    // v1alpha1 lists bare objects; v1alpha2 wraps them as {policy, manifest}.
    const wrapped = apiVersion === MANIFEST_PROVIDER_API_VERSION || isObject(entry['manifest']);
    const manifest = wrapped ? entry['manifest'] : entry;
    const policy = (wrapped ? entry['policy'] : undefined) ?? 'manage';
    if (typeof policy !== 'string' || !POLICIES.has(policy)) bad(`manifests[${i}].policy ${JSON.stringify(policy)} is not one of manage, fallback, keep, ignore, immutable`);
    if (!isObject(manifest) || typeof manifest['apiVersion'] !== 'string' || typeof manifest['kind'] !== 'string') bad(`manifests[${i}].manifest needs apiVersion and kind`);
    const meta = manifest['metadata'];
    if (!isObject(meta) || typeof meta['name'] !== 'string' || meta['name'] === '') bad(`manifests[${i}].manifest needs metadata.name`);
    return { ...(wrapped ? (entry as unknown as Manifest) : {}), policy: policy as ManifestPolicy, manifest: manifest as JSONObject };
  });
  for (const key of ['deletionGroups', 'deletionGroupsDuringUpdate'] as const) {
    const groups = raw[key];
    if (groups === undefined || groups === null) continue;
    if (!Array.isArray(groups)) bad(`${key} must be a list`);
    groups.forEach((g, i) => {
      if (!isObject(g)) return bad(`${key}[${i}] is not an object`);
      const p = isObject(g['predefinedResourceGroup']);
      const c = isObject(g['customResourceGroup']);
      if (p === c) bad(`${key}[${i}]: exactly one of predefinedResourceGroup and customResourceGroup must be set`);
      const type = isObject(g['predefinedResourceGroup']) ? g['predefinedResourceGroup']['type'] : undefined;
      if (p && !['namespaced-resources', 'cluster-scoped-resources', 'crds', 'empty'].includes(String(type))) bad(`${key}[${i}]: unsupported predefinedResourceGroup type ${JSON.stringify(type)}`);
    });
  }
  const config = { ...(raw as unknown as ManifestProviderConfiguration), updateStrategy: strategy as UpdateStrategy, manifests } as ManifestConfig;
  const continuous = parseContinuousReconcile(raw['continuousReconcile'], bad);
  if (continuous === undefined) delete config.continuousReconcile;
  else config.continuousReconcile = continuous;
  return config;
}
