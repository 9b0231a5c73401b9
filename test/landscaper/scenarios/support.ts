// Shared setup of the Landscaper scenario tests: one embedded API server per file with Bosun's CRDs, the REAL
// controller family (`registerLandscaper`) on a manager talking to it over HTTP, as `bosun up` runs it, and a
// recorder of deploy item triggers and deletions taken from a watch on DeployItems.
import { after, before } from 'node:test';
import { pino } from 'pino';
import { stringify } from 'yaml';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import type { KubeClient, ResourceRef } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { loadBosunCrds } from '../../../src/crds/index.ts';
import { EXECUTION_MANAGED_BY_LABEL, EXECUTION_MANAGED_NAME_LABEL, LANDSCAPER_API_VERSION, OPERATION_ANNOTATION } from '../../../src/landscaper/api/constants.ts';
import type { DataObject } from '../../../src/landscaper/api/data-object.ts';
import type { DeployItem } from '../../../src/landscaper/api/deploy-item.ts';
import type { Execution } from '../../../src/landscaper/api/execution.ts';
import type { Installation } from '../../../src/landscaper/api/installation.ts';
import type { Target } from '../../../src/landscaper/api/target.ts';
import { registerLandscaper } from '../../../src/landscaper/family.ts';
import { Manager } from '../../../src/runtime/manager.ts';
import { startTestServer, type TestServer } from '../../helpers/api-server.ts';

const ls = (resource: string, kind: string): ResourceRef => ({ group: 'landscaper.gardener.cloud', version: 'v1alpha1', resource, namespaced: true, kind });
export const R = {
  installations: ls('installations', 'Installation'),
  executions: ls('executions', 'Execution'),
  deployItems: ls('deployitems', 'DeployItem'),
  dataObjects: ls('dataobjects', 'DataObject'),
  targets: ls('targets', 'Target'),
  contexts: ls('contexts', 'Context'),
  secrets: { group: '', version: 'v1', resource: 'secrets', namespaced: true, kind: 'Secret' } satisfies ResourceRef,
  configMaps: { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' } satisfies ResourceRef,
  namespaces: { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' } satisfies ResourceRef,
};

export const OP = OPERATION_ANNOTATION;
export const RECONCILE = { [OPERATION_ANNOTATION]: 'reconcile' };
export const MOCK = 'landscaper.gardener.cloud/mock';
export const MANIFEST = 'landscaper.gardener.cloud/kubernetes-manifest';

/**
 * One recorded deploy item event, in the order the watch delivered it: a trigger is a change of status.jobID to a job
 * the item has not finished yet; a delete is the DELETED event.
 */
export interface DiEvent {
  type: 'trigger' | 'delete';
  namespace: string;
  /** Managing execution (label managed-by). */
  execution: string;
  /** Template name inside the execution (label execution.landscaper.gardener.cloud/name). */
  item: string;
  /** The job ID the item got (trigger) or last had (delete). */
  jobID: string;
  /** Whether the item was being deleted when triggered. */
  deleting: boolean;
}

export class DiRecorder {
  readonly events: DiEvent[] = [];
  private readonly lastJob = new Map<string, string>();

  observe(type: string, di: DeployItem): void {
    const uid = di.metadata.uid ?? `${di.metadata.namespace}/${di.metadata.name}`;
    const base = {
      namespace: di.metadata.namespace ?? '',
      execution: di.metadata.labels?.[EXECUTION_MANAGED_BY_LABEL] ?? '',
      item: di.metadata.labels?.[EXECUTION_MANAGED_NAME_LABEL] ?? di.metadata.name ?? '',
      deleting: di.metadata.deletionTimestamp !== undefined,
    };
    const jobID = di.status?.jobID ?? '';
    if (type === 'DELETED') {
      this.events.push({ type: 'delete', jobID, ...base });
      this.lastJob.delete(uid);
      return;
    }
    // A trigger hands an unfinished job to the deployer; an interrupt sets jobID and jobIDFinished together (no trigger).
    if (jobID !== '' && this.lastJob.get(uid) !== jobID && di.status?.jobIDFinished !== jobID) this.events.push({ type: 'trigger', jobID, ...base });
    this.lastJob.set(uid, jobID);
  }

  /** Events of one namespace, as "trigger:<item>" / "delete:<item>" (optionally only those since `from`). */
  of(namespace: string, from = 0, type?: DiEvent['type']): string[] {
    return this.events.slice(from).filter((e) => e.namespace === namespace && (type === undefined || e.type === type)).map((e) => `${e.type}:${e.item}`);
  }

  raw(namespace: string, from = 0): DiEvent[] {
    return this.events.slice(from).filter((e) => e.namespace === namespace);
  }

  mark(): number {
    return this.events.length;
  }
}

export interface Env {
  server: TestServer;
  /** The test's own client (not the manager's). */
  client: KubeClient;
  mgr: Manager;
  recorder: DiRecorder;
  /** Creates a namespace with a unique name derived from `prefix`. */
  namespace(prefix: string): Promise<string>;
  close(): Promise<void>;
}

let nsCounter = 0;

/** The usual per-test budget of a scenario. */
export const T = { timeout: 30_000 };

/** One environment for the tests of a file: started before them, closed after. */
export function withEnv(set: (env: Env) => void): void {
  let env: Env | undefined;
  before(async () => {
    env = await startEnv();
    set(env);
  });
  after(async () => {
    await env?.close();
  });
}

/** Starts the server, the DeployItem watch, and a manager with registerLandscaper and /metrics (as `bosun up` does). */
export async function startEnv(): Promise<Env> {
  const server = await startTestServer({ crds: loadBosunCrds() });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  const watchClient = createKubeClient({ kubeconfig: server.kubeconfig });
  const mgrClient = createKubeClient({ kubeconfig: server.kubeconfig });
  const recorder = new DiRecorder();
  const stream = await watchClient.watch<DeployItem>(R.deployItems, {});
  const pump = (async () => {
    try {
      for await (const ev of stream) recorder.observe(ev.type, ev.object);
    } catch {
      // closed at the end
    }
  })();
  const logger = pino({ enabled: process.env['SCENARIO_LOG'] !== undefined, level: process.env['SCENARIO_LOG'] ?? 'info' });
  const mgr = new Manager({ client: mgrClient, logger, gracefulShutdownTimeoutMs: 2000, metricsServer: { port: 0 } });
  registerLandscaper(mgr);
  await mgr.start();
  return {
    server,
    client,
    mgr,
    recorder,
    async namespace(prefix) {
      const name = `${prefix}-${++nsCounter}`;
      await client.create(R.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      return name;
    },
    async close() {
      await mgr.stop();
      stream.close();
      await pump;
      await Promise.all([client.close(), watchClient.close(), mgrClient.close()]);
      await server.close();
    },
  };
}

// --- reads -------------------------------------------------------------------------------------------

export async function getOrUndefined<T extends KubeObject>(client: KubeClient, r: ResourceRef, ns: string, name: string): Promise<T | undefined> {
  try {
    return await client.get<T>(r, name, { namespace: ns });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export const getInst = (env: Env, ns: string, name: string): Promise<Installation | undefined> => getOrUndefined<Installation>(env.client, R.installations, ns, name);
export const getExec = (env: Env, ns: string, name: string): Promise<Execution | undefined> => getOrUndefined<Execution>(env.client, R.executions, ns, name);

export async function dataOf(env: Env, ns: string, name: string): Promise<unknown> {
  return (await getOrUndefined<DataObject>(env.client, R.dataObjects, ns, name))?.data;
}

export async function targetOf(env: Env, ns: string, name: string): Promise<Target | undefined> {
  return getOrUndefined<Target>(env.client, R.targets, ns, name);
}

export async function listDeployItems(env: Env, ns: string): Promise<DeployItem[]> {
  return (await env.client.list<DeployItem>(R.deployItems, { namespace: ns })).items;
}

export async function subinstallationsOf(env: Env, ns: string, parent: string): Promise<Installation[]> {
  return (await env.client.list<Installation>(R.installations, { namespace: ns, labelSelector: `landscaper.gardener.cloud/encompassed-by=${parent}` })).items;
}

/** The subinstallation created from the template `specName` of `parent`. */
export async function subOf(env: Env, ns: string, parent: string, specName: string): Promise<Installation> {
  const subs = await subinstallationsOf(env, ns, parent);
  const sub = subs.find((s) => s.metadata.annotations?.['landscaper.gardener.cloud/subinstallation-name'] === specName);
  if (sub === undefined) throw new Error(`no subinstallation ${specName} of ${ns}/${parent}; have ${subs.map((s) => s.metadata.name).join(', ')}`);
  return sub;
}

// --- waiting -----------------------------------------------------------------------------------------

const brief = (v: unknown): string =>
  JSON.stringify(v, (k, x: unknown) => (k === 'managedFields' || k === 'blueprint' || k === 'deployItemsCompressed' ? undefined : x))?.slice(0, 2500) ?? 'undefined';

/** Polls until cond(probe()) holds; the failure message shows the last probed state. */
export async function until<T>(what: string, probe: () => Promise<T>, cond: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last = await probe();
  while (!cond(last)) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last state: ${brief(last)}`);
    await new Promise((r) => setTimeout(r, 25));
    last = await probe();
  }
  return last;
}

export const finished = (i: { status?: { jobID?: string; jobIDFinished?: string } } | undefined): boolean =>
  i?.status?.jobID !== undefined && i.status.jobID !== '' && i.status.jobID === i.status.jobIDFinished;

/** Waits until the installation finished a job other than `notJob` (and has no reconcile annotation left). */
export async function untilFinished(env: Env, ns: string, name: string, opts: { notJob?: string; timeoutMs?: number } = {}): Promise<Installation> {
  const inst = await until(
    `installation ${ns}/${name} to finish a job${opts.notJob ? ` other than ${opts.notJob}` : ''}`,
    () => getInst(env, ns, name),
    (i) => finished(i) && i!.status!.jobID !== opts.notJob && i!.metadata.annotations?.[OP] === undefined,
    opts.timeoutMs,
  );
  return inst!;
}

export async function untilPhase(env: Env, ns: string, name: string, phase: string, timeoutMs?: number): Promise<Installation> {
  return (await until(`installation ${ns}/${name} in phase ${phase}`, () => getInst(env, ns, name), (i) => i?.status?.phase === phase, timeoutMs))!;
}

export async function untilGone(env: Env, r: ResourceRef, ns: string, name: string, timeoutMs?: number): Promise<void> {
  await until(`${r.kind} ${ns}/${name} to be gone`, () => getOrUndefined(env.client, r, ns, name), (x) => x === undefined, timeoutMs);
}

/** Asserts that the condition keeps holding for `ms` (for "nothing happens" checks). */
export async function stays<T>(what: string, probe: () => Promise<T>, cond: (v: T) => boolean, ms = 400): Promise<T> {
  const end = Date.now() + ms;
  let last = await probe();
  for (;;) {
    if (!cond(last)) throw new Error(`expected ${what} to hold, but got: ${brief(last)}`);
    if (Date.now() > end) return last;
    await new Promise((r) => setTimeout(r, 50));
    last = await probe();
  }
}


// --- writes ------------------------------------------------------------------------------------------

export async function annotate(env: Env, r: ResourceRef, ns: string, name: string, annotations: Record<string, string | null>): Promise<void> {
  await env.client.patch(r, name, { metadata: { annotations } }, { type: 'merge', namespace: ns });
}

export async function createData(env: Env, ns: string, name: string, data: unknown): Promise<void> {
  await env.client.create(R.dataObjects, { apiVersion: LANDSCAPER_API_VERSION, kind: 'DataObject', metadata: { name, namespace: ns }, data });
}

export async function setData(env: Env, ns: string, name: string, data: unknown): Promise<void> {
  await env.client.patch(R.dataObjects, name, { data }, { type: 'merge', namespace: ns });
}

export async function createTarget(env: Env, ns: string, name: string, config: unknown, type = 'landscaper.gardener.cloud/kubernetes-cluster'): Promise<void> {
  await env.client.create(R.targets, { apiVersion: LANDSCAPER_API_VERSION, kind: 'Target', metadata: { name, namespace: ns }, spec: { type, config } });
}

// --- blueprints and installations --------------------------------------------------------------------

export type Yamlish = Record<string, unknown>;

/** A blueprint.yaml text. */
export function blueprint(bp: Yamlish): string {
  return stringify({ apiVersion: LANDSCAPER_API_VERSION, kind: 'Blueprint', jsonSchema: 'https://json-schema.org/draft/2019-09/schema', ...bp });
}

/** A root installation with an inline blueprint. */
export function installation(name: string, ns: string, bp: string, spec: Partial<Installation['spec']> = {}, annotations: Record<string, string> = RECONCILE): Installation {
  return {
    apiVersion: LANDSCAPER_API_VERSION,
    kind: 'Installation',
    metadata: { name, namespace: ns, annotations },
    spec: { ...spec, blueprint: { inline: { filesystem: { 'blueprint.yaml': bp } } } },
  };
}

export async function createInst(env: Env, inst: Installation): Promise<Installation> {
  return env.client.create<Installation>(R.installations, inst);
}

/** A mock deploy item spec as a YAML list entry of a GoTemplate deploy execution. */
export interface MockItem {
  name: string;
  dependsOn?: string[];
  /** Raw YAML (already templated) for the mock's `export` field. */
  exportYaml?: string;
  phase?: string;
  initialPhase?: string;
}

/** The template of a deploy execution rendering the given mock items. */
export function mockDeployTemplate(items: MockItem[]): string {
  const out: string[] = ['deployItems:'];
  for (const it of items) {
    out.push(`  - name: ${it.name}`, `    type: ${MOCK}`);
    if (it.dependsOn && it.dependsOn.length > 0) out.push(`    dependsOn: [${it.dependsOn.join(', ')}]`);
    out.push('    config:', '      apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1', '      kind: ProviderConfiguration');
    if (it.phase) out.push(`      phase: ${it.phase}`);
    if (it.initialPhase) out.push(`      initialPhase: ${it.initialPhase}`);
    if (it.exportYaml !== undefined) {
      out.push('      export:');
      for (const line of it.exportYaml.split('\n')) if (line !== '') out.push(`        ${line}`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** A deploy execution entry (GoTemplate) for a blueprint. */
export const deployExecution = (template: string, name = 'default'): Yamlish => ({ name, type: 'GoTemplate', template });
export const exportExecution = (template: string, name = 'default'): Yamlish => ({ name, type: 'GoTemplate', template });

/** Ordering check: every `before` event happens before every `after` event in `events`. */
export function assertBefore(events: readonly string[], before: string, after: string): void {
  const a = events.indexOf(before);
  const b = events.indexOf(after);
  if (a < 0 || b < 0 || a > b) throw new Error(`expected ${before} before ${after} in [${events.join(', ')}]`);
}
