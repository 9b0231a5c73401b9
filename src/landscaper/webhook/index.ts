// Landscaper's validating admission webhook (checklist row 43).
export {
  LANDSCAPER_WEBHOOK_BASE_PATH,
  LANDSCAPER_WEBHOOK_COMPONENT,
  LANDSCAPER_WEBHOOK_CONFIGURATION_NAME,
  LANDSCAPER_WEBHOOK_NAME_SUFFIX,
  landscaperWebhookConfiguration,
  landscaperWebhookHandlers,
  landscaperWebhookPath,
} from './configuration.ts';
export { SKIP_VALIDATION_LABEL, validateDeployItemHandler, validateExecutionHandler, validateInstallationHandler, validateTargetHandler } from './handlers.ts';
export { registerLandscaperWebhook } from './register.ts';
