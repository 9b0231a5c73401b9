// The controller families Bosun ships, by the name `--controllers` selects them with.
import { registerLandscaper } from '../landscaper/family.ts';
import type { ControllerRegistry } from './commands/controllers.ts';

export const controllerFamilies: ControllerRegistry = {
  landscaper: (mgr, env) => registerLandscaper(mgr, env.webhooks ? { webhooks: env.webhooks } : {}),
};
