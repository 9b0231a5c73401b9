// registerMockDeployer: the mock deployer as its own controller on a manager.
import type { Manager } from '../../../runtime/index.ts';
import { registerDeployer, type DeployerHandle, type DeployerOptions } from '../contract/controller.ts';
import { MockDeployer } from './deployer.ts';

export type MockDeployerOptions = DeployerOptions;

export function registerMockDeployer(mgr: Manager, options: MockDeployerOptions = {}): DeployerHandle {
  return registerDeployer(mgr, new MockDeployer(), { name: 'mock-deployer', ...options });
}

export { MockDeployer } from './deployer.ts';
export { decodeMockConfig } from './config.ts';
