// Exports go into a Secret owned by the deploy item (key "config"), referenced by status.exportRef: the
// execution controller reads it when collecting exports (upstream lib CreateOrUpdateExport).
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient } from '../../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../../client/errors.ts';
import { DATA_OBJECT_SECRET_DATA_KEY, LANDSCAPER_API_VERSION } from '../../api/constants.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { ObjectReference } from '../../api/shared.ts';
import { secretsResource } from '../../../apimachinery/builtin-resources.ts';

export interface WriteExportOptions {
  /** The raw bytes for key "config" (upstream: JSON of the values; the mock writes its export as-is). */
  data: string;
  /** Name of a new secret; ignored when status.exportRef already names one. Default `<di>-export`. */
  name?: string;
  /** generateName of a new secret instead of a name (the mock's `mock-export-`). */
  generateName?: string;
}

/**
 * Creates or updates the export Secret; returns the reference to put into status.exportRef. A Secret of the
 * fixed name that already exists and is owned by this item is an earlier try's whose status write was lost (a
 * controller killed between the two): it is updated, as upstream's CreateOrUpdate does; one owned by anything
 * else is left alone and the conflict is the error.
 */
export async function writeExportSecret(client: KubeClient, item: DeployItem, options: WriteExportOptions): Promise<ObjectReference> {
  const namespace = item.status?.exportRef?.namespace ?? item.metadata.namespace ?? '';
  const existingName = item.status?.exportRef?.name;
  const data = { [DATA_OBJECT_SECRET_DATA_KEY]: Buffer.from(options.data, 'utf8').toString('base64') };
  const owner = { apiVersion: LANDSCAPER_API_VERSION, kind: 'DeployItem', name: item.metadata.name ?? '', uid: item.metadata.uid ?? '' };
  const update = async (name: string, onlyOwned: boolean): Promise<boolean> => {
    try {
      const current = await client.get(secretsResource, name, { namespace });
      const refs = current.metadata.ownerReferences ?? [];
      const owned = refs.some((r) => r.uid === owner.uid);
      if (onlyOwned && !owned) return false;
      await client.update(secretsResource, { ...current, data, metadata: { ...current.metadata, ownerReferences: owned ? refs : [...refs, owner] } });
      return true;
    } catch (err) {
      if (err instanceof NotFoundError) return false;
      throw err;
    }
  };
  if (existingName && (await update(existingName, false))) return { name: existingName, namespace };
  const name = existingName ?? options.name ?? (options.generateName ? undefined : `${item.metadata.name}-export`);
  const secret: KubeObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      ...(name ? { name } : { generateName: options.generateName ?? 'export-' }),
      namespace,
      ownerReferences: [owner],
    },
    type: 'Opaque',
    data,
  };
  try {
    const created = await client.create(secretsResource, secret);
    return { name: created.metadata.name ?? name ?? '', namespace };
  } catch (err) {
    if (err instanceof AlreadyExistsError && name && (await update(name, true))) return { name, namespace };
    throw err;
  }
}

/** Deletes the export Secret named by status.exportRef, if any. */
export async function deleteExportSecret(client: KubeClient, item: DeployItem): Promise<void> {
  const ref = item.status?.exportRef;
  if (!ref?.name) return;
  try {
    await client.delete(secretsResource, ref.name, { namespace: ref.namespace ?? item.metadata.namespace ?? '' });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
}
