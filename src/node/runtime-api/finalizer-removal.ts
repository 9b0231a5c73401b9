// POST /v1/pods/{namespace}/{name}/finalizers/remove: an injector's own pod's finalizer (upstream's injector
// removes it with its service account). Only for pods bound to this node: the agent writes with the node's
// credentials, and a chaos pod must not reach beyond its node through it.
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { removeFinalizerWithRetry } from '../../runtime/index.ts';
import type { Pod } from '../../apimachinery/api/index.ts';
import { forbidden, notFound } from './errors.ts';

/** The pod, read afresh, when it is bound to nodeName; 404 when it does not exist, 403 when it is another node's. */
export async function ownPod(client: KubeClient, nodeName: string, namespace: string, name: string): Promise<Pod> {
  let pod: Pod;
  try {
    pod = await client.get<Pod>(podsResource, name, { namespace });
  } catch (error) {
    if (error instanceof NotFoundError) throw notFound(`pod ${namespace}/${name} not found`);
    throw error;
  }
  if (pod.spec.nodeName !== nodeName) throw forbidden(`pod ${namespace}/${name} is not bound to node ${nodeName}`);
  return pod;
}

/** Removes a finalizer from a pod bound to this node (gone meanwhile: whatever the finalizer held is released). */
export async function removeOwnPodFinalizer(client: KubeClient, nodeName: string, namespace: string, name: string, finalizer: string): Promise<void> {
  const pod = await ownPod(client, nodeName, namespace, name);
  await removeFinalizerWithRetry(client, podsResource, pod, finalizer);
}
