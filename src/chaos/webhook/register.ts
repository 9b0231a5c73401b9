// Wires the chaos webhooks into a process's admission webhooks: the handlers at upstream's paths and the
// configurations, written when the webhooks start (before any controller writes).
import type { KubeClient } from '../../client/client.ts';
import type { AdmissionWebhooks } from '../../runtime/index.ts';
import type { ChaosConfig } from '../config.ts';
import { chaosWebhookConfigurations, MUTATE_DISRUPTION_PATH, MUTATE_USER_INFO_PATH, VALIDATE_DISRUPTION_PATH } from './configuration.ts';
import { chaosWebhookHandlers } from './handlers.ts';
import { handlerMutator } from './handler-mutator.ts';
import { MUTATE_POD_HANDLER_PATH } from './configuration.ts';

export function registerChaosWebhooks(webhooks: AdmissionWebhooks, client: KubeClient, config: ChaosConfig): void {
  const handlers = chaosWebhookHandlers(client, config);
  webhooks.handle(VALIDATE_DISRUPTION_PATH, handlers.validate);
  webhooks.handle(MUTATE_DISRUPTION_PATH, handlers.mutate);
  webhooks.handle(MUTATE_USER_INFO_PATH, handlers.userInfo);
  if (config.handlerEnabled) webhooks.handle(MUTATE_POD_HANDLER_PATH, handlerMutator(config.handler));
  for (const spec of chaosWebhookConfigurations(config.chaosNamespace, config.handlerEnabled)) webhooks.configure(spec);
}
