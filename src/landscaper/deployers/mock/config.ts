// Decoding of the mock provider configuration (mock.deployer.landscaper.gardener.cloud/v1alpha1).
import { MOCK_PROVIDER_API_VERSION } from '../../api/constants.ts';
import type { MockProviderConfiguration } from '../../api/mock-deployer.ts';
import type { AnyJSON } from '../../api/shared.ts';
import { parseContinuousReconcile } from '../contract/continuous-reconcile.ts';
import { ConfigurationError } from '../../ls-error.ts';

const PHASES = new Set(['Init', 'Progressing', 'Completing', 'Succeeded', 'Failed', 'InitDelete', 'Deleting', 'DeleteFailed']);

export function decodeMockConfig(raw: AnyJSON | undefined): MockProviderConfiguration {
  const fail = (message: string): never => {
    throw new ConfigurationError('Reconcile', 'FailedUnmarshal', `mock provider configuration: ${message}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('expected an object');
  const apiVersion = raw['apiVersion'];
  if (apiVersion !== undefined && apiVersion !== MOCK_PROVIDER_API_VERSION) fail(`unsupported apiVersion ${JSON.stringify(apiVersion)}, expected ${MOCK_PROVIDER_API_VERSION}`);
  for (const field of ['phase', 'initialPhase'] as const) {
    const value = raw[field];
    if (value !== undefined && value !== null && (typeof value !== 'string' || !PHASES.has(value))) fail(`${field} ${JSON.stringify(value)} is not a deploy item phase`);
  }
  const continuous = parseContinuousReconcile(raw['continuousReconcile'], fail);
  const config = { ...raw } as unknown as MockProviderConfiguration;
  if (continuous === undefined) delete config.continuousReconcile;
  else config.continuousReconcile = continuous;
  return config;
}
