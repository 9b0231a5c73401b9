// registerHelmDeployer: the helm deployer as its own controller on a manager.
import type { Manager } from '../../../runtime/index.ts';
import { registerDeployer, type DeployerHandle, type DeployerOptions } from '../contract/controller.ts';
import type { ManifestDeployerSettings } from '../manifest/deployer.ts';
import { HelmDeployer } from './deployer.ts';
import { createHelmActions as helmActions } from './release/helm-actions.ts';
import type { CreateHelmActions } from './release/actions.ts';

export interface HelmDeployerOptions extends DeployerOptions, Partial<ManifestDeployerSettings> {
  /** Helm's release actions for real-Helm mode; default Bosun's (src/landscaper/deployers/helm/release/). */
  createHelmActions?: CreateHelmActions;
}

export interface HelmDeployerHandle extends DeployerHandle {
  /** Stops the target-cluster watches and closes the cached clients; call after the manager stopped. */
  close(): Promise<void>;
}

export function registerHelmDeployer(mgr: Manager, options: HelmDeployerOptions = {}): HelmDeployerHandle {
  const { targetRequestTimeoutMs, unreachableGraceMs, watchLingerMs, createHelmActions, ...lib } = options;
  const deployer = new HelmDeployer({
    targetRequestTimeoutMs: targetRequestTimeoutMs ?? 10_000,
    unreachableGraceMs: unreachableGraceMs ?? 60_000,
    watchLingerMs: watchLingerMs ?? 60_000,
    createHelmActions: createHelmActions ?? helmActions,
  });
  const handle = registerDeployer(mgr, deployer, { name: 'helm-deployer', ...lib });
  return { ...handle, close: () => deployer.close() };
}

export { HelmDeployer } from './deployer.ts';
