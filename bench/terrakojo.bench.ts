// `npm run bench:terrakojo`: issue 12's end-to-end flow under load. The GitHub test server runs in this process;
// `bosun up` (API server, workload controllers, node agent, terrakojo controllers, webhook receiver) in a child,
// pointed at it with GitHub's pacing of writes off (GITHUB_WRITE_INTERVAL_MS=0; GitHub asks for a second between
// writes, which would make 200 check runs take minutes by itself).
// Measured, per run, in a fresh namespace and GitHub repository: one commit touching 200 folders
// (infra/f000/main.tf … infra/f199/main.tf) pushed, its webhook delivered; the time from the push until the first
// check run exists and until all 200 are completed/success; GitHub API calls under /check-runs per Workflow
// (target: distinct phases + 1 = 4) and the calls of the sync itself (everything else).
// The ceiling, in the same run and on the same node agent: 200 bare Jobs with the same (hardened) pod template
// created at once through the API, from the creates to all 200 Complete. Env: BENCH_REPEAT (default 3; medians
// are reported), BENCH_FOLDERS (default 200), BENCH_TRACE=1 (when the n-th Workflow, Job, pod and check run
// appeared and ended, as quantiles from the push, and the same for the ceiling's Jobs and pods).
import { readdirSync, readFileSync } from 'node:fs';
import type { KubeObject } from '../src/apimachinery/object.ts';
import { jobsResource, namespacesResource, podsResource } from '../src/apimachinery/builtin-resources.ts';
import { workflowsResource } from '../src/terrakojo/api/resources.ts';
import type { Workflow } from '../src/terrakojo/api/types.ts';
import { Informer } from '../src/runtime/informer/informer.ts';
import { applyJobDefaults } from '../src/terrakojo/workflow/job-builder.ts';
import type { Job, JobSpec } from '../src/apimachinery/api/index.ts';
import { OWNER, repositoryIn, runsOn, shellTemplate, startTerrakojoUp, type TerrakojoUp } from '../test/terrakojo/e2e/terrakojo-up.ts';

const REPEAT = Number(process.env['BENCH_REPEAT'] ?? 3);
const FOLDERS = Number(process.env['BENCH_FOLDERS'] ?? 200);
const TIMEOUT_MS = 300_000;
const SCRIPT = 'echo ok';
const TARGET_CALLS = 4;
const TRACE = process.env['BENCH_TRACE'] === '1';

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (ms: number): string => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
const folders = Array.from({ length: FOLDERS }, (_, i) => `infra/f${String(i).padStart(3, '0')}/main.tf`);

/**
 * BENCH_TRACE: the first time (Date.now()) each object of a namespace is seen in each named state, by a watch in
 * this process; report() prints, per state, when the first, 25%, 50%, 75% and last of `n` got there.
 */
class Trace {
  private readonly firsts = new Map<string, Map<string, number>>();
  private readonly informers: Informer<KubeObject>[] = [];

  constructor(
    private readonly t: TerrakojoUp,
    private readonly ns: string,
  ) {}

  mark(state: string, key: string, at = Date.now()): void {
    let seen = this.firsts.get(state);
    if (!seen) this.firsts.set(state, (seen = new Map()));
    if (!seen.has(key)) seen.set(key, at);
  }

  async watch<T extends KubeObject>(resource: typeof jobsResource, states: (obj: T) => string[]): Promise<void> {
    const informer = new Informer<T>({ client: this.t.client, resource, namespace: this.ns });
    const see = (obj: T): void => {
      for (const state of states(obj)) this.mark(state, obj.metadata.name ?? '');
    };
    informer.addEventHandler({ onAdd: see, onUpdate: (_old, obj) => see(obj) });
    informer.start();
    await informer.waitForSync();
    this.informers.push(informer as unknown as Informer<KubeObject>);
  }

  async stop(): Promise<void> {
    await Promise.all(this.informers.map((i) => i.stop()));
  }

  private cpuAtStart = { main: 0, tree: 0 };

  startCpu(): void {
    if (TRACE) this.cpuAtStart = upCpu(this.t.up.dataDir);
  }

  report(label: string, from: number, n: number): void {
    if (!TRACE) return;
    const cpu = upCpu(this.t.up.dataDir);
    console.log(`    trace ${label}: CPU of bosun up ${(cpu.main - this.cpuAtStart.main).toFixed(2)} s, of its process tree ${(cpu.tree - this.cpuAtStart.tree).toFixed(2)} s; ms from start: first / 25% / 50% / 75% / last of ${n}:`);
    for (const [state, seen] of this.firsts) {
      const at = [...seen.values()].map((v) => v - from).sort((a, b) => a - b);
      const nth = (q: number) => at[Math.min(at.length - 1, Math.max(0, Math.ceil(q * n) - 1))];
      console.log(`      ${state.padEnd(28)} ${[0, 0.25, 0.5, 0.75, 1].map((q) => (q === 0 ? at[0] : nth(q)) ?? '-').map((v) => String(v).padStart(6)).join(' ')}  (${at.length})`);
    }
  }
}

/** CPU seconds so far of `bosun up` itself and of its whole process tree (helpers, pods), from /proc; TRACE only. */
function upCpu(dataDir: string): { main: number; tree: number } {
  const tick = 100; // USER_HZ on Linux
  const procs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  const stats = new Map<number, { ppid: number; self: number; children: number }>();
  let root: number | undefined;
  for (const pid of procs) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(pid), { ppid: Number(f[1]), self: Number(f[11]) + Number(f[12]), children: Number(f[13]) + Number(f[14]) });
      if (root === undefined) {
        const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
        if (cmd.includes('up') && cmd.includes(dataDir)) root = Number(pid);
      }
    } catch {
      // gone meanwhile
    }
  }
  if (root === undefined) return { main: NaN, tree: NaN };
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = stats.get(p)?.ppid) if (p === root) return true;
    return false;
  };
  let tree = 0;
  for (const [pid, s] of stats) if (inTree(pid)) tree += s.self + s.children;
  return { main: stats.get(root)!.self / tick, tree: tree / tick };
}

const podStates = (pod: KubeObject): string[] => {
  const status = (pod as { status?: { phase?: string } }).status;
  return ['pod created', ...(pod.spec && (pod.spec as { nodeName?: string }).nodeName ? ['pod bound'] : []), ...(status?.phase === 'Running' ? ['pod Running'] : []), ...(status?.phase === 'Succeeded' ? ['pod Succeeded'] : [])];
};
const jobStates = (job: Job): string[] => ['job created', ...((job.status?.['active'] as number | undefined) ? ['job active'] : []), ...(complete(job) ? ['job Complete'] : [])];

interface TerrakojoRun {
  firstCheckRunMs: number;
  allCreatedMs: number;
  /** Check runs that went through in_progress: a Job that ends before its Running is seen skips that PATCH. */
  shownInProgress: number;
  allCompletedMs: number;
  checkRunCallsPerWorkflow: number;
  checkRunCallsByMethod: string;
  syncCalls: number;
  syncCallsByRoute: string;
}

/** The route of a call with owner, repository and ids taken out, e.g. "GET /repos/:o/:r/compare/:x". */
const route = (method: string, path: string): string => `${method} ${path.replace(/^\/repos\/[^/]+\/[^/]+/, '/repos/:o/:r').replace(/\/(branches|compare|commits|check-runs|pulls)\/[^/]+/, '/$1/:x')}`;

async function terrakojoRun(t: TerrakojoUp, n: number): Promise<TerrakojoRun> {
  const ns = `tk-${n}`;
  await repositoryIn(t, ns, ns, [shellTemplate('run', ['infra/**/*.tf'], SCRIPT)]);
  t.gh.resetCalls();
  // Counted as the calls come in: every check run is one POST and every completion a PATCH, so the full (copying)
  // look at the check runs waits until there can be FOLDERS completed ones.
  let creates = 0;
  let patches = 0;
  let counted = 0;
  const count = (): void => {
    for (; counted < t.gh.calls.length; counted++) {
      const call = t.gh.calls[counted]!;
      if (call.status >= 300 || !call.path.includes('/check-runs')) continue;
      if (call.method === 'POST') creates++;
      if (call.method === 'PATCH') patches++;
    }
  };
  const trace = new Trace(t, ns);
  if (TRACE) {
    await trace.watch<Workflow>(workflowsResource, (w) => ['workflow created', ...(w.metadata.finalizers?.length ? ['workflow finalizer'] : []), ...(w.status?.checkRunID ? ['workflow checkRunID'] : []), ...(w.status?.phase ? [`workflow ${w.status.phase}`] : [])]);
    await trace.watch<Job>(jobsResource, jobStates);
    await trace.watch(podsResource, podStates);
  }
  trace.startCpu();
  const pushedWall = Date.now();
  const pushedAt = performance.now();
  const sha = t.gh.commit(OWNER, ns, { branch: 'main', files: folders });
  const created = (n: number) => () => (count(), creates >= n);
  await t.gh.until(created(1), TIMEOUT_MS, 'the first check run');
  const firstCheckRunMs = performance.now() - pushedAt;
  await t.gh.until(created(FOLDERS), TIMEOUT_MS, `${FOLDERS} check runs`);
  const allCreatedMs = performance.now() - pushedAt;
  const done = (): boolean => {
    count();
    if (patches < FOLDERS) return false;
    const runs = runsOn(t, ns, sha);
    return runs.length === FOLDERS && runs.every((r) => r.status === 'completed');
  };
  await t.gh.until(done, TIMEOUT_MS, `${FOLDERS} completed check runs`, () => `${runsOn(t, ns, sha).filter((r) => r.status === 'completed').length} completed`);
  const allCompletedMs = performance.now() - pushedAt;
  const final = runsOn(t, ns, sha);
  const failed = final.filter((r) => r.conclusion !== 'success');
  const shownInProgress = final.filter((r) => r.history.some((h) => h.status === 'in_progress')).length;
  if (failed.length > 0) throw new Error(`${failed.length} check runs did not succeed: ${failed[0]?.name} ${failed[0]?.conclusion}`);
  if (TRACE) {
    await trace.stop();
    for (const r of final) for (const h of r.history) trace.mark(`check run ${h.status}`, String(r.id), Date.parse(h.at));
    trace.report('terrakojo', pushedWall, FOLDERS);
  }
  // Let the Branch go (it takes its Workflows and Jobs with it) so the next run starts on an idle node.
  await t.up.ok(['wait', '-n', ns, '--for=delete', 'branches', '--all', '--timeout=300s']);
  await t.up.ok(['wait', '-n', ns, '--for=delete', 'jobs', '--all', '--timeout=300s']);
  await t.up.ok(['wait', '-n', ns, '--for=delete', 'pods', '--all', '--timeout=300s']);
  const calls = [...t.gh.calls];
  const checkRunCalls = calls.filter((c) => c.path.includes('/check-runs'));
  const perMethod = (method: string) => checkRunCalls.filter((c) => c.method === method).length / FOLDERS;
  const syncCalls = calls.filter((c) => !c.path.includes('/check-runs'));
  const byRoute = new Map<string, number>();
  for (const c of syncCalls) byRoute.set(route(c.method, c.path), (byRoute.get(route(c.method, c.path)) ?? 0) + 1);
  return {
    firstCheckRunMs,
    allCreatedMs,
    allCompletedMs,
    shownInProgress,
    checkRunCallsPerWorkflow: checkRunCalls.length / FOLDERS,
    checkRunCallsByMethod: ['GET', 'POST', 'PATCH'].map((m) => `${perMethod(m).toFixed(2)} ${m}`).join(' + '),
    syncCalls: syncCalls.length,
    syncCallsByRoute: [...byRoute].map(([r, count]) => `${count}× ${r}`).join(', '),
  };
}

/** The pod template of the benchmark's WorkflowTemplate, hardened as terrakojo hardens it. */
function bareJob(ns: string, i: number): Job {
  const spec = structuredClone((shellTemplate('run', [], SCRIPT) as { spec: { job: JobSpec } }).spec.job);
  applyJobDefaults(spec);
  return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: `bare-${i}`, namespace: ns }, spec };
}

const complete = (job: Job): boolean => ((job.status?.['conditions'] ?? []) as { type: string; status: string }[]).some((c) => c.type === 'Complete' && c.status === 'True');

/** 200 bare Jobs created at once; the time until all are Complete, seen by a watch. */
async function ceilingRun(t: TerrakojoUp, n: number): Promise<number> {
  const ns = `bare-${n}`;
  await t.client.create<KubeObject>(namespacesResource, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const informer = new Informer<Job>({ client: t.client, resource: jobsResource, namespace: ns });
  const completed = new Set<string>();
  let resolveAll!: (at: number) => void;
  const all = new Promise<number>((resolve) => (resolveAll = resolve));
  const seen = (job: Job): void => {
    if (!complete(job)) return;
    completed.add(job.metadata.name ?? '');
    if (completed.size === FOLDERS) resolveAll(performance.now());
  };
  informer.addEventHandler({ onAdd: seen, onUpdate: (_old, job) => seen(job) });
  informer.start();
  const trace = new Trace(t, ns);
  try {
    await informer.waitForSync();
    if (TRACE) {
      await trace.watch<Job>(jobsResource, jobStates);
      await trace.watch(podsResource, podStates);
    }
    trace.startCpu();
    const createdWall = Date.now();
    const createdAt = performance.now();
    await Promise.all(Array.from({ length: FOLDERS }, (_, i) => t.client.create<Job>(jobsResource, bareJob(ns, i), { namespace: ns })));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out: ${completed.size}/${FOLDERS} bare Jobs Complete`)), TIMEOUT_MS)));
    const elapsed = (await Promise.race([all, timeout]).finally(() => clearTimeout(timer))) - createdAt;
    trace.report('ceiling', createdWall, FOLDERS);
    return elapsed;
  } finally {
    await informer.stop();
    await trace.stop();
    await t.up.ok(['delete', 'jobs', '--all', '-n', ns, '--wait=true', '--timeout=300s']);
    await t.up.ok(['wait', '-n', ns, '--for=delete', 'pods', '--all', '--timeout=300s']);
  }
}

async function main(): Promise<void> {
  const t = await startTerrakojoUp();
  console.log(`terrakojo benchmark (node ${process.version}, ${process.platform}/${process.arch}): one push touching ${FOLDERS} folders, ${REPEAT} runs; ceiling: ${FOLDERS} bare Jobs on the same node agent, measured in the same runs`);
  const runs: TerrakojoRun[] = [];
  const ceilings: number[] = [];
  try {
    for (let n = 0; n < REPEAT; n++) {
      // Ceiling and terrakojo alternate, so that the machine's noise falls on both.
      const ceiling = await ceilingRun(t, n);
      const run = await terrakojoRun(t, n);
      ceilings.push(ceiling);
      runs.push(run);
      console.log(`  run ${n + 1}: push → first check run ${fmt(run.firstCheckRunMs)}, → all ${FOLDERS} created ${fmt(run.allCreatedMs)}, → all completed ${fmt(run.allCompletedMs)}; ceiling ${fmt(ceiling)} (ratio ${(run.allCompletedMs / ceiling).toFixed(2)}x)`);
      console.log(`    check run calls per Workflow ${run.checkRunCallsPerWorkflow.toFixed(2)} (${run.checkRunCallsByMethod}; ${run.shownInProgress} of ${FOLDERS} shown in_progress); sync: ${run.syncCalls} calls (${run.syncCallsByRoute})`);
    }
  } finally {
    await t.close();
  }
  const all = median(runs.map((r) => r.allCompletedMs));
  const ceiling = median(ceilings);
  console.log(`terrakojo, medians of ${REPEAT} runs:`);
  console.log(`  push → first check run created: ${fmt(median(runs.map((r) => r.firstCheckRunMs)))}; → all ${FOLDERS} created: ${fmt(median(runs.map((r) => r.allCreatedMs)))}`);
  console.log(`  push → all ${FOLDERS} check runs completed/success: ${fmt(all)} (ceiling, ${FOLDERS} bare Jobs created at once → all Complete: ${fmt(ceiling)}; ratio ${(all / ceiling).toFixed(2)}x; per-run ratios ${runs.map((r, i) => (r.allCompletedMs / ceilings[i]!).toFixed(2)).join(' / ')})`);
  console.log(`  GitHub calls under /check-runs per Workflow: ${median(runs.map((r) => r.checkRunCallsPerWorkflow)).toFixed(2)} (target: distinct phases + 1 = ${TARGET_CALLS})`);
  console.log(`  GitHub calls of the sync itself (all others): ${median(runs.map((r) => r.syncCalls))} for the push`);
}

await main();
