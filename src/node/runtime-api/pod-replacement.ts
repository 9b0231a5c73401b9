// POST /v1/pods/{namespace}/{name}/replace: upstream's pod replacement disruption, done with the node's
// credentials. The node is cordoned so that the pod's owner cannot put the replacement straight back here
// while the pod goes, the claims it mounts are deleted when asked (the replacement then gets fresh storage),
// the pod is deleted, and the node is uncordoned again (unless someone else had cordoned it).
import { nodesResource, persistentVolumeClaimsResource, podsResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import { ignoreNotFound } from '../../client/errors.ts';
import type { PodReplacementRequest } from '../../client/node-runtime/protocol.ts';
import { updateObject } from '../../runtime/index.ts';
import type { Node } from '../../apimachinery/api/index.ts';
import { ownPod } from './finalizer-removal.ts';

type SchedulableNode = Node & { spec?: { unschedulable?: boolean } };

async function setUnschedulable(client: KubeClient, nodeName: string, unschedulable: boolean): Promise<void> {
  const node = await client.get<SchedulableNode>(nodesResource, nodeName);
  await updateObject(client, nodesResource, node, (draft) => {
    draft.spec ??= {};
    if (unschedulable) draft.spec.unschedulable = true;
    else delete draft.spec.unschedulable;
  });
}


export async function replacePod(client: KubeClient, nodeName: string, namespace: string, name: string, request: PodReplacementRequest): Promise<void> {
  const pod = await ownPod(client, nodeName, namespace, name);
  const node = await client.get<SchedulableNode>(nodesResource, nodeName);
  const cordonedAlready = node.spec?.unschedulable === true;
  if (!cordonedAlready) await setUnschedulable(client, nodeName, true);
  try {
    if (request.deleteStorage) {
      const claims = (pod.spec.volumes ?? []).flatMap((v) => (v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : []));
      await Promise.all(claims.map((claim) => ignoreNotFound(client.delete(persistentVolumeClaimsResource, claim, { namespace }))));
    }
    const gracePeriodSeconds = request.force ? 0 : (request.gracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds);
    await ignoreNotFound(
      client.delete(podsResource, name, {
        namespace,
        preconditions: { uid: pod.metadata.uid ?? '' },
        ...(gracePeriodSeconds !== undefined ? { gracePeriodSeconds } : {}),
      }),
    );
  } finally {
    if (!cordonedAlready) await setUnschedulable(client, nodeName, false);
  }
}
