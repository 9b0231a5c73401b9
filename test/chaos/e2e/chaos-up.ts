// What the chaos family's end-to-end tests start from: `bosun up` (API server, controllers, node agent) with
// the chaos controller configured by an upstream-style config file (short delays), a client, kubectl, and
// helpers that create running target pods and wait on what upstream's e2e suite waits on.
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { eventsResource, podsResource } from '../../../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../../../src/apimachinery/object.ts';
import { CHAOS_API_VERSION, DISRUPTION_NAME_LABEL, DISRUPTION_NAMESPACE_LABEL, type InjectionStatus } from '../../../src/chaos/api/constants.ts';
import { disruptionsResource } from '../../../src/chaos/api/resources.ts';
import type { Disruption, DisruptionSpec } from '../../../src/chaos/api/types.ts';
import type { KubeClient } from '../../../src/client/client.ts';
import { createKubeClient } from '../../../src/client/create-client.ts';
import { NotFoundError } from '../../../src/client/errors.ts';
import { bin, exited, freePort, startReady } from '../../helpers/bosun-process.ts';
import { startBosunUp, type BosunUp } from '../../node/e2e/bosun-up.ts';

export const CHAOS_NAMESPACE = 'chaos-engineering';

export interface ChaosUp {
  up: BosunUp;
  client: KubeClient;
  close(): Promise<void>;
}

/** Upstream's controller config (chart/values.yaml `controller:`), as `bosun up --chaos-config` reads it. */
export const E2E_CHAOS_CONFIG = {
  controller: { finalizerDeletionDelay: '1s', expiredDisruptionGCDelay: '-1m', defaultDuration: '10m', deleteOnly: false, enableSafeguards: false, safeMode: { enable: false } },
};

export async function startChaosUp(config: object = E2E_CHAOS_CONFIG, flags: string[] = []): Promise<ChaosUp> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-chaos-config-'));
  const file = join(dir, 'chaos-config.yaml');
  writeFileSync(file, stringify(config));
  const up = await startBosunUp(['--chaos-config', file, ...flags]);
  const client = createKubeClient({ kubeconfigPath: join(up.dataDir, 'kubeconfig') });
  return {
    up,
    client,
    async close() {
      await client.close();
      await up.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ChaosUpApart extends ChaosUp {
  /** kill -9 of the chaos controllers' process (its webhooks go with it). */
  killControllers(): Promise<void>;
  /** The same `bosun controllers` command again, after killControllers. */
  startControllers(): Promise<void>;
}

/**
 * `bosun up` without the chaos family, and the chaos controllers and webhooks in a `bosun controllers` process of
 * their own (a fixed loopback webhook port, so a restart serves the same URL), so that a test can kill them alone.
 */
export async function startChaosUpApart(config: object = E2E_CHAOS_CONFIG): Promise<ChaosUpApart> {
  const dir = mkdtempSync(join(tmpdir(), 'bosun-chaos-config-'));
  const file = join(dir, 'chaos-config.yaml');
  writeFileSync(file, stringify(config));
  const up = await startBosunUp(['--controllers', 'workloads,landscaper,terrakojo']);
  const kubeconfig = join(up.dataDir, 'kubeconfig');
  const client = createKubeClient({ kubeconfigPath: kubeconfig });
  const webhookUrl = `https://127.0.0.1:${await freePort()}`;
  const command = [bin, 'controllers', '--kubeconfig', kubeconfig, '--controllers', 'chaos', '--chaos-config', file, '--metrics-port', '0', '--webhook-url', webhookUrl];
  let controllers: ChildProcess | undefined = await startReady(command, 'bosun controllers started');
  return {
    up,
    client,
    async killControllers() {
      assert.ok(controllers, 'the chaos controllers run');
      controllers.kill('SIGKILL');
      await exited(controllers);
      controllers = undefined;
    },
    async startControllers() {
      assert.equal(controllers, undefined, 'the chaos controllers were killed');
      controllers = await startReady(command, 'bosun controllers started');
    },
    async close() {
      if (controllers) {
        controllers.kill('SIGTERM');
        await exited(controllers);
      }
      await client.close();
      await up.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let namespaces = 0;

/** A fresh namespace per scenario, as upstream gives each Ginkgo process its own. */
export async function freshNamespace(c: ChaosUp, prefix = 'e2e'): Promise<string> {
  const name = `${prefix}-${process.pid}-${++namespaces}`;
  await c.up.ok(['create', 'namespace', name]);
  return name;
}

/** Upstream's uniquePod(): labels foo=bar, annotations foo=baz and fob=baf, containers ctn1 and ctn2 (pause). */
export function targetPod(namespace: string, options: { second?: boolean; labels?: Record<string, string>; annotations?: Record<string, string>; memoryLimit?: string } = {}): KubeObject {
  const container = (name: string): Record<string, unknown> => ({
    name,
    image: 'k8s.gcr.io/pause:3.4.1',
    ...(options.memoryLimit ? { resources: { limits: { memory: options.memoryLimit } } } : {}),
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      generateName: 'target-',
      namespace,
      labels: { foo: 'bar', ...(options.second ? { second: 'true' } : {}), ...options.labels },
      annotations: { foo: options.second ? 'qux' : 'baz', fob: 'baf', ...options.annotations },
    },
    spec: { terminationGracePeriodSeconds: 1, containers: options.second ? [container('ctn1')] : [container('ctn1'), container('ctn2')] },
  };
}

export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Creates a pod and waits until every container runs (upstream's CreateRunningPod). */
export async function createRunningPod(c: ChaosUp, pod: KubeObject): Promise<KubeObject> {
  const created = await c.client.create(podsResource, pod);
  const name = created.metadata.name ?? '';
  const namespace = created.metadata.namespace ?? '';
  return until(`pod ${namespace}/${name} running`, async () => {
    const p = await c.client.get(podsResource, name, { namespace });
    const status = (p['status'] ?? {}) as { phase?: string; containerStatuses?: { state?: Record<string, unknown> }[] };
    const running = status.phase === 'Running' && (status.containerStatuses ?? []).length > 0 && (status.containerStatuses ?? []).every((s) => s.state?.['running'] !== undefined);
    return running ? p : undefined;
  });
}

/** Deletes a pod and waits until it is gone (upstream's DeleteRunningPod). */
export async function deleteRunningPod(c: ChaosUp, pod: KubeObject): Promise<void> {
  const name = pod.metadata.name ?? '';
  const namespace = pod.metadata.namespace ?? '';
  await c.client.delete(podsResource, name, { namespace });
  await until(`pod ${namespace}/${name} gone`, async () => {
    try {
      await c.client.get(podsResource, name, { namespace });
      return undefined;
    } catch (err) {
      if (err instanceof NotFoundError) return true;
      throw err;
    }
  });
}

/** Upstream's default fixture: dry-run, count 1, container ctn1, network (host filter, delay, bandwidth) and cpu pressure, plus dns in place of grpc (not supported here). */
export function defaultSpec(): DisruptionSpec {
  return {
    dryRun: true,
    count: 1,
    unsafeMode: { disableAll: true },
    containers: ['ctn1'],
    network: { hosts: [{ host: '127.0.0.1', port: 80, protocol: 'tcp' }], drop: 0, corrupt: 0, delay: 1000, bandwidthLimit: 10000 },
    cpuPressure: {},
    dns: { records: [{ hostname: 'chaos.example', record: { type: 'A', value: '10.0.0.1' } }] },
  } as DisruptionSpec;
}

/** Creates the disruption; without a selector it selects the targets' foo=bar, as upstream's CreateDisruption does. */
export async function createDisruption(c: ChaosUp, namespace: string, spec: DisruptionSpec, name = 'dis'): Promise<Disruption> {
  const body: Disruption = { apiVersion: CHAOS_API_VERSION, kind: 'Disruption', metadata: { name, namespace }, spec: { selector: { foo: 'bar' }, ...spec } };
  return c.client.create(disruptionsResource, body);
}

export async function getDisruption(c: ChaosUp, namespace: string, name = 'dis'): Promise<Disruption | undefined> {
  try {
    return await c.client.get<Disruption>(disruptionsResource, name, { namespace });
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

export async function chaosPods(c: ChaosUp, namespace: string, name = 'dis'): Promise<KubeObject[]> {
  const list = await c.client.list(podsResource, { namespace: CHAOS_NAMESPACE, labelSelector: `${DISRUPTION_NAME_LABEL}=${name},${DISRUPTION_NAMESPACE_LABEL}=${namespace}` });
  return list.items;
}

function allRunning(pod: KubeObject): boolean {
  const statuses = (((pod['status'] ?? {}) as Record<string, unknown>)['containerStatuses'] ?? []) as { state?: Record<string, unknown> }[];
  return statuses.length > 0 && statuses.every((s) => s.state?.['running'] !== undefined);
}

/** Upstream's ExpectChaosPods: exactly `count` chaos pods, each with generateName, args, image and finalizer, all running. */
export async function expectChaosPods(c: ChaosUp, namespace: string, count: number, name = 'dis'): Promise<KubeObject[]> {
  return until(`${count} running chaos pods of ${namespace}/${name}`, async () => {
    const pods = await chaosPods(c, namespace, name);
    if (pods.length !== count) return undefined;
    for (const p of pods) {
      const container = ((p['spec'] as { containers: { args?: string[]; image?: string }[] }).containers)[0];
      assert.ok(p.metadata.generateName, 'generateName set');
      assert.ok((container?.args ?? []).length > 0, 'args set');
      assert.ok(container?.image, 'image set');
      assert.ok((p.metadata.finalizers ?? []).length > 0, 'finalizer set');
    }
    return pods.every(allRunning) ? pods : undefined;
  });
}

/** Upstream's ExpectChaosInjectors: the targeted containers summed over every chaos pod's --target-containers. */
export async function expectChaosInjectors(c: ChaosUp, namespace: string, count: number, name = 'dis'): Promise<void> {
  await until(`${count} targeted containers in ${namespace}/${name}'s chaos pods`, async () => {
    let injectors = 0;
    for (const p of await chaosPods(c, namespace, name)) {
      if (p.metadata.deletionTimestamp !== undefined) continue;
      const args = ((p['spec'] as { containers: { args?: string[] }[] }).containers)[0]?.args ?? [];
      const i = args.indexOf('--target-containers');
      if (i >= 0) injectors += (args[i + 1] ?? '').split(',').length;
    }
    return injectors === count ? true : undefined;
  });
}

/** Waits for one of the statuses, recording every status seen on the way (for sequence assertions). */
export async function expectStatus(c: ChaosUp, namespace: string, statuses: InjectionStatus[], seen?: InjectionStatus[], name = 'dis', timeoutMs?: number): Promise<Disruption> {
  return until(`disruption ${namespace}/${name} in ${statuses.join(' or ')}`, async () => {
    const d = await getDisruption(c, namespace, name);
    const status = d?.status?.injectionStatus ?? '';
    if (seen && seen[seen.length - 1] !== status) seen.push(status);
    return d && statuses.includes(status) ? d : undefined;
  }, timeoutMs);
}

/** desired/ignored/selected/injected, as upstream's ExpectDisruptionStatusCounts takes them. */
export async function expectCounts(c: ChaosUp, namespace: string, desired: number, ignored: number, selected: number, injected: number, name = 'dis'): Promise<void> {
  await until(`counts ${desired}/${ignored}/${selected}/${injected} of ${namespace}/${name}`, async () => {
    const s = (await getDisruption(c, namespace, name))?.status;
    return s && s.desiredTargetsCount === desired && s.ignoredTargetsCount === ignored && s.selectedTargetsCount === selected && s.injectedTargetsCount === injected ? true : undefined;
  });
}

export async function deleteDisruptionAndWait(c: ChaosUp, namespace: string, name = 'dis'): Promise<void> {
  await c.client.delete(disruptionsResource, name, { namespace });
  await until(`disruption ${namespace}/${name} gone`, async () => ((await getDisruption(c, namespace, name)) === undefined ? true : undefined));
}

/** Two targets as upstream's InjectPodsAndDisruption makes them (the second: one container, foo=qux, second=true). */
export async function twoTargets(c: ChaosUp, namespace: string, options: { skipSecond?: boolean } = {}): Promise<KubeObject[]> {
  const first = createRunningPod(c, targetPod(namespace));
  const second = options.skipSecond ? undefined : createRunningPod(c, targetPod(namespace, { second: true }));
  return [await first, ...(second ? [await second] : [])];
}

/** The pod's container cgroup for a v1 controller, as the host sees it: /sys/fs/cgroup/<controller>/<root>/pod<uid>/<container>. */
export function containerCgroup(controller: string, pod: KubeObject, container: string): string | undefined {
  const base = join('/sys/fs/cgroup', controller);
  for (const root of readdirSync(base, { withFileTypes: true })) {
    if (!root.isDirectory()) continue;
    const dir = join(base, root.name, `pod${pod.metadata.uid ?? ''}`, container);
    if (existsSync(dir)) return dir;
  }
  return undefined;
}

/** The CPU the container's cgroup used over `ms`, in CPUs (cpuacct.usage is nanoseconds). */
export async function cpuRate(pod: KubeObject, container: string, ms = 3000): Promise<number> {
  const dir = containerCgroup('cpuacct', pod, container);
  assert.ok(dir, `cpuacct cgroup of ${pod.metadata.name ?? ''}/${container}`);
  const usage = () => Number(readFileSync(join(dir, 'cpuacct.usage'), 'utf8'));
  const [u0, t0] = [usage(), process.hrtime.bigint()];
  await new Promise((resolve) => setTimeout(resolve, ms));
  const [u1, t1] = [usage(), process.hrtime.bigint()];
  return (u1 - u0) / Number(t1 - t0);
}

/** Runs a command in the pod's container (kubectl exec) and asserts it succeeded; resolves with stdout and stderr. */
export async function execIn(c: ChaosUp, pod: KubeObject, container: string, command: string[]): Promise<{ stdout: string; stderr: string }> {
  const result = await c.up.kubectl(['exec', '-n', pod.metadata.namespace ?? '', pod.metadata.name ?? '', '-c', container, '--', ...command]);
  assert.equal(result.code, 0, `exec ${command.join(' ')}: ${result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** The pod's container's restart count. */
export async function restartCount(c: ChaosUp, pod: KubeObject, container: string): Promise<number> {
  const p = await c.client.get(podsResource, pod.metadata.name ?? '', { namespace: pod.metadata.namespace ?? '' });
  const statuses = (((p['status'] ?? {}) as Record<string, unknown>)['containerStatuses'] ?? []) as { name: string; restartCount?: number }[];
  return statuses.find((s) => s.name === container)?.restartCount ?? 0;
}

export interface EventSummary {
  type?: string;
  reason?: string;
  message?: string;
  involvedObject?: { kind?: string; name?: string };
}

/** Events about one object of the namespace. */
export async function eventsFor(c: ChaosUp, namespace: string, kind: string, name: string): Promise<EventSummary[]> {
  const list = await c.client.list(eventsResource, { namespace });
  return (list.items as unknown as EventSummary[]).filter((e) => e.involvedObject?.kind === kind && e.involvedObject.name === name);
}

/** Waits for an event with that reason about the disruption; resolves with it. */
export async function expectDisruptionEvent(c: ChaosUp, namespace: string, reason: string, name = 'dis'): Promise<EventSummary> {
  return until(`event ${reason} on disruption ${namespace}/${name}`, async () => (await eventsFor(c, namespace, 'Disruption', name)).find((e) => e.reason === reason));
}

/** PIDs of host processes whose command line matches the pattern (pgrep -f); none: []. */
export function pgrep(pattern: string): Promise<number[]> {
  return new Promise((resolve, reject) =>
    execFile('pgrep', ['-f', pattern], (err, stdout) => {
      if (err && (err as { code?: unknown }).code !== 1) reject(err);
      else resolve(stdout.split('\n').filter(Boolean).map(Number));
    }),
  );
}

/**
 * A target whose container burns nothing, dies on SIGTERM (it traps it, as a process must in a container), and has
 * limits (256Mi by default: a CPU limit is also a request, and the node has few CPUs) and an emptyDir at /scratch: what the effect tests measure. `command` replaces
 * the trapping loop (e.g. `sleep infinity`, whose process list never changes).
 */
export function workloadPod(namespace: string, options: { limits?: Record<string, string>; labels?: Record<string, string>; command?: string[] } = {}): KubeObject {
  const command = options.command ?? ['sh', '-c', "trap 'exit 0' TERM; while true; do sleep 1; done"];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: 'workload-', namespace, labels: options.labels ?? { foo: 'bar' } },
    spec: {
      terminationGracePeriodSeconds: 1,
      containers: [{ name: 'ctn1', image: 'busybox', command, resources: { limits: options.limits ?? { memory: '256Mi' } }, volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
      volumes: [{ name: 'scratch', emptyDir: {} }],
    },
  };
}
