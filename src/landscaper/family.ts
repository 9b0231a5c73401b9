// The Landscaper controller family: installations, executions, the landscaper-side deploy item controller
// (pickup timeout) and the mock and manifest deployers, each a separate controller as upstream runs them.
import type { Manager } from '../runtime/manager.ts';
import { registerManifestDeployer } from './deployers/manifest/index.ts';
import { registerMockDeployer } from './deployers/mock/index.ts';
import { registerDeployItemController } from './deployitem/index.ts';
import { registerExecutionController } from './execution/index.ts';
import { registerInstallationController } from './installation/index.ts';

export function registerLandscaper(mgr: Manager): void {
  registerInstallationController(mgr);
  registerExecutionController(mgr);
  registerDeployItemController(mgr);
  registerMockDeployer(mgr);
  const manifest = registerManifestDeployer(mgr);
  // Target-cluster clients live as long as the manager.
  void mgr.done.finally(() => manifest.close()).catch(() => {});
}
