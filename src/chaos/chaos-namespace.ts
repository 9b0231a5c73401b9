// The chaos namespace, where every chaos pod runs, exists before the controller creates the first one: upstream's
// chart installs it with the controller; here the family makes sure of it at start (and is allowed no more on
// namespaces than that). Chaos pods are privileged, share the host's PIDs and mount its paths, which Pod Security
// Admission allows only in a trusted namespace: the namespace is made with the privileged enforce label, and an
// existing one that has no enforce label gets it (one that has another keeps the administrator's choice). The
// injector's ServiceAccount, which the chart also installs, is made there too: the API server refuses a pod whose
// ServiceAccount does not exist.
import { namespacesResource, serviceAccountsResource } from '../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../apimachinery/object.ts';
import { POD_SECURITY_ENFORCE_LABEL, TRUSTED_NAMESPACE_LABELS } from '../apimachinery/pod-security-labels.ts';
import type { KubeClient } from '../client/client.ts';
import { AlreadyExistsError } from '../client/errors.ts';
import type { Logger } from 'pino';
import type { Runnable } from '../runtime/index.ts';

async function labelIfUnset(client: KubeClient, namespace: string, logger: Logger): Promise<void> {
  const existing = await client.get<KubeObject>(namespacesResource, namespace);
  if (existing.metadata.labels?.[POD_SECURITY_ENFORCE_LABEL] !== undefined) return;
  await client.patch(namespacesResource, namespace, { metadata: { labels: TRUSTED_NAMESPACE_LABELS } }, { type: 'merge' });
  logger.info({ namespace }, 'labelled the chaos namespace privileged for Pod Security Admission');
}

async function ensureServiceAccount(client: KubeClient, namespace: string, name: string, logger: Logger): Promise<void> {
  try {
    await client.create(serviceAccountsResource, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace, labels: { 'app.kubernetes.io/part-of': 'chaos-controller' } } });
    logger.info({ namespace, serviceAccount: name }, 'created the chaos injector ServiceAccount');
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) logger.warn({ namespace, serviceAccount: name, err }, 'could not create the chaos injector ServiceAccount');
  }
}

export function chaosNamespaceRunnable(client: KubeClient, namespace: string, logger: Logger, injectorServiceAccount?: string): Runnable {
  return {
    name: `chaos-namespace-${namespace}`,
    async start() {
      try {
        const labels = { 'app.kubernetes.io/part-of': 'chaos-controller', ...TRUSTED_NAMESPACE_LABELS };
        await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels } });
        logger.info({ namespace }, 'created the chaos namespace');
      } catch (err) {
        // Not fatal: the controller reports each chaos pod it cannot create (CreateFailed) until someone fixes it.
        if (!(err instanceof AlreadyExistsError)) return logger.warn({ namespace, err }, 'could not create the chaos namespace');
        await labelIfUnset(client, namespace, logger).catch((error: unknown) => logger.warn({ namespace, err: error }, 'could not label the chaos namespace'));
      }
      if (injectorServiceAccount) await ensureServiceAccount(client, namespace, injectorServiceAccount, logger);
    },
    async stop() {},
  };
}
