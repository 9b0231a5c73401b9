// The chaos pod's own finalizer (the controller adds it so that it sees every chaos pod end): removed once the
// injector cleaned up, through the node agent (pods here have no API identity). Failures are only logged, as
// upstream: the controller removes it itself once it sees the pod done.
import { CHAOS_POD_FINALIZER } from '../api/constants.ts';
import type { InjectorLogger } from './injector.ts';
import type { NodeRuntimePort } from './node-runtime-port.ts';
import { withRetries } from './retry.ts';

export async function removeOwnFinalizer(port: NodeRuntimePort | undefined, namespace: string, podName: string | undefined, log: InjectorLogger, retryDelayMs = 500): Promise<void> {
  if (!port || !podName) {
    log.info('not removing the chaos pod finalizer', { reason: !port ? 'no node runtime' : 'INJECTOR_POD_NAME is not set' });
    return;
  }
  try {
    await withRetries(() => port.removeFinalizer(namespace, podName, CHAOS_POD_FINALIZER), {
      retries: 3,
      initialDelayMs: retryDelayMs,
      onRetry: (error, attempt) => log.warn('removing the chaos pod finalizer failed, retrying', { attempt, error }),
    });
    log.info('removed the chaos pod finalizer', { namespace, pod: podName, finalizer: CHAOS_POD_FINALIZER });
  } catch (error) {
    log.error('could not remove the chaos pod finalizer', { namespace, pod: podName, error });
  }
}
