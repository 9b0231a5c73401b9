// The node's half of k3s's local-path storage (rancher local-path-provisioner's semantics, without its helper
// pods): a claim of a `rancher.io/local-path` class that a pod on this node uses is provisioned here, once the
// pod has its node (WaitForFirstConsumer): the claim is annotated with the selected node, and a hostPath
// PersistentVolume pinned to this node is made for it, its directory under the node's data dir; the workloads
// family's binder then binds the two. A bound claim mounts its volume's directory. When a Delete-policy volume
// this node made is Released, the reclaimer removes its directory and then the volume.
import { chmod, mkdir, rm } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../../../apimachinery/api/index.ts';
import { persistentVolumeClaimsResource, persistentVolumesResource, storageClassesResource } from '../../../apimachinery/builtin-resources.ts';
import { LOCAL_PATH_PROVISIONER, PROVISIONED_BY_ANNOTATION, SELECTED_NODE_ANNOTATION } from '../../../apimachinery/storage-classes.ts';
import type { KubeClient } from '../../../client/client.ts';
import { AlreadyExistsError, ignoreNotFound } from '../../../client/errors.ts';
import { Informer } from '../../../runtime/index.ts';
import { volumeSetUpError } from './volume-errors.ts';

const HOSTNAME_LABEL = 'kubernetes.io/hostname';


/** Made writable by any user, as local-path-provisioner makes it; only on creation, so a later chmod by a pod stays. */
async function ensureDir(dir: string): Promise<string> {
  if ((await mkdir(dir, { recursive: true })) !== undefined) await chmod(dir, 0o777);
  return dir;
}

function pinnedNodes(volume: PersistentVolume): string[] {
  return (volume.spec.nodeAffinity?.required?.nodeSelectorTerms ?? []).flatMap((t) => (t.matchExpressions ?? []).filter((e) => e.key === HOSTNAME_LABEL && e.operator === 'In').flatMap((e) => e.values ?? []));
}

function provisionedVolume(claim: PersistentVolumeClaim, storageClass: StorageClass, nodeName: string, dir: string): PersistentVolume {
  const spec = claim.spec ?? {};
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `pvc-${claim.metadata.uid ?? ''}`, annotations: { [PROVISIONED_BY_ANNOTATION]: LOCAL_PATH_PROVISIONER } },
    spec: {
      capacity: { storage: spec.resources?.requests?.['storage'] ?? '0' },
      accessModes: spec.accessModes ?? ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: storageClass.reclaimPolicy ?? 'Delete',
      storageClassName: storageClass.metadata.name ?? '',
      volumeMode: spec.volumeMode ?? 'Filesystem',
      hostPath: { path: dir, type: 'DirectoryOrCreate' },
      nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: HOSTNAME_LABEL, operator: 'In', values: [nodeName] }] }] } },
      claimRef: { kind: 'PersistentVolumeClaim', apiVersion: 'v1', namespace: claim.metadata.namespace ?? '', name: claim.metadata.name ?? '', uid: claim.metadata.uid ?? '', resourceVersion: claim.metadata.resourceVersion ?? '' },
    },
  };
}

export interface ClaimDirContext {
  client: KubeClient;
  nodeName: string;
  /** Where a claim without a class, or one provisioned here, keeps its data. */
  dir: string;
}

/** The host directory of a pod's claim: its bound volume's, one provisioned here now, or (no class) a plain directory. */
export async function claimVolumeDir(context: ClaimDirContext, volumeName: string, claim: PersistentVolumeClaim): Promise<string> {
  const claimName = claim.metadata.name ?? '';
  const boundTo = claim.spec?.volumeName ?? '';
  if (boundTo !== '') {
    const volume = await ignoreNotFound(context.client.get<PersistentVolume>(persistentVolumesResource, boundTo));
    if (volume === undefined) throw volumeSetUpError(volumeName, `persistentvolume "${boundTo}" not found`);
    const nodes = pinnedNodes(volume);
    if (nodes.length > 0 && !nodes.includes(context.nodeName)) throw volumeSetUpError(volumeName, `persistentvolume "${boundTo}" is pinned to node ${nodes.join(', ')}`);
    const path = volume.spec.hostPath?.path ?? volume.spec.local?.path;
    if (path === undefined) throw volumeSetUpError(volumeName, `persistentvolume "${boundTo}" is neither hostPath nor local: this node mounts only directories`);
    return ensureDir(path);
  }
  const className = claim.spec?.storageClassName ?? '';
  // No class and no default class: the claim is a directory on the node, as before classes were served.
  if (className === '') return ensureDir(context.dir);
  const storageClass = await ignoreNotFound(context.client.get<StorageClass>(storageClassesResource, className));
  if (storageClass === undefined) throw volumeSetUpError(volumeName, `storageclass.storage.k8s.io "${className}" not found`);
  if (storageClass.provisioner !== LOCAL_PATH_PROVISIONER) throw volumeSetUpError(volumeName, `persistentvolumeclaim "${claimName}" is not bound yet (its class's provisioner is ${storageClass.provisioner})`);
  const namespace = claim.metadata.namespace ?? '';
  if (claim.metadata.annotations?.[SELECTED_NODE_ANNOTATION] !== context.nodeName) {
    const patch = { metadata: { annotations: { [SELECTED_NODE_ANNOTATION]: context.nodeName } } };
    await context.client.patch(persistentVolumeClaimsResource, claimName, patch, { type: 'merge', namespace });
  }
  try {
    await context.client.create(persistentVolumesResource, provisionedVolume(claim, storageClass, context.nodeName, context.dir));
  } catch (error) {
    // A retried start: this claim's volume exists already (its name is the claim's uid).
    if (!(error instanceof AlreadyExistsError)) throw error;
  }
  return ensureDir(context.dir);
}

export interface LocalPathReclaimerOptions {
  client: KubeClient;
  nodeName: string;
  dataDir: string;
  logger: Logger;
}

/** Removes the directories (then the volumes) of Released Delete-policy volumes this node provisioned. */
export class LocalPathReclaimer {
  private readonly informer: Informer<PersistentVolume>;
  private readonly inFlight = new Set<string>();

  constructor(private readonly o: LocalPathReclaimerOptions) {
    this.informer = new Informer<PersistentVolume>({
      client: o.client,
      resource: persistentVolumesResource,
      onError: (err, info) => o.logger.warn({ err, phase: info.phase }, 'watching persistent volumes failed'),
    });
    this.informer.addEventHandler({ onAdd: (v) => this.consider(v), onUpdate: (_old, v) => this.consider(v) });
  }

  start(): void {
    this.informer.start();
  }

  async stop(): Promise<void> {
    await this.informer.stop();
  }

  private consider(volume: PersistentVolume): void {
    const name = volume.metadata.name ?? '';
    if (volume.metadata.annotations?.[PROVISIONED_BY_ANNOTATION] !== LOCAL_PATH_PROVISIONER || !pinnedNodes(volume).includes(this.o.nodeName)) return;
    if (volume.status?.phase !== 'Released' || volume.spec.persistentVolumeReclaimPolicy !== 'Delete' || this.inFlight.has(name)) return;
    this.inFlight.add(name);
    void this.reclaim(volume)
      .catch((err: unknown) => this.o.logger.warn({ err, volume: name }, 'could not delete a released local-path volume'))
      .finally(() => this.inFlight.delete(name));
  }

  private async reclaim(volume: PersistentVolume): Promise<void> {
    const path = volume.spec.hostPath?.path;
    // Only what this node made under its data dir is ever removed.
    if (path !== undefined) {
      const inside = relative(resolve(this.o.dataDir), resolve(path));
      if (inside === '' || inside.startsWith('..')) throw new Error(`refusing to delete ${path}: not under ${this.o.dataDir}`);
      await rm(path, { recursive: true, force: true });
    }
    await ignoreNotFound(this.o.client.delete(persistentVolumesResource, volume.metadata.name ?? ''));
  }
}
