// registerManifestDeployer: the manifest deployer as its own controller on a manager.
import type { Manager } from '../../../runtime/index.ts';
import { registerDeployer, type DeployerHandle, type DeployerOptions } from '../contract/controller.ts';
import { ManifestDeployer, type ManifestDeployerSettings } from './deployer.ts';

export interface ManifestDeployerOptions extends DeployerOptions, Partial<ManifestDeployerSettings> {}

export interface ManifestDeployerHandle extends DeployerHandle {
  /** Stops the target-cluster watches and closes the cached clients; call after the manager stopped. */
  close(): Promise<void>;
  /** Watches on target clusters currently running (waits in progress, plus lingering ones). */
  activeWatches(): number;
}

export function registerManifestDeployer(mgr: Manager, options: ManifestDeployerOptions = {}): ManifestDeployerHandle {
  const { targetRequestTimeoutMs, unreachableGraceMs, watchLingerMs, ...lib } = options;
  const deployer = new ManifestDeployer({
    targetRequestTimeoutMs: targetRequestTimeoutMs ?? 10_000,
    unreachableGraceMs: unreachableGraceMs ?? 60_000,
    watchLingerMs: watchLingerMs ?? 60_000,
  });
  const handle = registerDeployer(mgr, deployer, { name: 'manifest-deployer', ...lib });
  return { ...handle, close: () => deployer.close(), activeWatches: () => deployer.activeWatches };
}

export { ManifestDeployer, type ManifestDeployerSettings } from './deployer.ts';
export { decodeManifestConfig, MANAGED_DEPLOY_ITEM_LABEL } from './config.ts';
