// POST /v1/pods/{namespace}/{name}/finalizers/remove: an injector's own pod's finalizer (upstream's injector
// removes it with its service account). Only for pods bound to this node: the agent writes with the node's
// credentials, and a chaos pod must not reach beyond its node through it.
import { podsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import { updateObject } from '../../runtime/conflict-retry.ts';
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

export async function removeFinalizer(client: KubeClient, nodeName: string, namespace: string, name: string, finalizer: string): Promise<void> {
  const pod = await ownPod(client, nodeName, namespace, name);
  try {
    await updateObject(client, podsResource, pod, (draft) => {
      const left = (draft.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      if (left.length === (draft.metadata.finalizers ?? []).length) return;
      draft.metadata.finalizers = left;
    });
  } catch (error) {
    // Gone meanwhile: whatever the finalizer held is released.
    if (!(error instanceof NotFoundError)) throw error;
  }
}
