// registerManifestDeployer: the manifest deployer as its own controller on a manager.
import type { Manager } from '../../../runtime/manager.ts';
import { registerDeployer, type DeployerHandle, type DeployerOptions } from '../contract/controller.ts';
import { ManifestDeployer, type ManifestDeployerSettings } from './deployer.ts';

export interface ManifestDeployerOptions extends DeployerOptions, Partial<ManifestDeployerSettings> {}

export interface ManifestDeployerHandle extends DeployerHandle {
  /** Closes the cached target-cluster clients; call after the manager stopped. */
  close(): Promise<void>;
}

export function registerManifestDeployer(mgr: Manager, options: ManifestDeployerOptions = {}): ManifestDeployerHandle {
  const { pollMs, targetRequestTimeoutMs, unreachableGraceMs, ...lib } = options;
  const deployer = new ManifestDeployer({
    pollMs: pollMs ?? 1000,
    targetRequestTimeoutMs: targetRequestTimeoutMs ?? 10_000,
    unreachableGraceMs: unreachableGraceMs ?? 60_000,
  });
  const handle = registerDeployer(mgr, deployer, { name: 'manifest-deployer', ...lib });
  return { ...handle, close: () => deployer.close() };
}

export { ManifestDeployer, type ManifestDeployerSettings } from './deployer.ts';
export { decodeManifestConfig, MANAGED_DEPLOY_ITEM_LABEL } from './config.ts';
