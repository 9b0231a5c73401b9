// What a container deploy item leaves in its namespace: its pods and its input and state Secrets, all labelled
// with the item's name and owned by it. The deployer removes them when it uninstalls; an item that goes
// without uninstalling (delete-without-uninstall, a finalizer removed by hand) has them collected by the API
// server's garbage collector through the owner references (upstream's periodic collector missed some: #353).
import { podsResource, secretsResource } from '../../../apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { DEPLOY_ITEM_NAME_LABEL } from './pod.ts';

export async function deleteIgnoringMissing(client: KubeClient, resource: typeof podsResource, obj: KubeObject): Promise<void> {
  try {
    await client.delete(resource, obj.metadata.name ?? '', { namespace: obj.metadata.namespace ?? '' });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}

/** Deletes every pod and Secret labelled with the item's name in its namespace. */
export async function collectItemObjects(client: KubeClient, item: DeployItem): Promise<void> {
  const namespace = item.metadata.namespace ?? '';
  const labelSelector = `${DEPLOY_ITEM_NAME_LABEL}=${item.metadata.name}`;
  for (const resource of [podsResource, secretsResource]) {
    for (const obj of (await client.list(resource, { namespace, labelSelector })).items) await deleteIgnoringMissing(client, resource, obj);
  }
}
