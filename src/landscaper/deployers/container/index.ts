// registerContainerDeployer: the container deployer as its own controller on a manager, woken by its pods.
import { podsResource } from '../../../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { Manager } from '../../../runtime/index.ts';
import { registerDeployer, type DeployerHandle, type DeployerOptions } from '../contract/controller.ts';
import { ContainerDeployer } from './deployer.ts';
import { DEPLOY_ITEM_NAME_LABEL } from './pod.ts';

export type ContainerDeployerOptions = DeployerOptions;

export function registerContainerDeployer(mgr: Manager, options: ContainerDeployerOptions = {}): DeployerHandle {
  const pods = mgr.informer<KubeObject>(podsResource, { labelSelector: DEPLOY_ITEM_NAME_LABEL });
  return registerDeployer(mgr, new ContainerDeployer(pods), { name: 'container-deployer', ...options });
}

export { ContainerDeployer } from './deployer.ts';
export { decodeContainerConfig } from './config.ts';
