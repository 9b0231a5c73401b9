// Which kinds admission leaves alone: the configurations that decide admission itself.
import { ADMISSION_REGISTRATION_GROUP, MUTATING_WEBHOOK_CONFIGURATION_KIND, VALIDATING_WEBHOOK_CONFIGURATION_KIND } from '../../apimachinery/webhook-configuration.ts';

/** Requests on these kinds never reach webhooks, so a broken webhook can always be removed (k8s does the same). */
export function isWebhookConfigurationKind(group: string, kind: string): boolean {
  return (
    group === ADMISSION_REGISTRATION_GROUP &&
    (kind === VALIDATING_WEBHOOK_CONFIGURATION_KIND ||
      kind === MUTATING_WEBHOOK_CONFIGURATION_KIND ||
      kind === 'ValidatingAdmissionPolicy' ||
      kind === 'ValidatingAdmissionPolicyBinding' ||
      kind === 'MutatingAdmissionPolicy' ||
      kind === 'MutatingAdmissionPolicyBinding')
  );
}
