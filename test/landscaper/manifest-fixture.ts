// The manifest deployer's test fixture: a Landscaper server and a target server, a namespace with a kubeconfig
// Target `remote` pointing at the target server, and the deployer running with short timeouts.
import type { KubeObject } from '../../src/apimachinery/object.ts';
import type { RequestLogEntry } from '../../src/apiserver/router.ts';
import type { DeployItem } from '../../src/landscaper/api/deploy-item.ts';
import { targetsResource } from '../../src/landscaper/api/resources.ts';
import { registerManifestDeployer, type ManifestDeployerHandle } from '../../src/landscaper/deployers/manifest/index.ts';
import type { Manager } from '../../src/runtime/manager.ts';
import { createNamespace, startManager, startServer, type Server } from './deployer-harness.ts';

export const MANIFEST_TYPE = 'landscaper.gardener.cloud/kubernetes-manifest';
export const configMaps = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };

export const cm = (name: string, data: Record<string, string>, meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...meta }, data });

export const manifestConfig = (extra: Record<string, unknown>): DeployItem['spec']['config'] => ({ apiVersion: 'manifest.deployer.landscaper.gardener.cloud/v1alpha2', kind: 'ProviderConfiguration', ...extra }) as DeployItem['spec']['config'];

export interface ManifestFixture {
  ls: Server;
  remote: Server;
  mgr: Manager;
  handle: ManifestDeployerHandle;
  /** Stops the deployer (and its memory of running jobs), runs whileStopped, and starts a fresh one. */
  restartDeployer(whileStopped?: () => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** remoteRequests: every request the target server receives is appended. */
export async function startManifestFixture(namespace: string, remoteRequests?: RequestLogEntry[]): Promise<ManifestFixture> {
  const ls = await startServer();
  const remote = await startServer(false, remoteRequests);
  await createNamespace(ls.client, namespace);
  await ls.client.create(targetsResource, { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Target', metadata: { name: 'remote', namespace }, spec: { type: 'landscaper.gardener.cloud/kubernetes-cluster', config: { kubeconfig: remote.server.kubeconfig } } });
  const start = async (): Promise<{ mgr: Manager; handle: ManifestDeployerHandle }> => {
    const mgr = startManager(ls.client);
    const handle = registerManifestDeployer(mgr, { unreachableGraceMs: 300, targetRequestTimeoutMs: 2000, watchLingerMs: 100, errorBackoff: { initialMs: 50, maxMs: 200 } });
    await mgr.start();
    return { mgr, handle };
  };
  const stop = async (f: ManifestFixture): Promise<void> => {
    await f.mgr.stop();
    await f.handle.close();
  };
  const fixture: ManifestFixture = {
    ls,
    remote,
    ...(await start()),
    async restartDeployer(whileStopped) {
      await stop(fixture);
      await whileStopped?.();
      Object.assign(fixture, await start());
    },
    async close() {
      await stop(fixture);
      await remote.close();
      await ls.close();
    },
  };
  return fixture;
}
