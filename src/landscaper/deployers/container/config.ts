// Decoding of the container provider configuration (container.deployer.landscaper.gardener.cloud/v1alpha1,
// upstream apis/deployer/container/v1alpha1/types_provider.go), unchanged.
import type { AnyJSON } from '../../api/shared.ts';
import type { ContinuousReconcileSpec } from '../../api/mock-deployer.ts';
import { ConfigurationError } from '../../ls-error.ts';
import { parseContinuousReconcile } from '../contract/continuous-reconcile.ts';

export const CONTAINER_PROVIDER_API_VERSION = 'container.deployer.landscaper.gardener.cloud/v1alpha1';

export interface ContainerProviderConfiguration {
  image: string;
  command?: string[];
  args?: string[];
  /** Raw JSON written to IMPORTS_PATH. */
  importValues?: AnyJSON;
  /** Inline or referenced blueprint; written under CONTENT_PATH when inline. */
  blueprint?: AnyJSON;
  /** Inline or referenced component descriptor; written to COMPONENT_DESCRIPTOR_PATH. */
  componentDescriptor?: AnyJSON;
  registryPullSecrets?: { name: string; namespace?: string }[];
  continuousReconcile?: ContinuousReconcileSpec;
}

function stringList(value: unknown, field: string, fail: (m: string) => never): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return fail(`${field} must be a list of strings`);
  return value;
}

export function decodeContainerConfig(raw: AnyJSON | undefined): ContainerProviderConfiguration {
  const fail = (message: string): never => {
    throw new ConfigurationError('Reconcile', 'FailedUnmarshal', `container provider configuration: ${message}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('expected an object');
  const apiVersion = raw['apiVersion'];
  if (apiVersion !== undefined && apiVersion !== CONTAINER_PROVIDER_API_VERSION) fail(`unsupported apiVersion ${JSON.stringify(apiVersion)}, expected ${CONTAINER_PROVIDER_API_VERSION}`);
  const image = raw['image'];
  if (typeof image !== 'string' || image === '') return fail('image: Required value');
  const config: ContainerProviderConfiguration = { image };
  const command = stringList(raw['command'], 'command', fail);
  if (command) config.command = command;
  const args = stringList(raw['args'], 'args', fail);
  if (args) config.args = args;
  for (const field of ['importValues', 'blueprint', 'componentDescriptor'] as const) {
    const value = raw[field];
    if (value !== undefined && value !== null) config[field] = value;
  }
  const pullSecrets = raw['registryPullSecrets'];
  if (pullSecrets !== undefined && pullSecrets !== null) {
    if (!Array.isArray(pullSecrets) || !pullSecrets.every((s) => typeof s === 'object' && s !== null && !Array.isArray(s) && typeof s['name'] === 'string')) {
      fail('registryPullSecrets must be a list of {name, namespace}');
    }
    config.registryPullSecrets = pullSecrets as unknown as { name: string; namespace?: string }[];
  }
  const continuous = parseContinuousReconcile(raw['continuousReconcile'], fail);
  if (continuous !== undefined) config.continuousReconcile = continuous;
  return config;
}
