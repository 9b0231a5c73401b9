// `npm run bench:landscaper`: the whole Landscaper family (installation, execution, deploy item and mock
// deployer controllers on one manager) against the embedded API server over HTTP.
// (a) One installation whose execution has 1,000 mock deploy items in 10 layers of 100, each item depending
//     on every item of the layer before: the time from setting the reconcile annotation to Succeeded, the
//     API requests per deploy item (counted server-side), and the critical-path bound (10 × the minimal
//     sequential write latency measured in the same run).
// (b) 1,000 root installations with 3 mock deploy items each in one namespace, then 200 more: the time for
//     the 200 to reach Succeeded.
// As `bosun up` runs it, the validating webhook is served and every spec write of an Installation, Execution
// or DeployItem passes through it, called in process (BENCH_WEBHOOK=https calls it over HTTPS, BENCH_WEBHOOK=0
// turns it off, to measure its cost).
// Targets (issue 26): (a) < 3 s and ≤ 4.1 requests per deploy item, Events counted apart; (b) the first 1,000
// in < 20 s and the 200 after them in < 5 s. Env: BENCH_PART=a|b|ab (default ab),
// BENCH_REPEAT (runs of (a), default 3; the median is reported), BENCH_LAYERS / BENCH_WIDTH, BENCH_ROOTS /
// BENCH_MORE for smaller runs.
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { stringify } from 'yaml';
import type { KubeObject } from '../src/apimachinery/object.ts';
import type { RequestLogEntry } from '../src/apiserver/router.ts';
import { startApiServer } from '../src/apiserver/index.ts';
import type { KubeClient, ResourceRef } from '../src/client/client.ts';
import { createKubeClient } from '../src/client/create-client.ts';
import { loadBosunCrds } from '../src/crds/index.ts';
import type { Installation } from '../src/landscaper/api/installation.ts';
import { registerLandscaper } from '../src/landscaper/family.ts';
import { installationsResource } from '../src/landscaper/api/resources.ts';
import { Manager } from '../src/runtime/manager.ts';
import { Informer } from '../src/runtime/informer/informer.ts';
import { AdmissionWebhooks, WebhookServer } from '../src/runtime/webhook/index.ts';

const PART = process.env['BENCH_PART'] ?? 'ab';
const REPEAT = Number(process.env['BENCH_REPEAT'] ?? 3);
const LAYERS = Number(process.env['BENCH_LAYERS'] ?? 10);
const WIDTH = Number(process.env['BENCH_WIDTH'] ?? 100);
const ROOTS = Number(process.env['BENCH_ROOTS'] ?? 1000);
const MORE = Number(process.env['BENCH_MORE'] ?? 200);
const WEBHOOK = process.env['BENCH_WEBHOOK'] !== '0';
const TARGET_A_MS = 3_000;
const TARGET_A_REQ = 4.1;
const TARGET_B_FIRST_MS = 20_000;
const TARGET_B_MS = 5_000;

const namespaces: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', namespaced: false, kind: 'Namespace' };
const configMaps: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', namespaced: true, kind: 'ConfigMap' };
const OP = 'landscaper.gardener.cloud/operation';
const MOCK_CONFIG = '      apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1\n      kind: ProviderConfiguration';

/** The layered DAG as a Go template loop, so the blueprint stays small while the execution is large. */
function layeredBlueprint(layers: number, width: number): string {
  const template = [
    'deployItems:',
    `{{- range $l := until ${layers} }}`,
    `{{- range $i := until ${width} }}`,
    '  - name: l{{ $l }}-i{{ $i }}',
    '    type: landscaper.gardener.cloud/mock',
    '    {{- if gt $l 0 }}',
    '    dependsOn:',
    `    {{- range $p := until ${width} }}`,
    '      - l{{ sub $l 1 }}-i{{ $p }}',
    '    {{- end }}',
    '    {{- end }}',
    '    config:',
    MOCK_CONFIG,
    '{{- end }}',
    '{{- end }}',
    '',
  ].join('\n');
  return stringify({ apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Blueprint', deployExecutions: [{ name: 'dag', type: 'GoTemplate', template }] });
}

const threeItems = stringify({
  apiVersion: 'landscaper.gardener.cloud/v1alpha1',
  kind: 'Blueprint',
  deployExecutions: [{ name: 'd', type: 'GoTemplate', template: ['deployItems:', ...['a', 'b', 'c'].flatMap((n) => [`  - name: ${n}`, '    type: landscaper.gardener.cloud/mock', '    config:', MOCK_CONFIG]), ''].join('\n') }],
});

function installation(name: string, ns: string, blueprint: string, annotate: boolean): Installation {
  return {
    apiVersion: 'landscaper.gardener.cloud/v1alpha1',
    kind: 'Installation',
    metadata: { name, namespace: ns, ...(annotate ? { annotations: { [OP]: 'reconcile' } } : {}) },
    spec: { blueprint: { inline: { filesystem: { 'blueprint.yaml': blueprint } } } },
  };
}

const done = (i: Installation | undefined): boolean =>
  i?.status?.phase === 'Succeeded' && !!i.status.jobID && i.status.jobID === i.status.jobIDFinished && i.metadata.annotations?.[OP] === undefined;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const isEvent = (r: RequestLogEntry): boolean => /\/events(\/|\?|$)/.test(r.url);
/** The requests counted per verb and resource (e.g. `PUT deployitems/{name}/status=3000`), most frequent first. */
function byVerb(entries: RequestLogEntry[]): string {
  const counts = new Map<string, number>();
  for (const r of entries) {
    const kind = r.url.replace(/\?.*$/, '').replace(/^\/apis?\/(?:[^/]+\/)?[^/]+\/namespaces\/[^/]+\//, '').replace(/\/[^/]+(\/status)?$/, (_, s: string | undefined) => (s ? '/*/status' : '/*'));
    const k = `${r.method} ${kind}`;
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts.entries()].sort((x, y) => y[1] - x[1]).slice(0, 14).map(([k, v]) => `${k}=${v}`).join(', ');
}
/**
 * The main thread's CPU time and its wait for a CPU (ms, Linux's schedstat; zeros elsewhere): on a shared machine
 * wall time is about their sum, so the wait tells the machine's load from the bench's own time.
 */
function mainThreadSched(): { cpu: number; wait: number } {
  try {
    const [cpu = 0, wait = 0] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ').map(Number);
    return { cpu: cpu / 1e6, wait: wait / 1e6 };
  } catch {
    return { cpu: 0, wait: 0 };
  }
}
const schedSince = (s0: { cpu: number; wait: number }): string => {
  const s1 = mainThreadSched();
  return `main thread CPU ${fmt(s1.cpu - s0.cpu)}, waiting for a CPU ${fmt(s1.wait - s0.wait)}`;
};
const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);

/** Resolves when `pred` holds for the watched installations; checked on every event. */
function waitFor(informer: Informer<Installation>, pred: () => boolean, timeoutMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (pred()) {
        cleanup();
        resolve();
      }
    };
    const handler = { onAdd: check, onUpdate: check, onDelete: check };
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`timed out after ${timeoutMs} ms: ${what}`));
    }, timeoutMs);
    const interval = setInterval(check, 200);
    let remove = (): void => {};
    const cleanup = (): void => {
      clearTimeout(timer);
      clearInterval(interval);
      remove();
    };
    remove = informer.addEventHandler(handler);
    check();
  });
}

/** Minimal and median latency of sequential ConfigMap updates: the cost of one write on the critical path. */
async function writeLatency(client: KubeClient, ns: string, samples = 100): Promise<{ min: number; median: number }> {
  let cm = await client.create<KubeObject>(configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'latency', namespace: ns }, data: { n: '0' } });
  const times: number[] = [];
  for (let i = 1; i <= samples; i++) {
    const t = performance.now();
    cm = await client.update<KubeObject>(configMaps, { ...cm, data: { n: String(i) } } as KubeObject);
    times.push(performance.now() - t);
  }
  return { min: Math.min(...times), median: median(times) };
}

async function main(): Promise<void> {
  const requests: RequestLogEntry[] = [];
  let counting = false;
  const server = await startApiServer({ inMemory: true, port: 0, crds: loadBosunCrds(), onError: () => {}, onRequest: (e) => counting && requests.push(e) });
  const client = createKubeClient({ kubeconfig: server.kubeconfig });
  // As `bosun up`: the controllers reach the server in their own process over its loopback HTTP port.
  const mgrClient = createKubeClient({ kubeconfig: server.inProcessKubeconfig });
  const mgr = new Manager({ client: mgrClient, logger: pino({ enabled: process.env['BENCH_LOG'] !== undefined, level: 'info' }), gracefulShutdownTimeoutMs: 5000 });
  const quiet = pino({ enabled: false });
  const webhooks = WEBHOOK ? new AdmissionWebhooks({ client: mgrClient, server: new WebhookServer({ host: '127.0.0.1', port: 0, logger: quiet }), prune: 'all', logger: quiet }) : undefined;
  // As `bosun up`: the API server in this process calls the webhooks in process (BENCH_WEBHOOK=https: over HTTPS).
  if (webhooks && process.env['BENCH_WEBHOOK'] !== 'https') server.callWebhooksInProcess((url, body) => webhooks.server.answerInProcess(url, body));
  registerLandscaper(mgr, webhooks ? { webhooks } : {});
  if (webhooks) mgr.add(webhooks);
  await mgr.start();
  const watcher = new Informer<Installation>({ client, resource: installationsResource });
  watcher.start();
  await watcher.waitForSync();
  const results: string[] = [];
  console.log(`Landscaper benchmark (node ${process.version}, ${process.platform}/${process.arch}; validating webhook ${WEBHOOK ? 'on' : 'off'})`);

  try {
    if (PART.includes('a')) {
      const totals: number[] = [];
      const cpus: number[] = [];
      const perItem: number[] = [];
      const bounds: number[] = [];
      const items = LAYERS * WIDTH;
      const blueprint = layeredBlueprint(LAYERS, WIDTH);
      for (let run = 1; run <= REPEAT; run++) {
        const ns = `dag-${run}`;
        await client.create(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
        const lat = await writeLatency(client, ns);
        await client.create(installationsResource, installation('dag', ns, blueprint, false));
        await new Promise((r) => setTimeout(r, 300)); // let the finalizer and default Context settle
        const key = `${ns}/dag`;
        counting = true;
        const mark = requests.length;
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        await client.patch(installationsResource, 'dag', { metadata: { annotations: { [OP]: 'reconcile' } } }, { type: 'merge', namespace: ns });
        await waitFor(watcher, () => done(watcher.store.get(key)), 300_000, `${key} Succeeded`);
        const elapsed = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        counting = false;
        // Events are counted apart: they are sent in the background, off the critical path.
        const all = requests.slice(mark);
        const reqs = all.filter((r) => !isEvent(r));
        const events = all.length - reqs.length;
        const writes = reqs.filter((r) => r.method !== 'GET').length;
        totals.push(elapsed);
        cpus.push((cpu.user + cpu.system) / 1000);
        perItem.push(reqs.length / items);
        bounds.push(LAYERS * lat.min);
        console.log(
          `(a) run ${run}: ${items} items in ${LAYERS} layers: ${fmt(elapsed)} (process CPU ${fmt((cpu.user + cpu.system) / 1000)}); ` +
            `${reqs.length} requests (${writes} writes) = ${(reqs.length / items).toFixed(2)}/item, and ${events} Events; ` +
            `write latency min ${fmt(lat.min)} median ${fmt(lat.median)}; critical-path bound ${fmt(LAYERS * lat.min)}`,
        );
        console.log(`    requests: ${byVerb(all)}`);
      }
      const t = median(totals);
      const r = median(perItem);
      const b = median(bounds);
      results.push(
        `(a) ${LAYERS}×${WIDTH} DAG, median of ${REPEAT}: ${fmt(t)}, process CPU ${fmt(median(cpus))} (target < ${fmt(TARGET_A_MS)}, ${(t / TARGET_A_MS).toFixed(2)}× of target); ` +
          `${r.toFixed(2)} requests/item (target ≤ ${TARGET_A_REQ}, ${(r / TARGET_A_REQ).toFixed(2)}×); critical-path bound ${fmt(b)} (${(t / b).toFixed(1)}× the bound)`,
      );
    }

    if (PART.includes('b')) {
      const ns = 'roots';
      await client.create(namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      const names = Array.from({ length: ROOTS }, (_, i) => `root-${i}`);
      const createAll = async (list: string[]): Promise<void> => {
        let next = 0;
        await Promise.all(
          Array.from({ length: 16 }, async () => {
            while (next < list.length) {
              const n = list[next++]!;
              await client.create(installationsResource, installation(n, ns, threeItems, true));
            }
          }),
        );
      };
      // Checked on every watch event: finished roots leave the set, so a check does not walk all of them again.
      const allDone = (list: string[]) => {
        const pending = new Set(list);
        return () => {
          for (const n of pending) {
            if (!done(watcher.store.get(`${ns}/${n}`))) return false;
            pending.delete(n);
          }
          return true;
        };
      };
      counting = true;
      const mark0 = requests.length;
      const cpu0 = process.cpuUsage();
      const sched0 = mainThreadSched();
      const t0 = performance.now();
      await createAll(names);
      await waitFor(watcher, allDone(names), 600_000, `${ROOTS} roots Succeeded`);
      const first = performance.now() - t0;
      const cpuFirst = process.cpuUsage(cpu0);
      const schedFirst = schedSince(sched0);
      const firstReqs = requests.slice(mark0);
      console.log(`(b) ${ROOTS} roots × 3 items Succeeded after ${fmt(first)} (process CPU ${fmt((cpuFirst.user + cpuFirst.system) / 1000)}; ${schedFirst}); ${firstReqs.length} requests = ${(firstReqs.length / (ROOTS * 3)).toFixed(2)}/item, ${firstReqs.filter(isEvent).length} of them Events`);
      console.log(`    requests: ${byVerb(firstReqs)}`);
      const more = Array.from({ length: MORE }, (_, i) => `more-${i}`);
      const mark = requests.length;
      const cpu1 = process.cpuUsage();
      const sched1 = mainThreadSched();
      const t1 = performance.now();
      await createAll(more);
      await waitFor(watcher, allDone(more), 600_000, `${MORE} more Succeeded`);
      const second = performance.now() - t1;
      const cpuMore = process.cpuUsage(cpu1);
      const schedMore = schedSince(sched1);
      counting = false;
      const moreReqs = requests.slice(mark);
      console.log(`(b) ${MORE} more roots Succeeded after ${fmt(second)} (process CPU ${fmt((cpuMore.user + cpuMore.system) / 1000)}; ${schedMore}); ${moreReqs.length} requests = ${(moreReqs.length / (MORE * 3)).toFixed(2)}/item, ${moreReqs.filter(isEvent).length} of them Events`);
      console.log(`    requests: ${byVerb(moreReqs)}`);
      results.push(`(b) ${MORE} roots after ${ROOTS}: ${fmt(second)} (target < ${fmt(TARGET_B_MS)}, ${(second / TARGET_B_MS).toFixed(2)}× of target); the first ${ROOTS}: ${fmt(first)} (target < ${fmt(TARGET_B_FIRST_MS)}, ${(first / TARGET_B_FIRST_MS).toFixed(2)}×)`);
    }
  } finally {
    console.log('\nSummary');
    for (const r of results) console.log(`  ${r}`);
    await watcher.stop();
    await mgr.stop();
    await Promise.all([client.close(), mgrClient.close()]);
    await server.close();
  }
}

await main();
