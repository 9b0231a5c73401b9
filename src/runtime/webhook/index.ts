// Admission webhooks for controller families (controller-runtime's pkg/webhook/admission in spirit): an HTTPS
// server with handlers by path, AdmissionReview v1, response builders, and the webhook configurations that
// point the API server at it.
export { ADMISSION_REVIEW_API_VERSION, type AdmissionOperation, type UserInfo } from '../../apimachinery/admission-review.ts';
export type { GroupVersionKind, GroupVersionResource } from '../../apimachinery/group-version.ts';
export { AdmissionReviewError, decodeAdmissionReview, encodeAdmissionReview, type AdmissionRequest, type AdmissionResponse } from './admission-review.ts';
export { AdmissionWebhooks, type AdmissionWebhooksOptions } from './admission-webhooks.ts';
export { generateWebhookCertificates, type WebhookCertificates } from './certificates.ts';
export { WebhookCertificateSecret, type CertificateSecretOptions, type KeptCertificates } from './certificate-secret.ts';
export {
  applyWebhookConfiguration,
  buildWebhookConfiguration,
  COMPONENT_LABEL,
  deleteWebhookConfiguration,
  MANAGED_BY_BOSUN,
  MANAGED_BY_LABEL,
  pruneWebhookConfigurations,
  serviceOfUrl,
  WebhookConfigurationUnsupportedError,
  webhookConfigurationResource,
  type DeleteWebhookConfigurationOptions,
  type PruneWebhookConfigurationsOptions,
  type WebhookConfigurationObject,
  type WebhookConfigurationSpec,
  type WebhookDefinition,
  type WebhookEndpoint,
  type WebhookType,
} from './configuration.ts';
export { jsonPatchFor } from './json-patch-diff.ts';
export { allowed, denied, patched, withWarnings } from './responses.ts';
export { WebhookServer, WebhookServerError, type AdmissionHandler, type WebhookServerOptions } from './server.ts';
