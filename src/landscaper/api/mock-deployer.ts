// Mock deployer provider configuration (mock.deployer.landscaper.gardener.cloud/v1alpha1).
import type { DeployItemPhase } from './constants.ts';
import type { AnyJSON } from './shared.ts';

export interface ContinuousReconcileSpec {
  cron?: string;
  every?: string;
}

export interface MockProviderConfiguration {
  apiVersion?: 'mock.deployer.landscaper.gardener.cloud/v1alpha1';
  kind?: 'ProviderConfiguration';
  /** Phase set unconditionally after a reconcile. */
  phase?: DeployItemPhase;
  /** Set only while the phase is empty or Init; suppresses the default Succeeded. */
  initialPhase?: DeployItemPhase;
  /** Copied into status.providerStatus. */
  providerStatus?: AnyJSON;
  /** Written as-is into the export Secret (key "config"). */
  export?: AnyJSON;
  continuousReconcile?: ContinuousReconcileSpec;
}
