// Shared pieces of the Landscaper fault tests: blueprints (a layered mock deploy item DAG with exports, a
// subinstallation), an in-process landscape (embedded API server + registerLandscaper on a manager whose
// client may be wrapped) and bounded waits.
import { after, before } from 'node:test';
import { pino } from 'pino';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { loadBosunCrds } from '../../../src/crds/index.ts';
import type { DataObject } from '../../../src/landscaper/api/data-object.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../../src/landscaper/api/execution.ts';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import { registerLandscaper, type LandscaperOptions } from '../../../src/landscaper/family.ts';
import { dataObjectsResource, deployItemsResource, executionsResource, installationsResource } from '../../../src/landscaper/api/resources.ts';
import { Manager } from '../../../src/runtime/manager.ts';
import { defaultControllerRateLimiter } from '../../../src/runtime/workqueue/rate-limiter.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

export const MOCK = 'landscaper.gardener.cloud/mock';

/** A manifest deploy item, targeting the import `cluster`, that manages ConfigMap default/cm. */
export const configMapManifestItem = {
  name: 'cm',
  type: 'landscaper.gardener.cloud/kubernetes-manifest',
  target: { import: 'cluster' },
  config: {
    apiVersion: 'manifest.deployer.landscaper.gardener.cloud/v1alpha2',
    kind: 'ProviderConfiguration',
    updateStrategy: 'update',
    manifests: [{ policy: 'manage', manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default' }, data: { a: 'b' } } }],
  },
};
export const RECONCILE = { 'landscaper.gardener.cloud/operation': 'reconcile' };
export const namespacesResource = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' };

/** `layers` layers of `width` mock items; every item of layer n depends on every item of layer n-1. */
export function dagItems(layers: number, width: number, extra: (name: string) => string = () => ''): string {
  const lines = ['deployItems:'];
  for (let l = 0; l < layers; l++) {
    for (let w = 0; w < width; w++) {
      const name = `l${l}-i${w}`;
      lines.push(`  - name: ${name}`, `    type: ${MOCK}`);
      if (l > 0) {
        lines.push('    dependsOn:');
        for (let p = 0; p < width; p++) lines.push(`      - l${l - 1}-i${p}`);
      }
      lines.push(
        '    config:',
        '      apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1',
        '      kind: ProviderConfiguration',
        '      export:',
        `        value: ${name}-{{ .imports.seed }}`,
        extra(name),
      );
    }
  }
  return lines.filter((l) => l !== '').join('\n') + '\n';
}

const childBlueprint = stringify({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'Blueprint',
  imports: [{ name: 'v', type: 'data', schema: { type: 'string' } }],
  exports: [{ name: 'r', type: 'data', schema: { type: 'string' } }],
  deployExecutions: [{ name: 'd', type: 'GoTemplate', template: `deployItems:\n  - name: child\n    type: ${MOCK}\n    config:\n      apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1\n      kind: ProviderConfiguration\n      export:\n        value: child-{{ .imports.v }}\n` }],
  exportExecutions: [{ name: 'e', type: 'GoTemplate', template: 'exports:\n  r: {{ index .values.deployitems "child" "value" }}\n' }],
});

/**
 * A blueprint with a `layers` × `width` mock DAG (exports the last layer's first item as `result`) and,
 * when `withSub`, a subinstallation that imports `seed` and whose export the parent re-exports as `sub`.
 */
export function dagBlueprint(layers: number, width: number, withSub = true): string {
  const last = `l${layers - 1}-i0`;
  return stringify({
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Blueprint',
    imports: [{ name: 'seed', type: 'data', schema: { type: 'string' } }],
    exports: [
      { name: 'result', type: 'data', schema: { type: 'string' } },
      ...(withSub ? [{ name: 'sub', type: 'data', schema: { type: 'string' } }] : []),
    ],
    deployExecutions: [{ name: 'dag', type: 'GoTemplate', template: dagItems(layers, width) }],
    ...(withSub
      ? {
          subinstallations: [
            {
              apiVersion: 'landscaper.gardener.cloud/v1alpha1',
              kind: 'InstallationTemplate',
              name: 'child',
              blueprint: { filesystem: { 'blueprint.yaml': childBlueprint } },
              imports: { data: [{ name: 'v', dataRef: 'seed' }] },
              exports: { data: [{ name: 'r', dataRef: 'child-out' }] },
            },
          ],
        }
      : {}),
    exportExecutions: [
      {
        name: 'e',
        type: 'GoTemplate',
        template: `exports:\n  result: {{ index .values.deployitems "${last}" "value" }}\n${withSub ? '  sub: {{ index .values.dataobjects "child-out" }}\n' : ''}`,
      },
    ],
  });
}

export function installation(name: string, ns: string, blueprint: string, spec: Partial<Installation['spec']> = {}, annotations: Record<string, string> = RECONCILE): Installation {
  return {
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Installation',
    metadata: { name, namespace: ns, annotations },
    spec: { ...spec, blueprint: { inline: { filesystem: { 'blueprint.yaml': blueprint } } } },
  };
}

export function dataObject(name: string, ns: string, data: unknown): KubeObject {
  return { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'DataObject', metadata: { name, namespace: ns }, data };
}

export async function createNamespace(client: KubeClient, name: string): Promise<void> {
  await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

export async function getOrUndefined<T extends KubeObject>(client: KubeClient, resource: typeof installationsResource, name: string, namespace: string): Promise<T | undefined> {
  try {
    return await client.get<T>(resource, name, { namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export async function getData(client: KubeClient, ns: string, name: string): Promise<unknown> {
  return (await getOrUndefined<DataObject>(client, dataObjectsResource, name, ns))?.data;
}

/** Polls until cond holds; throws with the last state after timeoutMs, so no test can hang. */
export async function until<T>(what: string, probe: () => Promise<T>, cond: (v: T) => boolean, timeoutMs = 20_000, everyMs = 25): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: T | undefined;
  let lastErr: unknown;
  for (;;) {
    try {
      last = await probe();
      if (cond(last)) return last;
    } catch (err) {
      lastErr = err;
    }
    if (Date.now() > end) {
      const state = JSON.stringify(last, (k, v: unknown) => (k === 'managedFields' || k === 'blueprint' || k === 'deployItemsCompressed' ? undefined : v))?.slice(0, 3000);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last state: ${state}${lastErr ? `; last error: ${String(lastErr)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export const jobDone = (o: { status?: { jobID?: string; jobIDFinished?: string } } | undefined): boolean =>
  o?.status?.jobID !== undefined && o.status.jobID !== '' && o.status.jobID === o.status.jobIDFinished;

/** Waits for a root installation to finish its job in a final phase. */
export function untilFinished(client: KubeClient, ns: string, name: string, timeoutMs = 20_000): Promise<Installation> {
  return until(
    `installation ${ns}/${name} to finish its job`,
    async () => getOrUndefined<Installation>(client, installationsResource, name, ns),
    (i) => jobDone(i) && (i?.status?.phase === 'Succeeded' || i?.status?.phase === 'Failed') && i.metadata.annotations?.['landscaper.gardener.cloud/operation'] === undefined,
    timeoutMs,
  ) as Promise<Installation>;
}

/** A normalised view of a namespace's landscape, for comparing two runs. */
export interface LandscapeState {
  installations: { name: string; phase?: string; jobDone: boolean; sameJobAsRoot: boolean }[];
  executions: { name: string; phase?: string; jobDone: boolean }[];
  deployItems: { name: string; phase?: string; jobDone: boolean }[];
  exports: Record<string, unknown>;
}

export async function landscapeState(client: KubeClient, ns: string, exportNames: string[]): Promise<LandscapeState> {
  const insts = (await client.list<Installation>(installationsResource, { namespace: ns })).items;
  const rootJob = insts.find((i) => i.metadata.labels?.['landscaper.gardener.cloud/encompassed-by'] === undefined)?.status?.jobID;
  const key = (o: KubeObject): string => o.metadata.annotations?.['landscaper.gardener.cloud/subinstallation-name'] ?? o.metadata.labels?.['execution.landscaper.gardener.cloud/name'] ?? o.metadata.name ?? '';
  const execs = (await client.list<Execution>(executionsResource, { namespace: ns })).items;
  const items = (await client.list<DeployItem>(deployItemsResource, { namespace: ns })).items;
  const exports: Record<string, unknown> = {};
  for (const n of exportNames) exports[n] = await getData(client, ns, n);
  const byName = <T extends { name: string }>(a: T, b: T): number => a.name.localeCompare(b.name);
  return {
    installations: insts.map((i) => ({ name: key(i), phase: i.status?.phase, jobDone: jobDone(i), sameJobAsRoot: i.status?.jobIDFinished === rootJob })).sort(byName),
    executions: execs.map((e) => ({ name: key(e).replace(/-[a-z0-9]{5,}$/, ''), phase: e.status?.phase, jobDone: jobDone(e) })).sort(byName),
    deployItems: items.map((d) => ({ name: key(d), phase: d.status?.phase, jobDone: jobDone(d) })).sort(byName),
    exports,
  };
}

export interface Landscape {
  server: TestServer;
  /** An unwrapped client for the test's own reads and writes. */
  client: KubeClient;
  mgr: Manager;
  close(): Promise<void>;
}

/** An embedded API server and a manager running the whole Landscaper family, its client optionally wrapped. */
export async function startLandscape(options: { landscaper?: LandscaperOptions; wrap?: (c: KubeClient) => KubeClient; maxBackoffMs?: number } = {}): Promise<Landscape> {
  const server = await startTestServer({ crds: loadBosunCrds(), onError: () => {} });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const inner = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgrClient = options.wrap ? options.wrap(inner) : inner;
  const mgr = new Manager({
    client: mgrClient,
    logger: pino({ enabled: process.env['FAULT_TEST_LOG'] !== undefined, level: 'debug' }),
    gracefulShutdownTimeoutMs: 2000,
    ...(options.maxBackoffMs !== undefined ? { controllerDefaults: { rateLimiter: () => defaultControllerRateLimiter({ maxDelayMs: options.maxBackoffMs! }) } } : {}),
  });
  registerLandscaper(mgr, options.landscaper);
  await mgr.start();
  return {
    server,
    client,
    mgr,
    async close() {
      await mgr.stop();
      await Promise.all([client.close(), inner.close()]);
      await server.close();
    },
  };
}

/** The failure tests' pickup timeout: a deploy item nobody picks up fails after 1.5 s. */
export const FAULT_PICKUP_MS = 1500;

/**
 * One landscape per test file with the failure tests' short timeouts, started before the file's tests and
 * closed after them (its fields read the running one); namespace() makes a fresh namespace for a test.
 */
export function useFaultLandscape(): Landscape & { namespace(prefix: string): Promise<string> } {
  let ls: Landscape | undefined;
  let counter = 0;
  before(async () => {
    ls = await startLandscape({
      landscaper: {
        deployItem: { pickupTimeout: FAULT_PICKUP_MS, recheckSlackMs: 50 },
        manifest: { unreachableGraceMs: 1000, targetRequestTimeoutMs: 1000, errorBackoff: { initialMs: 100, maxMs: 300 } },
        mock: { errorBackoff: { initialMs: 100, maxMs: 300 } },
      },
    });
  });
  after(async () => {
    await ls?.close();
  });
  const running = (): Landscape => {
    if (!ls) throw new Error('the landscape starts in a before hook');
    return ls;
  };
  return {
    get server() {
      return running().server;
    },
    get client() {
      return running().client;
    },
    get mgr() {
      return running().mgr;
    },
    close: () => running().close(),
    async namespace(prefix) {
      const ns = `${prefix}-${++counter}`;
      await createNamespace(running().client, ns);
      return ns;
    },
  };
}
