// The Disruption admission webhooks: defaults, the user-info annotation, validation and the safety nets.
export {
  CHAOS_WEBHOOK_COMPONENT,
  CHAOS_WEBHOOK_CONFIGURATION_NAME,
  chaosWebhookConfigurations,
  MUTATE_DISRUPTION_PATH,
  MUTATE_USER_INFO_PATH,
  VALIDATE_DISRUPTION_PATH,
} from './configuration.ts';
export { chaosPodNames, countTargets, lookupServices, targetSelector } from './cluster-reads.ts';
export { chaosWebhookHandlers, type ChaosWebhookHandlers } from './handlers.ts';
export { registerChaosWebhooks } from './register.ts';
