// Defaulting of webhook configurations, as admissionregistration/v1's SetDefaults_* functions do it: what a
// client reads back is what kube-apiserver would have stored.
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';

export function defaultWebhookConfiguration(object: KubeObject, mutating: boolean): void {
  const webhooks = object['webhooks'];
  if (!Array.isArray(webhooks)) return;
  for (const webhook of webhooks) {
    if (!isPlainObject(webhook)) continue;
    webhook['failurePolicy'] ??= 'Fail';
    webhook['matchPolicy'] ??= 'Equivalent';
    webhook['namespaceSelector'] ??= {};
    webhook['objectSelector'] ??= {};
    webhook['timeoutSeconds'] ??= 10;
    if (mutating) webhook['reinvocationPolicy'] ??= 'Never';
    const rules = webhook['rules'];
    if (Array.isArray(rules)) for (const rule of rules) if (isPlainObject(rule)) rule['scope'] ??= '*';
    const clientConfig = webhook['clientConfig'];
    if (isPlainObject(clientConfig) && isPlainObject(clientConfig['service'])) clientConfig['service']['port'] ??= 443;
  }
}
