// The webhook configurations as upstream's chart shapes them: a ValidatingWebhookConfiguration "chaos-controller"
// on CREATE, UPDATE and DELETE of disruptions at /validate-chaos-datadoghq-com-v1beta1-disruption, and a
// MutatingWebhookConfiguration "chaos-controller" with upstream's two mutators at their own paths: the defaults
// and the user info. failurePolicy Fail, as upstream: an unreachable webhook blocks writes rather
// than letting unchecked disruptions in. Status writes do not match `disruptions` and are never blocked.
import type { WebhookConfigurationSpec, WebhookDefinition } from '../../runtime/index.ts';
import { CHAOS_GROUP, CHAOS_VERSION, DISRUPT_ON_INIT_LABEL } from '../api/constants.ts';

export const CHAOS_WEBHOOK_CONFIGURATION_NAME = 'chaos-controller';
/** The component label of the configurations: the family that serves them. */
export const CHAOS_WEBHOOK_COMPONENT = 'chaos';
export const VALIDATE_DISRUPTION_PATH = '/validate-chaos-datadoghq-com-v1beta1-disruption';
export const MUTATE_DISRUPTION_PATH = '/mutate-chaos-datadoghq-com-v1beta1-disruption';
export const MUTATE_USER_INFO_PATH = '/mutate-chaos-datadoghq-com-v1beta1-user-info';
export const MUTATE_POD_HANDLER_PATH = '/mutate-v1-pod-chaos-handler-init-container';
export const POD_HANDLER_CONFIGURATION_NAME = 'chaos-controller-pod-chaos-handler';

function webhook(name: string, path: string, operations: ('CREATE' | 'UPDATE' | 'DELETE')[]): WebhookDefinition {
  return {
    name,
    path,
    rules: [{ apiGroups: [CHAOS_GROUP], apiVersions: [CHAOS_VERSION], resources: ['disruptions'], operations, scope: 'Namespaced' }],
    failurePolicy: 'Fail',
    sideEffects: 'None',
    timeoutSeconds: 10,
  };
}

/**
 * The chaos handler's pod webhook, as upstream's chart has it: pods labelled disrupt-on-init, on CREATE,
 * failurePolicy Ignore (a controller that is down must not stop pods from being created).
 */
function podHandlerConfiguration(chaosNamespace: string): WebhookConfigurationSpec {
  return {
    type: 'Mutating',
    name: POD_HANDLER_CONFIGURATION_NAME,
    component: CHAOS_WEBHOOK_COMPONENT,
    webhooks: [
      {
        name: `chaos-controller-admission-webhook.${chaosNamespace}.svc`,
        path: MUTATE_POD_HANDLER_PATH,
        rules: [{ apiGroups: [''], apiVersions: ['v1'], resources: ['pods'], operations: ['CREATE'], scope: 'Namespaced' }],
        objectSelector: { matchExpressions: [{ key: DISRUPT_ON_INIT_LABEL, operator: 'Exists' }] },
        failurePolicy: 'Ignore',
        sideEffects: 'NoneOnDryRun',
        timeoutSeconds: 10,
      },
    ],
  };
}

/** Upstream names its webhooks after the service in the chaos namespace. */
export function chaosWebhookConfigurations(chaosNamespace: string, handlerEnabled = false): WebhookConfigurationSpec[] {
  return [
    ...(handlerEnabled ? [podHandlerConfiguration(chaosNamespace)] : []),
    {
      type: 'Validating',
      name: CHAOS_WEBHOOK_CONFIGURATION_NAME,
      component: CHAOS_WEBHOOK_COMPONENT,
      webhooks: [webhook(`chaos-controller-webhook-service.${chaosNamespace}.svc`, VALIDATE_DISRUPTION_PATH, ['CREATE', 'UPDATE', 'DELETE'])],
    },
    {
      type: 'Mutating',
      name: CHAOS_WEBHOOK_CONFIGURATION_NAME,
      component: CHAOS_WEBHOOK_COMPONENT,
      webhooks: [
        // Defaults on update too (upstream's kubebuilder marker; its chart has CREATE only): a `kubectl replace` of
        // the original manifest, without the defaulted duration, is then no spec change.
        webhook(`chaos-controller-webhook-service.${chaosNamespace}.svc`, MUTATE_DISRUPTION_PATH, ['CREATE', 'UPDATE']),
        // On update it only carries a left-out UserInfo over (upstream: CREATE only).
        webhook(`chaos-controller-admission-webhook.${chaosNamespace}.svc`, MUTATE_USER_INFO_PATH, ['CREATE', 'UPDATE']),
      ],
    },
  ];
}
