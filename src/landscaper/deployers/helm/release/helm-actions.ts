// Helm's install, upgrade and uninstall actions (pkg/action) on Helm's own release storage. Interrupted actions
// do not block: a release left pending-install/-upgrade/-rollback (the process died mid-action) is marked failed
// with a description saying so, and the next action goes on from it (Landscaper PR #761 deletes that revision
// instead; Bosun keeps it in the history, where `helm history` shows what happened).
import type { KubeObject } from '../../../../apimachinery/object.ts';
import type { KubeClient } from '../../../../client/client.ts';
import { AlreadyExistsError, NotFoundError } from '../../../../client/errors.ts';
import { renderRelease } from '../../../../template/helm/release-render.ts';
import { helmNow, hookRecord, releaseChart, type Release } from '../../../../template/helm/release/release.ts';
import type { CreateHelmActions, HelmActions, InstallOrUpgradeRequest, ReleaseSummary, UninstallRequest } from './actions.ts';
import { runHooks } from './hooks.ts';
import { applyRelease, deleteObjects, manifestObjects, type ReleaseObject } from './release-resources.ts';
import { ReleaseStorage } from './storage.ts';

const DEFAULT_TIMEOUT_MS = 300_000;
const DEFAULT_HISTORY_MAX = 10;
const namespaces = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' };

export class HelmActionError extends Error {}

function summary(r: Release): ReleaseSummary {
  const metadata = r.chart.metadata as { name?: string; version?: string; appVersion?: string };
  return {
    name: r.name,
    namespace: r.namespace,
    revision: r.version,
    status: r.info.status,
    chart: `${metadata.name ?? ''}-${metadata.version ?? ''}`,
    appVersion: metadata.appVersion ?? '',
    updated: r.info.last_deployed,
    description: r.info.description,
    manifest: r.manifest,
    notes: r.info.notes ?? '',
  };
}

const isPending = (r: Release): boolean => r.info.status.startsWith('pending-');

class Actions implements HelmActions {
  private readonly storage: ReleaseStorage;

  constructor(private readonly client: KubeClient) {
    this.storage = new ReleaseStorage(client);
  }

  async get(name: string, namespace: string): Promise<ReleaseSummary | undefined> {
    const all = await this.storage.history(name, namespace);
    const last = all.at(-1);
    return last ? summary(last) : undefined;
  }

  async history(name: string, namespace: string): Promise<ReleaseSummary[]> {
    return (await this.storage.history(name, namespace)).map(summary);
  }

  async list(namespace: string | undefined): Promise<ReleaseSummary[]> {
    const latest = new Map<string, Release>();
    for (const r of await this.storage.query(namespace)) latest.set(`${r.namespace}/${r.name}`, r);
    return [...latest.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(summary);
  }

  /** The release's revisions, with one an interrupted action left pending recovered as failed. */
  private async revisions(name: string, namespace: string): Promise<Release[]> {
    const all = await this.storage.history(name, namespace);
    for (const r of all.filter(isPending)) {
      r.info = { ...r.info, status: 'failed', description: `${r.info.description} (interrupted: the action that wrote it did not finish)` };
      await this.storage.update(r);
    }
    return all;
  }

  async installOrUpgrade(request: InstallOrUpgradeRequest): Promise<ReleaseSummary> {
    const all = await this.revisions(request.name, request.namespace);
    const last = all.at(-1);
    const current = [...all].reverse().find((r) => r.info.status === 'deployed') ?? (last && last.info.status !== 'uninstalled' ? last : undefined);
    if (request.createNamespace === true) await this.ensureNamespace(request.namespace);
    const upgrade = current !== undefined;
    const version = (last?.version ?? 0) + 1;
    const rendered = renderRelease(request.chart, { releaseName: request.name, namespace: request.namespace, values: structuredClone(request.values), revision: version, isUpgrade: upgrade });
    const manifest = rendered.manifests.map((m) => `---\n# Source: ${m.name}\n${m.content}\n`).join('');
    const now = helmNow();
    const release: Release = {
      name: request.name,
      namespace: request.namespace,
      version,
      info: { first_deployed: current?.info.first_deployed ?? now, last_deployed: now, deleted: '', description: upgrade ? 'Preparing upgrade' : 'Initial install underway', status: upgrade ? 'pending-upgrade' : 'pending-install', notes: rendered.notes },
      chart: releaseChart(request.chart),
      config: request.values,
      manifest,
      hooks: request.disableHooks === true ? [] : rendered.hooks.map(hookRecord),
    };
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const event = upgrade ? 'upgrade' : 'install';
    await this.storage.create(release);
    try {
      // CRDs from crds/ are created before anything else and never updated, as Helm does on install.
      if (!upgrade) for (const crd of rendered.crds) await this.createIfMissing(await manifestObjects(this.client, crd.data, request.namespace));
      await runHooks(this.client, request.namespace, release.hooks, `pre-${event}`, timeoutMs);
      const previous = current ? await manifestObjects(this.client, current.manifest, request.namespace) : [];
      await applyRelease(this.client, release, previous, await manifestObjects(this.client, manifest, request.namespace), { takeOwnership: request.force === true });
      await runHooks(this.client, request.namespace, release.hooks, `post-${event}`, timeoutMs);
    } catch (err) {
      release.info = { ...release.info, status: 'failed', description: `${upgrade ? 'Upgrade' : 'Release'} "${request.name}" failed: ${(err as Error).message}`, last_deployed: helmNow() };
      await this.storage.update(release);
      if (request.atomic === true && !upgrade) await this.uninstall({ name: request.name, namespace: request.namespace, timeoutMs });
      throw new HelmActionError(release.info.description, { cause: err });
    }
    if (current) {
      current.info = { ...current.info, status: 'superseded' };
      await this.storage.update(current);
    }
    release.info = { ...release.info, status: 'deployed', description: upgrade ? 'Upgrade complete' : 'Install complete' };
    await this.storage.update(release);
    await this.prune(request.name, request.namespace, request.historyMax ?? DEFAULT_HISTORY_MAX);
    return summary(release);
  }

  async uninstall(request: UninstallRequest): Promise<ReleaseSummary | undefined> {
    const all = await this.revisions(request.name, request.namespace);
    const last = all.at(-1);
    if (!last) return undefined;
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    last.info = { ...last.info, status: 'uninstalling', description: 'Deletion in progress (or silently failed)' };
    await this.storage.update(last);
    if (request.disableHooks !== true) await runHooks(this.client, request.namespace, last.hooks, 'pre-delete', timeoutMs);
    await deleteObjects(this.client, await this.objectsOf(last));
    if (request.disableHooks !== true) await runHooks(this.client, request.namespace, last.hooks, 'post-delete', timeoutMs);
    last.info = { ...last.info, status: 'uninstalled', deleted: helmNow(), description: 'Uninstallation complete' };
    if (request.keepHistory === true) await this.storage.update(last);
    else for (const r of all) await this.storage.delete(r.name, r.namespace, r.version);
    return summary(last);
  }

  /** A manifest's objects; kinds the cluster no longer serves are skipped (nothing of them is left to delete). */
  private async objectsOf(release: Release): Promise<ReleaseObject[]> {
    try {
      return await manifestObjects(this.client, release.manifest, release.namespace);
    } catch (err) {
      if (err instanceof NotFoundError) return [];
      throw err;
    }
  }

  private async createIfMissing(objects: ReleaseObject[]): Promise<void> {
    for (const o of objects) {
      await this.client.create(o.ref, o.object as unknown as KubeObject, o.namespace !== undefined ? { namespace: o.namespace } : {}).catch((err: unknown) => {
        if (!(err instanceof AlreadyExistsError)) throw err;
      });
    }
  }

  private async ensureNamespace(name: string): Promise<void> {
    await this.client.create(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).catch((err: unknown) => {
      if (!(err instanceof AlreadyExistsError)) throw err;
    });
  }

  /** Keeps the newest historyMax revisions, as Helm's MaxHistory (never the deployed one). */
  private async prune(name: string, namespace: string, historyMax: number): Promise<void> {
    if (historyMax <= 0) return;
    const all = await this.storage.history(name, namespace);
    const surplus = all.length - historyMax;
    for (const r of all.slice(0, Math.max(0, surplus))) if (r.info.status !== 'deployed') await this.storage.delete(r.name, r.namespace, r.version);
  }
}

export const createHelmActions: CreateHelmActions = (client) => new Actions(client);

