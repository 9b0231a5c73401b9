// `npm run bench:chaos`: one Disruption over 200 target pods on 4 simulated nodes (bench/hollow-nodes.ts: Node
// objects and a kubelet stand-in that runs no process), with the chaos family (controller and admission
// webhooks) on a manager against the embedded API server over HTTP, as `bosun up` runs it.
// Measured per run: the time from creating the Disruption (count 100%, cpu pressure) until its status is
// Injected (200 chaos pods created, pinned, running and ready), and from deleting it until it is gone (every
// chaos pod deleted, its injector's finalizer dropped, cleanedAt, the disruption's finalizer removed). The
// finalizer deletion delay (upstream: 20 s, to let the last events out) is 0 here: it is a fixed wait, not work.
// The ceiling, in the same run on the same nodes: 200 bare pods created at once until all Running, then deleted
// at once until all gone; and, as the floor of deleting chaos pods, 200 pods carrying the chaos pod finalizer
// deleted at once. Upstream requeues every 15–20 s; target: within 2× the ceiling.
// Env: BENCH_REPEAT (default 3; medians reported), BENCH_TARGETS (default 200), BENCH_NODES (default 4).
import { pino } from 'pino';
import { namespacesResource, podsResource } from '../src/apimachinery/builtin-resources.ts';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import { CHAOS_API_VERSION, CHAOS_POD_FINALIZER } from '../src/chaos/api/constants.ts';
import { disruptionsResource } from '../src/chaos/api/resources.ts';
import type { Disruption } from '../src/chaos/api/types.ts';
import { chaosConfig } from '../src/chaos/config.ts';
import { chaosFamilyWith } from '../src/chaos/family.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { loadBosunCrds } from '../src/crds/index.ts';
import { Informer } from '../src/runtime/informer/informer.ts';
import { Manager } from '../src/runtime/manager.ts';
import { AdmissionWebhooks, WebhookServer } from '../src/runtime/webhook/index.ts';
import { HollowNodes } from './hollow-nodes.ts';

const REPEAT = Number(process.env['BENCH_REPEAT'] ?? 3);
const TARGETS = Number(process.env['BENCH_TARGETS'] ?? 200);
const NODES = Number(process.env['BENCH_NODES'] ?? 4);
const TIMEOUT_MS = 300_000;
const TARGET_RATIO = 2;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);

/** Resolves when the predicate over the informer's objects holds (checked on every event). */
function until<T extends KubeObject>(informer: Informer<T>, what: string, predicate: (objects: T[]) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let remove = (): void => {};
    let settled = false;
    const timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), TIMEOUT_MS);
    const check = (): void => {
      if (settled || !predicate(informer.list())) return;
      settled = true;
      clearTimeout(timer);
      remove();
      resolve();
    };
    remove = informer.addEventHandler({ onAdd: check, onUpdate: check, onDelete: check });
    check();
  });
}

const running = (p: KubeObject): boolean => (p['status'] as { phase?: string } | undefined)?.phase === 'Running';

function targetPod(namespace: string, i: number, nodes: readonly string[]): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `target-${String(i).padStart(3, '0')}`, namespace, labels: { app: 'bench' } },
    spec: { nodeName: nodes[i % nodes.length], containers: [{ name: 'app', image: 'k8s.gcr.io/pause:3.4.1' }] },
  };
}

async function main(): Promise<void> {
  const server = await startApiServer({ inMemory: true, port: 0, crds: loadBosunCrds(), onError: () => {} });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  // As `bosun up`: the controllers reach the server in their own process over its loopback HTTP port.
  const mgrClient = createKubeClient({ kubeconfig: server.inProcessKubeconfig });
  const quiet = pino({ enabled: false });
  const mgr = new Manager({ client: mgrClient, logger: pino({ enabled: process.env['BENCH_LOG'] !== undefined, level: 'info' }), gracefulShutdownTimeoutMs: 5000 });
  const webhooks = new AdmissionWebhooks({ client: mgrClient, server: new WebhookServer({ host: '127.0.0.1', port: 0, logger: quiet }), prune: 'all', logger: quiet });
  // The family creates the chaos namespace at start.
  const config = chaosConfig({ finalizerDeletionDelayMs: 0, safemode: { enable: false } });
  chaosFamilyWith(config).register(mgr, { webhooks });
  mgr.add(webhooks);
  await mgr.start();
  const nodes = new HollowNodes(client, Array.from({ length: NODES }, (_, i) => `hollow-${i}`));
  await nodes.start();
  const pods = new Informer<KubeObject>({ client, resource: podsResource, onError: () => {} });
  const disruptions = new Informer<Disruption>({ client, resource: disruptionsResource, onError: () => {} });
  pods.start();
  disruptions.start();
  await Promise.all([pods.waitForSync(), disruptions.waitForSync()]);

  const ceilingUp: number[] = [];
  const ceilingDown: number[] = [];
  const injected: number[] = [];
  const gone: number[] = [];
  const podsGone: number[] = [];
  const heldDown: number[] = [];
  for (let run = 0; run < REPEAT; run++) {
    // The ceiling: bare pods, created and deleted at once.
    const bare = `bare-${run}`;
    await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: bare } });
    let t0 = performance.now();
    await Promise.all(Array.from({ length: TARGETS }, (_, i) => client.create(podsResource, targetPod(bare, i, nodes.names))));
    await until(pods, `${TARGETS} bare pods running`, (all) => all.filter((p) => p.metadata.namespace === bare && running(p)).length === TARGETS);
    ceilingUp.push(performance.now() - t0);
    t0 = performance.now();
    await Promise.all(Array.from({ length: TARGETS }, (_, i) => client.delete(podsResource, `target-${String(i).padStart(3, '0')}`, { namespace: bare })));
    await until(pods, `${TARGETS} bare pods gone`, (all) => !all.some((p) => p.metadata.namespace === bare));
    ceilingDown.push(performance.now() - t0);
    // The same pods carrying the chaos pod finalizer, which their "injector" (the simulated node) drops as it goes:
    // the least work deleting chaos pods can take, one write more per pod than a bare delete.
    const held = `held-${run}`;
    await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: held } });
    const withFinalizer = (i: number): KubeObject => {
      const pod = targetPod(held, i, nodes.names);
      return { ...pod, metadata: { ...pod.metadata, finalizers: [CHAOS_POD_FINALIZER] } };
    };
    await Promise.all(Array.from({ length: TARGETS }, (_, i) => client.create(podsResource, withFinalizer(i))));
    await until(pods, `${TARGETS} held pods running`, (all) => all.filter((p) => p.metadata.namespace === held && running(p)).length === TARGETS);
    t0 = performance.now();
    await Promise.all(Array.from({ length: TARGETS }, (_, i) => client.delete(podsResource, `target-${String(i).padStart(3, '0')}`, { namespace: held })));
    await until(pods, `${TARGETS} held pods gone`, (all) => !all.some((p) => p.metadata.namespace === held));
    heldDown.push(performance.now() - t0);

    // The disruption over as many running targets.
    const ns = `chaos-${run}`;
    await client.create(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await Promise.all(Array.from({ length: TARGETS }, (_, i) => client.create(podsResource, targetPod(ns, i, nodes.names))));
    await until(pods, `${TARGETS} targets running`, (all) => all.filter((p) => p.metadata.namespace === ns && running(p)).length === TARGETS);
    const disruption: Disruption = {
      apiVersion: CHAOS_API_VERSION,
      kind: 'Disruption',
      metadata: { name: 'bench', namespace: ns },
      spec: { count: '100%', selector: { app: 'bench' }, duration: '30m', cpuPressure: { count: '50%' } },
    };
    t0 = performance.now();
    await client.create(disruptionsResource, disruption);
    await until(disruptions, 'Injected', (all) => all.some((d) => d.metadata.namespace === ns && d.status?.injectionStatus === 'Injected'));
    injected.push(performance.now() - t0);
    t0 = performance.now();
    await client.delete(disruptionsResource, 'bench', { namespace: ns });
    await until(pods, 'the chaos pods gone', (all) => !all.some((p) => p.metadata.namespace === config.chaosNamespace));
    podsGone.push(performance.now() - t0);
    await until(disruptions, 'the disruption gone', (all) => !all.some((d) => d.metadata.namespace === ns));
    gone.push(performance.now() - t0);
    console.log(
      `run ${run + 1}: ceiling create→running ${fmt(ceilingUp[run]!)}, delete→gone ${fmt(ceilingDown[run]!)} (with the finalizer ${fmt(heldDown[run]!)}); disruption create→Injected ${fmt(injected[run]!)}, delete→chaos pods gone ${fmt(podsGone[run]!)}, →disruption gone ${fmt(gone[run]!)}`,
    );
    await client.delete(namespacesResource, ns);
  }
  const up = median(injected) / median(ceilingUp);
  const down = median(gone) / median(ceilingDown);
  console.log(`\n${TARGETS} targets on ${NODES} simulated nodes, medians of ${REPEAT} runs:`);
  console.log(`  create → Injected: ${fmt(median(injected))}  vs ceiling (${TARGETS} bare pods created → Running) ${fmt(median(ceilingUp))}: ${up.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${up <= TARGET_RATIO ? 'OK' : 'ABOVE TARGET'}`);
  console.log(`  delete → gone:     ${fmt(median(gone))}  vs ceiling (${TARGETS} bare pods deleted → gone) ${fmt(median(ceilingDown))}: ${down.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${down <= TARGET_RATIO ? 'OK' : 'ABOVE TARGET'}`);
  console.log(`                     vs ${TARGETS} pods with the chaos pod finalizer deleted → gone ${fmt(median(heldDown))}: ${(median(gone) / median(heldDown)).toFixed(2)}×`);
  console.log(`  upstream requeues every 15–20 s while a disruption is not fully injected or its pods remain`);
  await pods.stop();
  await disruptions.stop();
  await nodes.stop();
  await mgr.stop();
  await client.close();
  await mgrClient.close();
  await server.close();
}

await main();
