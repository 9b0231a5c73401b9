// The ValidatingWebhookConfiguration as upstream names and shapes it: "landscaper-validation-webhook",
// one webhook per resource named <resource>.validation.landscaper.gardener.cloud at /webhook/validate/<resource>,
// CREATE and UPDATE, failurePolicy Fail, sideEffects None, 15 s, and the skip-validation object selector.
import { LANDSCAPER_GROUP, LANDSCAPER_VERSION } from '../api/constants.ts';
import type { AdmissionHandler, WebhookConfigurationSpec } from '../../runtime/index.ts';
import { SKIP_VALIDATION_LABEL, validateDeployItemHandler, validateExecutionHandler, validateInstallationHandler, validateTargetHandler } from './handlers.ts';

export const LANDSCAPER_WEBHOOK_CONFIGURATION_NAME = 'landscaper-validation-webhook';
export const LANDSCAPER_WEBHOOK_NAME_SUFFIX = '.validation.landscaper.gardener.cloud';
export const LANDSCAPER_WEBHOOK_BASE_PATH = '/webhook/validate';
/** The component label of the configuration: the controller family that serves it. */
export const LANDSCAPER_WEBHOOK_COMPONENT = 'landscaper';

/** Validated resources (plural) and their handlers. */
export const landscaperWebhookHandlers: Readonly<Record<string, AdmissionHandler>> = {
  installations: validateInstallationHandler,
  executions: validateExecutionHandler,
  deployitems: validateDeployItemHandler,
  targets: validateTargetHandler,
};

export function landscaperWebhookPath(resource: string): string {
  return `${LANDSCAPER_WEBHOOK_BASE_PATH}/${resource}`;
}

export function landscaperWebhookConfiguration(): WebhookConfigurationSpec {
  return {
    type: 'Validating',
    name: LANDSCAPER_WEBHOOK_CONFIGURATION_NAME,
    component: LANDSCAPER_WEBHOOK_COMPONENT,
    webhooks: Object.keys(landscaperWebhookHandlers).map((resource) => ({
      name: `${resource}${LANDSCAPER_WEBHOOK_NAME_SUFFIX}`,
      path: landscaperWebhookPath(resource),
      // A plain resource name does not match its status subresource: controllers' status writes skip the webhook.
      rules: [{ apiGroups: [LANDSCAPER_GROUP], apiVersions: [LANDSCAPER_VERSION], resources: [resource], operations: ['CREATE', 'UPDATE'], scope: 'Namespaced' }],
      failurePolicy: 'Fail',
      sideEffects: 'None',
      timeoutSeconds: 15,
      objectSelector: { matchExpressions: [{ key: SKIP_VALIDATION_LABEL, operator: 'NotIn', values: ['true'] }] },
    })),
  };
}
