// Wires the validating webhook into a process's admission webhooks: the handlers at upstream's paths and
// the configuration, written when the webhooks start (before any controller writes).
import type { AdmissionWebhooks } from '../../runtime/index.ts';
import { landscaperWebhookConfiguration, landscaperWebhookHandlers, landscaperWebhookPath } from './configuration.ts';

export function registerLandscaperWebhook(webhooks: AdmissionWebhooks): void {
  for (const [resource, handler] of Object.entries(landscaperWebhookHandlers)) webhooks.handle(landscaperWebhookPath(resource), handler);
  webhooks.configure(landscaperWebhookConfiguration());
}
