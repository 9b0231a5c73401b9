// The chaos namespace, where every chaos pod runs, exists before the controller creates the first one: upstream's
// chart installs it with the controller; here the family makes sure of it at start (and is allowed no more on
// namespaces than that).
import { namespacesResource } from '../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../client/client.ts';
import { AlreadyExistsError } from '../client/errors.ts';
import type { Logger } from 'pino';
import type { Runnable } from '../runtime/manager.ts';

export function chaosNamespaceRunnable(client: KubeClient, namespace: string, logger: Logger): Runnable {
  return {
    name: `chaos-namespace-${namespace}`,
    async start() {
      try {
        await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'app.kubernetes.io/part-of': 'chaos-controller' } } });
        logger.info({ namespace }, 'created the chaos namespace');
      } catch (err) {
        if (err instanceof AlreadyExistsError) return;
        // Not fatal: the controller reports each chaos pod it cannot create (CreateFailed) until someone creates it.
        logger.warn({ namespace, err }, 'could not create the chaos namespace');
      }
    },
    async stop() {},
  };
}
